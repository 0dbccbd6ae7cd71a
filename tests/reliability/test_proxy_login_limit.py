"""The log-in limit through the repository's nginx configuration (deploy/nginx/tienlen.conf)
in front of a production-mode gunicorn (BEHIND_PROXY=1, PROXY_COUNT=1): the app counts the
address nginx saw, so a stranger's failures lock the stranger, not the owner, whatever the
stranger writes into X-Forwarded-For.

Both "machines" are on loopback: Linux answers on all of 127.0.0.0/8, so a connection from
127.0.0.2 and one from 127.0.0.3 reach nginx as two clients."""

import http.client
import os
import re
from urllib.parse import urlencode, urlsplit

import pytest

from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool
from tests.reliability.stack import Stack, find_binary

pytestmark = pytest.mark.slow

if find_binary("nginx") is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI must install nginx (see .ci/run)")
    pytest.skip("nginx not installed", allow_module_level=True)

STRANGER, OWNER = "127.0.0.2", "127.0.0.3"
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


class Machine:
    """A browser on its own address: keeps its cookies, logs in through the form."""

    def __init__(self, base_url: str, address: str) -> None:
        self.base_url = base_url
        self.address = address
        self.cookies: dict[str, str] = {}

    def _request(self, method, path, body=None, headers=None):
        parts = urlsplit(self.base_url)
        conn = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=30, source_address=(self.address, 0)
        )
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body, headers={"Cookie": cookie, **(headers or {})})
            response = conn.getresponse()
            for value in response.headers.get_all("Set-Cookie") or []:
                name, _eq, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, response.read()
        finally:
            conn.close()

    def log_in(self, password: str, forwarded_for: str | None = None) -> int:
        status, page = self._request("GET", "/accounts/login/")
        assert status == 200, status
        token = CSRF_FIELD.search(page).group(1).decode()
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": self.base_url,
        }
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        body = urlencode(
            {"csrfmiddlewaretoken": token, "username": SCOREKEEPER, "password": password}
        )
        status, _body = self._request("POST", "/accounts/login/", body.encode(), headers)
        return status


@pytest.fixture
def proxied(ledger_url):
    dbtool(ledger_url, "seed")
    with Stack(ledger_url, instances=1, redis=False, workers=1, threads=2) as running:
        yield running.url


def test_a_stranger_behind_nginx_cannot_lock_the_owner_out(proxied):
    stranger = Machine(proxied, STRANGER)
    # The stranger even claims to be the owner's address, and varies the claim.
    statuses = [stranger.log_in("sai", forwarded_for=f"{OWNER}, 198.51.100.{n}") for n in range(5)]
    assert statuses == [200, 200, 200, 200, 429], statuses
    assert stranger.log_in(PASSWORD, forwarded_for=OWNER) == 429, "locked from where it is"
    assert Machine(proxied, OWNER).log_in(PASSWORD) == 302
