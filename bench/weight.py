"""Page weight: what a phone downloads to open a sitting page, measured in Chromium.

    .venv/bin/python bench/weight.py              # production mode (DEBUG=0, collected and
                                                  # compressed static files), throwaway SQLite
    .venv/bin/python bench/weight.py --debug      # what `make run` serves instead

Starts gunicorn on a free loopback port against a fresh SQLite file, records an evening of
games through the record form, then opens the sitting page in a fresh phone-sized Chromium
context (cold cache) and again in the same context (warm cache). Reports every response:
bytes on the wire (compressed as served: Chromium asks for gzip), the number of requests, and
the number of requests to any other host, which must be 0 (no CDN, no font service).

Production mode runs ``collectstatic`` into ``staticfiles/`` (git-ignored, as ``make serve``
does).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability.realserver import (  # noqa: E402
    Phone,
    Server,
    dbtool,
    first_out_fields,
    manage,
    migrated_sqlite,
    saved_number,
    sqlite_url,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "weight-bench-" + "x" * 50,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_HSTS_SECONDS": "0",
}


@dataclass
class Visit:
    responses: list[dict] = field(default_factory=list)
    other_hosts: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        """Requests that went over the network (not answered from the browser's cache)."""
        return sum(1 for r in self.responses if not r["cached"])

    @property
    def body_bytes(self) -> int:
        return sum(r["body"] for r in self.responses)

    @property
    def wire_bytes(self) -> int:
        return sum(r["body"] + r["headers"] for r in self.responses)

    def table(self) -> str:
        lines = [
            f"  {r['status']} {r['type']:<10} "
            + ("  (cache)" if r["cached"] else f"{r['body']:>7} B")
            + f"  {r['encoding'] or '-':<5} {r['path']}"
            for r in self.responses
        ]
        return "\n".join(lines)


def measure(browser, base_url: str, path: str, session_cookie: str) -> tuple[Visit, Visit]:
    """(cold, warm): the sitting page opened in a fresh phone context, then once more."""
    host = urlsplit(base_url).netloc
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "sessionid", "value": session_cookie, "url": base_url}])
    page = context.new_page()
    visits = []
    for _ in range(2):
        visit = Visit()

        def on_request(request, visit=visit):
            parts = urlsplit(request.url)
            if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != host:
                visit.other_hosts.append(request.url)

        def on_finished(request, visit=visit):
            response = request.response()
            if response is None:
                return
            sizes = request.sizes()
            # Chromium reports a negative size for what its memory or disk cache answered.
            cached = sizes["responseBodySize"] < 0 or sizes["responseHeadersSize"] < 0
            visit.responses.append(
                {
                    "cached": cached,
                    "path": urlsplit(request.url).path,
                    "status": response.status,
                    "type": request.resource_type,
                    "encoding": response.headers.get("content-encoding"),
                    "body": 0 if cached else sizes["responseBodySize"],
                    "headers": 0 if cached else sizes["responseHeadersSize"],
                }
            )

        page.on("request", on_request)
        page.on("requestfinished", on_finished)
        page.goto(base_url + path, wait_until="networkidle")
        page.remove_listener("request", on_request)
        page.remove_listener("requestfinished", on_finished)
        visits.append(visit)
    context.close()
    return visits[0], visits[1]


def record_evening(server: Server, sitting: int, members: list[str], games: int) -> Phone:
    phone = Phone(server.url).login()
    rng = random.Random(7)
    for _ in range(games):
        winner = rng.choice(members)
        cards = {n: rng.randint(1, 13) for n in members if n != winner}
        fields = first_out_fields(members, winner=winner, cards=cards, token=str(uuid.uuid4()))
        _status, _headers, body = phone.post(f"/s/{sitting}/games/", fields, {"HX-Request": "true"})
        assert saved_number(body), "a game of the evening was not saved"
    return phone


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug", action="store_true", help="measure DEBUG=1 (make run)")
    parser.add_argument("--games", type=int, default=24, help="games recorded first (24)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    env = {} if args.debug else PRODUCTION
    if not args.debug:
        manage(
            sqlite_url(Path(tempfile.mkdtemp()) / "x.sqlite3"),
            "collectstatic",
            "--no-input",
            "--verbosity",
            "0",
            env=PRODUCTION,
        )
    url = sqlite_url(migrated_sqlite(Path(tempfile.mkdtemp(prefix="tienlen-weight-"))))
    seeded = dbtool(url, "seed", "--players", "4")
    with Server(url, workers=2, env=env) as server:
        phone = record_evening(server, seeded["sitting"], seeded["members"], args.games)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            cold, warm = measure(
                browser, server.url, f"/s/{seeded['sitting']}/", phone.cookies["sessionid"]
            )
            browser.close()
    mode = "DEBUG=1 (make run)" if args.debug else "production (DEBUG=0, whitenoise, gzip)"
    print(f"Sitting page with {args.games} games, {mode}, 390x844 Chromium")
    print(
        f"cold cache: {cold.requests} requests, {cold.wire_bytes / 1024:.1f} KiB on the wire "
        f"({cold.body_bytes / 1024:.1f} KiB bodies)"
    )
    print(cold.table())
    print(f"warm cache: {warm.requests} requests, {warm.wire_bytes / 1024:.1f} KiB on the wire")
    print(warm.table())
    print(f"requests to other hosts: {len(cold.other_hosts) + len(warm.other_hosts)}")
    for other in cold.other_hosts + warm.other_hosts:
        print(f"  {other}")
    return 1 if cold.other_hosts or warm.other_hosts else 0


if __name__ == "__main__":
    sys.exit(main())
