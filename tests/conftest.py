import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import settings

from tests.hypothesis_counts import CI_EXAMPLES

# Hypothesis: "dev" (the default) is quick for a developer's `make test`; "ci" (set by .ci/run)
# is thorough. A test that names its own count writes it with tests.hypothesis_counts.examples
# so the profile scales it too.
settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=CI_EXAMPLES // 5, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The fixtures through which a test reaches the database under test (pytest-django's).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
     "live_server"}
)  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``nodb`` every test that never touches the database under test (the engine, the
    settle-up maths, the charts, the commands run against files of their own), so a second
    pass on another database can leave out what would only run the same code again; and deal
    the long tests through the collection."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") is None and not fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.nodb)
    items[:] = _dealt(items)


#: The long tests are spread over this first part of the collection, the rest over all of it.
LONG_SPAN = 0.8


def _dealt(items: list[pytest.Item]) -> list[pytest.Item]:
    """The collection with the long tests spread evenly through it, each kind on its own.

    ``make test`` runs pytest-xdist's work-stealing scheduler, which hands each worker one
    contiguous run of the collection and lets an idle worker take the back half of the longest
    queue. Spread out, every run holds its share of the browser, server and sweep tests; and
    as the last fifth is short tests only, what is stolen at the end is short too.
    """
    kinds: dict[int, list[pytest.Item]] = {0: [], 1: [], 2: []}
    for item in items:
        kinds[_length(item)].append(item)
    placed = []
    for kind, members in kinds.items():
        span = 1.0 if kind == 2 else LONG_SPAN
        for n, item in enumerate(members):
            placed.append(((n + 0.5) * span / len(members), kind, n, item))
    placed.sort(key=lambda entry: entry[:3])
    return [entry[3] for entry in placed]


def _length(item: pytest.Item) -> int:
    """0 for the tests that start a browser or servers, 1 for the other long ones, 2 else."""
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return 0
    hypothesis = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
    return 1 if hypothesis or item.get_closest_marker("long") else 2


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The test process keeps the web's lock_timeout, but not its statement and idle
    timeouts: pytest-django holds a transaction open for a whole test (a slow one on a busy
    machine pauses longer than 10 s between statements) and drops the test database at the
    end (a checkpoint, which can take longer than 10 s). The servers the tests start get all
    of them (tests/reliability)."""
    from django.db import connections

    options = connections["default"].settings_dict.get("OPTIONS", {})
    given = options.get("options", "")
    if given:
        kept = [part for part in given.split("-c ") if part.startswith("lock_timeout=")]
        options["options"] = " ".join(f"-c {part.strip()}" for part in kept)


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("chu_ban", password="mat-khau-dai-123")


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("nguoi_la", password="mat-khau-dai-123")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger):
    # Its own client, so a test can hold the owner's and a stranger's sessions at once.
    client = Client()
    client.force_login(stranger)
    return client


@pytest.fixture(autouse=True)
def _tasks_run_in_the_request(settings):
    # A background task runs inside the request that starts it, so a test sees its result at
    # once; the tests that start a real worker (tests/tasks) set the database backend back.
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing is deliberately slow; the suite creates hundreds of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
