"""No request, dead worker or burst takes the site down: two gunicorn instances of three sync
workers behind nginx with deploy/nginx/tienlen.conf included as it is, and the upstream written
as that file tells an operator to write it.

Each test makes one of the outages an attack found, then asks /healthz and a logged-in page
every few milliseconds for the next 10 s: every answer must be 200. Before the fix, each of
these gave every visitor 502 for about 10 s (nginx marked an instance down after one failed
answer, and the attack failed one answer per instance).
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.reliability.realserver import (
    HOST,
    PASSWORD,
    SCOREKEEPER,
    Phone,
    Server,
    dbtool,
    first_out_fields,
    request,
    saved_number,
)
from tests.reliability.stack import Stack, find_binary

pytestmark = pytest.mark.slow

MISSING = [name for name in ("nginx",) if find_binary(name) is None]
if MISSING:
    if os.environ.get("CI"):
        raise RuntimeError("CI must install nginx (see .ci/run)")
    pytest.skip("nginx not installed", allow_module_level=True)

HTMX = {"HX-Request": "true"}
MEMBERS = ["An", "Bình", "Chi", "Dũng"]
#: How long nginx's default policy kept an instance out after one failure, and so how long the
#: site must keep answering after each attack.
WATCH_SECONDS = 10.0
#: What an answer's headers may weigh (nginx's default proxy buffer): the app stays under it.
HEADER_BUDGET = 4096


@pytest.fixture
def stack(ledger_url):
    seeded = dbtool(ledger_url, "seed", "--players", "4")
    with Stack(ledger_url, instances=2, workers=3, threads=1, redis=False, timeout=30) as running:
        phone = Phone(running.url).login(SCOREKEEPER, PASSWORD)
        yield seeded, running, phone


def watch(running: Stack, phone: Phone, page: str, seconds: float = WATCH_SECONDS) -> list[str]:
    """Ask /healthz (anonymous) and ``page`` (logged in) in turn for ``seconds``: every answer
    that was not 200."""
    failures: list[str] = []
    asked = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = request(running.url, "GET", "/healthz", timeout=15)[0]
        if status != 200:
            failures.append(f"{time.monotonic() - deadline + seconds:.1f} s /healthz {status}")
        status = phone.get(page)[0]
        if status != 200:
            failures.append(f"{time.monotonic() - deadline + seconds:.1f} s {page} {status}")
        asked += 2
        time.sleep(0.02)
    assert asked >= 10, asked  # a busy machine answers slower; the watch still spans 10 s
    return failures


def header_bytes(headers) -> int:
    return sum(len(k) + len(v) + 4 for k, v in headers.items())


def test_long_addresses_from_an_anonymous_visitor_take_no_instance_out(stack):
    seeded, running, phone = stack
    page = f"/s/{seeded['sitting']}/"
    attacks = [f"{page}?" + "&" * 1300, "/groups?" + "a" * 3800]
    # Twice each: least_conn sends one to each instance.
    for address in attacks + attacks:
        status, headers, body = request(running.url, "GET", address)
        assert status == 414, (address[:20], status)
        assert "Location" not in headers
        assert header_bytes(headers) < HEADER_BUDGET
        assert "Địa chỉ quá dài" in body.decode()
    # Longer than the proxy takes: refused by nginx, before any instance sees it.
    status, _h, _b = request(running.url, "GET", "/groups/?" + "a" * 5000)
    assert status == 414
    status, _h, _b = request(running.url, "GET", "/healthz", headers={"X-Long": "a" * 5000})
    assert status == 431
    assert watch(running, phone, page) == []
    assert "too big header" not in running.nginx.error_log()


def test_payments_posted_with_long_fields_take_no_instance_out(stack):
    seeded, running, phone = stack
    sitting = seeded["sitting"]
    fields = first_out_fields(
        MEMBERS, winner="An", cards={"Bình": 5, "Chi": 3, "Dũng": 1}, token=str(uuid.uuid4())
    )
    assert saved_number(phone.post(f"/s/{sitting}/games/", fields, HTMX)[2]) == 1
    settlement = pay_first_suggestion(phone, sitting)
    void = f"/s/{sitting}/settlements/{settlement}/void/"
    hostile = {"method": "banker" + "x" * 3000, "banker": "9" * 3000, "reason": "thử"}
    # Voiding a void payment still answers with a redirect: two per instance.
    for _ in range(4):
        status, headers, _b = phone.post(void, hostile)
        assert status == 302, status
        assert headers["Location"] == f"/s/{sitting}/settle/?method=min"
        assert header_bytes(headers) < HEADER_BUDGET
    assert watch(running, phone, f"/s/{sitting}/settle/") == []
    assert "too big header" not in running.nginx.error_log()


def test_a_worker_killed_mid_request_on_each_instance_loses_only_its_request(stack, ledger_url):
    seeded, running, phone = stack
    sitting = seeded["sitting"]
    page = f"/s/{sitting}/"
    answers: list[tuple[int, bytes]] = []

    def save() -> None:
        token = str(uuid.uuid4())
        fields = first_out_fields(
            MEMBERS, winner="Chi", cards={"An": 2, "Bình": 2, "Dũng": 2}, token=token
        )
        status, _h, body = phone.post(f"/s/{sitting}/games/", fields, HTMX)
        answers.append((status, body))

    # The row held by something that takes none of its places, so one save per instance can
    # wait behind it (with a stopped save as the holder, the second save would get 503 at once).
    with holding_the_write_lock(ledger_url, sitting, as_a_save=False):
        # One save per instance, each stuck behind the lock inside a worker.
        savers = [threading.Thread(target=save) for _ in running.servers]
        for saver in savers:
            saver.start()
            time.sleep(0.3)
        busy = [busy_worker(server, timeout=10) for server in running.servers]
        for pid in busy:
            os.kill(pid, signal.SIGKILL)
    for saver in savers:
        saver.join(30)
    # The two saves died with their workers and were not replayed by the proxy (a POST never
    # is): each got 502, and no game was written by them.
    assert sorted(status for status, _b in answers) == [502, 502], answers
    assert watch(running, phone, page) == []
    # The page's pending-save queue resends a save that got no answer; a fresh one goes in.
    save()
    assert answers[-1][0] == 200 and saved_number(answers[-1][1]) == 1, answers[-1]


# --- Helpers -------------------------------------------------------------------------------


def pay_first_suggestion(phone: Phone, sitting: int) -> int:
    """Tap the first pay button of the settle-up (a plain form post); the payment's id."""
    _s, _h, body = phone.get(f"/s/{sitting}/settle/")
    form = re.search(rb"<form [^>]*data-pay>(.*?)</form>", body, re.S)
    assert form, "the settle-up offers a payment"
    fields = [
        (k.decode(), v.decode())
        for k, v in re.findall(rb'name="(\w+)" value="([^"]*)"', form.group(1))
    ]
    status, _h, _b = phone.post(f"/s/{sitting}/settlements/", fields)
    assert status == 302, status
    _s, _h, body = phone.get(f"/s/{sitting}/settle/")
    found = re.search(rb"/s/\d+/settlements/(\d+)/void/", body)
    assert found, "the payment is listed with its void form"
    return int(found.group(1))


