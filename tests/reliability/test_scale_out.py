"""Stateless app servers: two gunicorn instances (separate processes on separate ports, as
separate machines would be) on one database. Whatever one instance knows, the other knows:
sessions, CSRF, log-in limits, live links, and a save retried against the other instance
lands once. These need only the database (PostgreSQL or a SQLite file both instances open);
test_proxy.py puts nginx and Redis in front."""

import threading
import time
import uuid

import pytest

from scoring.ledger import live_cache
from tests.reliability.realserver import (
    PASSWORD,
    SCOREKEEPER,
    Phone,
    Server,
    dbtool,
    first_out_fields,
    saved_number,
)

pytestmark = pytest.mark.slow

HTMX = {"HX-Request": "true"}


@pytest.fixture
def two_instances(ledger_url, tmp_path):
    seeded = dbtool(ledger_url, "seed", "--live", "--keepers", "1")
    env = {"AXES_FAILURE_LIMIT": "3"}
    a = Server(ledger_url, workers=1, threads=2, env=env, log_dir=tmp_path / "a")
    b = Server(ledger_url, workers=1, threads=2, env=env, log_dir=tmp_path / "b")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with a, b:
        yield seeded, a, b


def _game(seeded, token, winner="An"):
    members = seeded["members"]
    cards = {name: 3 + i for i, name in enumerate(members) if name != winner}
    return first_out_fields(members, winner=winner, cards=cards, token=token)


def _on(server, phone):
    """The same phone (cookies and all) talking to another instance."""
    return Phone(server.url, cookies=phone.cookies)


def test_sessions_csrf_live_links_and_retried_saves_work_across_instances(
    two_instances, ledger_url
):
    # Each server start costs seconds, so one pair of instances serves all these checks.
    seeded, a, b = two_instances
    url = f"/s/{seeded['sitting']}/games/"

    # A session and CSRF token from one instance work on the other.
    on_a = Phone(a.url).login(SCOREKEEPER, PASSWORD)
    on_b = _on(b, on_a)
    status, _h, _body = on_b.get(f"/s/{seeded['sitting']}/")
    assert status == 200

    # A save retried against the other instance lands once: the answer was lost on the way
    # back, the phone retries, and the proxy sends the retry to the other instance.
    token = str(uuid.uuid4())
    _s, _h, first = on_a.post(url, _game(seeded, token), HTMX)
    _s, _h, retry = on_b.post(url, _game(seeded, token), HTMX)
    assert saved_number(first) == saved_number(retry) == 1, (first[:300], retry[:300])
    tokens = [token]

    # The same save sent to both instances at the same moment lands once.
    for round_ in range(4):
        token = str(uuid.uuid4())
        winner = seeded["members"][round_ % 4]
        answers: list = [None, None]
        gate = threading.Barrier(2)

        def send(i, phone, token=token, winner=winner, answers=answers, gate=gate):
            gate.wait()
            answers[i] = phone.post(url, _game(seeded, token, winner), HTMX)

        threads = [threading.Thread(target=send, args=(i, p)) for i, p in enumerate((on_a, on_b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        got = {saved_number(body) for _status, _h, body in answers}
        assert got == {round_ + 2}, [body[:300] for _s, _h, body in answers]
        tokens.append(token)

    audit = dbtool(ledger_url, "audit", str(seeded["sitting"]))
    assert audit["problems"] == []
    assert [g["token"] for g in audit["games"]] == tokens

    # A live link answers the same board, with the same tag, on both. Each instance here
    # keeps its own memory cache, so the version one cached from its last write may trail the
    # other's for up to live_cache.VERSION_SECONDS; after that they agree.
    time.sleep(live_cache.VERSION_SECONDS + 0.1)
    path = f"/live/{seeded['live_token']}/"
    etags = set()
    for server in (a, b):
        status, headers, _body = Phone(server.url).get(path, HTMX)
        assert status == 200
        etags.add(headers["ETag"])
    assert len(etags) == 1

    # Failed log-ins count across instances: three failures spread over both lock the
    # account out on both (a limit of three here, to spare the password hashing).
    other = seeded["keepers"][0]
    for server in (a, b, a):
        with pytest.raises(AssertionError):
            Phone(server.url).login(other, "not-the-password")
    for server in (a, b):
        with pytest.raises(AssertionError) as refused:
            Phone(server.url).login(other, PASSWORD)
        assert "429" in str(refused.value)
