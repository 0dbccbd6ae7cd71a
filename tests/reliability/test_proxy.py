"""The repository's nginx configuration (deploy/nginx/tienlen.conf), tested rather than just
documented: nginx on loopback in front of two gunicorn instances sharing a Redis cache, on the
test database. CI installs Debian's nginx and redis-server (.ci/run); on a machine without
them these tests are skipped, except under CI where that is a failure."""

import os
import re
import uuid
from pathlib import Path

import pytest

from tests.reliability.realserver import (
    PASSWORD,
    SCOREKEEPER,
    Phone,
    dbtool,
    first_out_fields,
    request,
    saved_number,
)
from tests.reliability.stack import Stack, find_binary

pytestmark = pytest.mark.slow

MISSING = [name for name in ("nginx", "redis-server") if find_binary(name) is None]
if MISSING:
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must install {' and '.join(MISSING)} (see .ci/run)")
    pytest.skip(f"{' and '.join(MISSING)} not installed", allow_module_level=True)

HTMX = {"HX-Request": "true"}
STATIC = re.compile(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"')


@pytest.fixture
def stack(ledger_url):
    seeded = dbtool(ledger_url, "seed", "--live", "--keepers", "1")
    with Stack(ledger_url, instances=2, workers=1, threads=2) as running:
        yield seeded, running


def test_nginx_serves_static_files_balances_and_shares_one_cache(stack):
    # One stack serves all these checks: starting nginx, Redis and two instances takes seconds.
    seeded, running = stack
    url = running.url
    live = f"/live/{seeded['live_token']}/"

    # Static files come from nginx, compressed ahead of time and cached for a year.
    status, headers, page = request(url, "GET", live)
    assert status == 200
    css = STATIC.search(page)
    assert css, "the page links its stylesheet by its hashed name"
    status, headers, _body = request(
        url, "GET", css.group(1).decode(), headers={"Accept-Encoding": "gzip"}
    )
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Encoding"] == "gzip"
    assert "X-Probe-Pid" not in headers, "nginx answered, not an app server"

    # Requests are balanced over both instances.
    instance_of = {}
    for n, server in enumerate(running.servers):
        assert server.proc is not None
        instance_of[server.proc.pid] = n
    pids = set()
    for _ in range(12):
        _s, headers, _b = request(url, "GET", live, headers=HTMX)
        pids.add(int(headers["X-Probe-Pid"]))
    parents = {_parent(pid) for pid in pids}
    assert parents == set(instance_of), (pids, instance_of)

    # A quiet poll through the proxy runs no SQL; after a save, the new board is rendered
    # once for both instances, and every phone gets it.
    _s, headers, _b = request(url, "GET", live, headers=HTMX)
    etag = headers["ETag"]
    _s, headers, _b = request(url, "GET", live, headers={**HTMX, "If-None-Match": etag})
    assert _s == 304 and headers["X-Probe-SQL"] == "0"
    phone = Phone(url).login(SCOREKEEPER, PASSWORD)
    members = seeded["members"]
    fields = first_out_fields(
        members, winner="An", cards={m: 4 for m in members[1:]}, token=str(uuid.uuid4())
    )
    _s, _h, body = phone.post(f"/s/{seeded['sitting']}/games/", fields, HTMX)
    assert saved_number(body) == 1
    renders, served = 0, set()
    for _ in range(10):
        status, headers, _b = request(url, "GET", live, headers={**HTMX, "If-None-Match": etag})
        assert status == 200
        renders += int(headers["X-Probe-Renders"])
        served.add(_parent(int(headers["X-Probe-Pid"])))
    assert served == set(instance_of)
    assert renders == 1


def test_nginx_sets_the_forwarded_scheme_itself_and_limits_bodies(stack):
    _seeded, running = stack
    # The app trusts X-Forwarded-Proto (BEHIND_PROXY=1). A client claiming https straight to an
    # instance is believed, and its plain-http log-in then fails the CSRF origin check; through
    # nginx the claim is replaced by the real scheme and the log-in works.
    spoofed = {"X-Forwarded-Proto": "https"}
    direct = Phone(running.servers[0].url)
    status, _h, _b = direct.get("/accounts/login/", spoofed)
    assert status == 200
    status, _h, _b = direct.post(
        "/accounts/login/",
        {
            "csrfmiddlewaretoken": direct.cookies["csrftoken"],
            "username": SCOREKEEPER,
            "password": PASSWORD,
        },
        spoofed,
    )
    assert status == 403
    proxied = Phone(running.url)
    status, _h, body = proxied.get("/accounts/login/", spoofed)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    status, _h, _b = proxied.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": SCOREKEEPER, "password": PASSWORD},
        spoofed,
    )
    assert status == 302

    # Bodies larger than the largest legitimate request (an import) stop at the proxy.
    status, _h, body = request(
        running.url,
        "POST",
        "/accounts/login/",
        body=b"x" * (6 * 1024 * 1024 + 1),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 413
    assert "tối đa 6 MB" in body.decode()
    # A body the size of the largest import passes through to the app (which answers it).
    status, _h, _b = request(
        running.url,
        "POST",
        "/accounts/login/",
        body=b"x" * (5 * 1024 * 1024 + 64 * 1024),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status != 413


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(stat[1])