@contextmanager
def holding_the_write_lock(database_url: str, sitting: int, *, as_a_save: bool = True):
    """Hold what a save waits for: the sitting's row (PostgreSQL) or the database's write lock
    (SQLite), so a save sent now sits inside its worker until the block ends.

    ``as_a_save``: the holder is a save stopped in its transaction, so it also holds one of the
    row's places (waits.py) and only one more save can wait behind it; without, the row is held
    as an operator's ``psql`` or a migration would hold it, taking no place, and both places
    are left for saves."""
    parts = urlsplit(database_url)
    if parts.scheme == "sqlite":
        connection = sqlite3.connect(parts.path[1:] if parts.path.startswith("//") else parts.path)
        connection.isolation_level = None
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
            connection.close()
        return
    import psycopg

    from tienlen_site.plumbing.waits import PLACES, SITTING_ROW, TAKE_A_PLACE

    with psycopg.connect(database_url) as connection, connection.transaction():
        if as_a_save:
            connection.execute(TAKE_A_PLACE, [PLACES - 1, SITTING_ROW, sitting])
        connection.execute("SELECT 1 FROM scoring_sitting WHERE id = %s FOR UPDATE", [sitting])
        yield


def busy_worker(server: Server, timeout: float) -> int:
    """The worker of ``server`` holding a connection from the proxy: the one mid-request (a
    sync worker holds none between requests, since nginx closes after each answer)."""
    assert server.proc is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inodes = _established_inodes(server.port)
        for pid in _children(server.proc.pid):
            try:
                fds = list(Path(f"/proc/{pid}/fd").iterdir())
            except OSError:
                continue
            for fd in fds:
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    return pid
        time.sleep(0.05)
    raise AssertionError(f"no worker of {server.url} was mid-request")


def _established_inodes(port: int) -> set[str]:
    """The sockets accepted on ``HOST:port`` and still open (state 01 in /proc/net/tcp)."""
    local = f"{''.join(reversed([f'{int(b):02X}' for b in HOST.split('.')]))}:{port:04X}"
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        cols = line.split()
        if cols[1] == local and cols[3] == "01":
            inodes.add(cols[9])
    return inodes


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == parent:
            found.append(int(entry.name))
    return found
