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
    pass on another database can leave out what would only run the same code again; and run
    the long tests first."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") is None and not fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.nodb)
    # The longest first (the browser and server tests, then the sweeps and the Hypothesis
    # tests): dealt round the workers from the start (``--dist load``), they no longer leave
    # one worker finishing the last of them while the others wait.
    items.sort(key=_length)


def _length(item: pytest.Item) -> int:
    """0 for the tests that start a browser or servers, 1 for the other long ones, 2 else."""
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return 0
    hypothesis = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
    return 1 if hypothesis or item.get_closest_marker("long") else 2


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
def _fast_password_hashing(settings):
    # Real hashing is deliberately slow; the suite creates hundreds of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
