"""``make load``: phones watching a live link while scorekeepers record, against real gunicorn.

    .venv/bin/python bench/load.py                 # 60 s, 200 phones, 4 scorekeepers
    .venv/bin/python bench/load.py --short         # 10 s (what CI can afford)
    .venv/bin/python bench/load.py --seconds 120 --phones 300 --workers 4 --threads 2
    .venv/bin/python bench/load.py --importers 2 --import-pause 10 --max-poll-ms 1000

It creates a PostgreSQL database of its own (``tienlen_load_<pid>`` on 127.0.0.1, dropped at
the end; ``--database-url`` to use another, ``--sqlite`` for a throwaway SQLite file), migrates
it, seeds a sitting with its live link on and three invited co-scorekeepers, and starts
gunicorn on a free loopback port. Then, for ``--seconds``:

* ``--phones`` simulated phones open the live page (spread over the first poll interval), read
  the poll URL, its interval and its ETag from the page itself (the ``hx-get`` element with
  ``hx-trigger="every …"``), and poll it the way htmx does: ``HX-Request`` and
  ``If-None-Match``; 304 means nothing new, 200 brings the new board and ETag;
* ``--keepers`` scorekeepers each record games through the record form as a phone does: a few
  preview posts (one per tap, ``--think`` seconds apart), then the save, each game with its own
  submission token.

* ``--importers`` scorekeepers (the imports scenario, 0 by default) each upload a
  ``--import-games``-game session file through the import page, wait ``--import-pause``
  seconds, and upload it again; every upload must be answered with its new sitting (302).
  With ``--max-poll-ms`` the run fails if any poll took longer.

It reports requests per second, p50/p99 latency and errors for each kind of request, then
audits the ledger (every game whole and exact, one per answered save). Everything runs on
127.0.0.1, with bounded threads and a bounded duration. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import gzip
import html
import http.client
import json
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability.realserver import (  # noqa: E402
    PASSWORD,
    Phone,
    Server,
    dbtool,
    first_out_fields,
    manage,
    migrated_sqlite,
    request,
    saved_number,
    sqlite_url,
)

# What a phone's browser sends with every request that matters for the server's work: it
# takes gzip, so the server compresses every board it sends.
PHONE_HEADERS = {"Accept-Encoding": "gzip"}
POLLER = re.compile(rb"<[^>]*\bhx-trigger=\"every (\d+(?:\.\d+)?)s\"[^>]*>")
ATTRIBUTE = r'\b{name}="([^"]*)"'


@dataclass
class Stats:
    """Latencies and outcomes per kind of request, shared by every simulated phone."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, status: int | None, error: str | None = None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if status is not None:
                self.statuses[kind][status] += 1
            if error:
                self.errors[kind].append(error)

    def report(self, seconds: float) -> list[dict]:
        rows = []
        for kind in sorted(self.latencies):
            times = sorted(self.latencies[kind])
            rows.append(
                {
                    "kind": kind,
                    "requests": len(times),
                    "per_second": len(times) / seconds,
                    "p50_ms": 1000 * statistics.median(times),
                    "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
                    "max_ms": 1000 * times[-1],
                    "statuses": dict(sorted(self.statuses[kind].items())),
                    "errors": len(self.errors[kind]),
                }
            )
        return rows

    @property
    def error_count(self) -> int:
        return sum(len(v) for v in self.errors.values())


@dataclass(frozen=True)
class Poll:
    path: str
    seconds: float
    etag: str


def discover_poll(
    base_url: str, live_path: str, headers: dict[str, str] | None = None
) -> tuple[Poll, bytes]:
    """Open the live page and read, from the page itself, what htmx will poll and how often."""
    status, _headers, body = request(base_url, "GET", live_path, headers=headers)
    if status == 200 and body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    if status != 200:
        raise RuntimeError(f"the live page answered {status}")
    match = POLLER.search(body)
    if match is None:
        raise RuntimeError("the live page has no element polling with hx-trigger='every …s'")
    tag = match.group(0).decode()
    path = re.search(ATTRIBUTE.format(name="hx-get"), tag)
    headers = re.search(ATTRIBUTE.format(name="hx-headers"), tag)
    etag = json.loads(html.unescape(headers.group(1)))["If-None-Match"] if headers else ""
    return Poll(
        html.unescape(path.group(1)) if path else live_path, float(match.group(1)), etag
    ), body


def board_etag(body: bytes) -> str | None:
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    match = POLLER.search(body)
    headers = (
        re.search(ATTRIBUTE.format(name="hx-headers"), match.group(0).decode()) if match else None
    )
    return json.loads(html.unescape(headers.group(1)))["If-None-Match"] if headers else None


def watch(base_url: str, live_path: str, stats: Stats, stop: threading.Event, start_in: float):
    """One phone: open the live link, then poll until told to stop."""
    if stop.wait(start_in):
        return
    started = time.perf_counter()
    try:
        poll, _body = discover_poll(base_url, live_path, PHONE_HEADERS)
        stats.add("live page", time.perf_counter() - started, 200)
    except (OSError, http.client.HTTPException, RuntimeError) as error:
        stats.add("live page", time.perf_counter() - started, None, repr(error))
        return
    etag = poll.etag
    rng = random.Random()
    next_tick = time.monotonic() + poll.seconds
    while not stop.wait(max(0.0, next_tick - time.monotonic())):
        next_tick += poll.seconds * rng.uniform(0.95, 1.05)  # timers on phones drift
        started = time.perf_counter()
        try:
            status, headers, body = request(
                base_url,
                "GET",
                poll.path,
                headers={**PHONE_HEADERS, "HX-Request": "true", "If-None-Match": etag},
            )
        except (OSError, http.client.HTTPException) as error:
            stats.add("poll", time.perf_counter() - started, None, repr(error))
            continue
        elapsed = time.perf_counter() - started
        if status == 200:
            # As htmx does: the next poll sends the If-None-Match of the board just swapped
            # in (its hx-headers), not the response's ETag header (which GZipMiddleware
            # turns weak).
            etag = board_etag(body) or headers.get("ETag", etag)
            stats.add("poll", elapsed, status)
        elif status == 304:
            stats.add("poll", elapsed, status)
        else:
            stats.add("poll", elapsed, status, f"status {status}")


def keep_score(
    base_url: str,
    username: str,
    sitting: int,
    members: list[str],
    stats: Stats,
    stop: threading.Event,
    think: float,
    taps: int,
    saved: list[int],
) -> None:
    """One scorekeeper: previews as the taps come, then the save, game after game."""
    rng = random.Random(username)
    try:
        phone = Phone(base_url).login(username, PASSWORD)
    except (AssertionError, OSError, http.client.HTTPException) as error:
        stats.add("record", 0.0, None, f"log-in failed: {error!r}")
        return
    url = f"/s/{sitting}/games/"
    htmx = {"HX-Request": "true"}
    while not stop.is_set():
        token = str(uuid.uuid4())
        winner = rng.choice(members)
        cards = {name: rng.randint(1, 13) for name in members if name != winner}
        for tap in range(taps):
            if stop.wait(think * rng.uniform(0.5, 1.5)):
                return
            partial = dict(list(cards.items())[: tap + 1])
            fields = first_out_fields(
                members, winner=winner, cards=partial, token=token, action="preview"
            )
            timed(
                stats, "preview", lambda f=fields: phone.post(url, f, htmx), lambda s, b: s == 200
            )
        if stop.wait(think * rng.uniform(0.5, 1.5)):
            return
        fields = first_out_fields(members, winner=winner, cards=cards, token=token)
        answer = timed(
            stats,
            "record",
            lambda f=fields: phone.post(url, f, htmx),
            lambda s, b: bool(saved_number(b)),
        )
        if answer is not None:
            saved.append(answer)


def keep_importing(
    base_url: str,
    username: str,
    body: bytes,
    stats: Stats,
    stop: threading.Event,
    pause: float,
    start_in: float,
) -> None:
    """One scorekeeper importing a session file through the upload page, again and again."""
    try:
        phone = Phone(base_url, timeout=60).login(username, PASSWORD)
        phone.get("/import/")
    except (AssertionError, OSError, http.client.HTTPException) as error:
        stats.add("import", 0.0, None, f"log-in failed: {error!r}")
        return
    if stop.wait(start_in):
        return
    while not stop.is_set():
        timed(
            stats,
            "import",
            lambda: phone.upload("/import/", {}, {"file": ("ban.json", body, "application/json")}),
            lambda s, b: s == 302,
        )
        if stop.wait(pause):
            return


def timed(stats: Stats, kind: str, send, ok) -> int | None:
    started = time.perf_counter()
    try:
        status, _headers, body = send()
    except (OSError, http.client.HTTPException) as error:
        stats.add(kind, time.perf_counter() - started, None, repr(error))
        return None
    good = ok(status, body)
    stats.add(kind, time.perf_counter() - started, status, None if good else f"status {status}")
    return saved_number(body) if good and kind == "record" else (0 if good else None)


@dataclass
class Result:
    seconds: float
    rows: list[dict]
    errors: dict[str, list[str]]
    saves: int
    audit: dict

    @property
    def ok(self) -> bool:
        return not any(self.errors.values()) and not self.audit["problems"]

    def table(self) -> str:
        lines = [
            f"{'kind':<10} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
            f"{'max ms':>7} {'errors':>6}  statuses"
        ]
        for r in self.rows:
            lines.append(
                f"{r['kind']:<10} {r['requests']:>8} {r['per_second']:>7.1f} {r['p50_ms']:>7.1f} "
                f"{r['p99_ms']:>7.1f} {r['max_ms']:>7.1f} {r['errors']:>6}  {r['statuses']}"
            )
        return "\n".join(lines)


def run_load(
    server: Server,
    seeded: dict,
    *,
    seconds: float,
    phones: int,
    keepers: int,
    think: float = 1.0,
    taps: int = 3,
    importers: list[str] | None = None,
    import_games: int = 2000,
    import_pause: float = 2.0,
) -> Result:
    """The core: phones and scorekeepers (and importers) against a running server, then the
    ledger audit."""
    live_path = f"/live/{seeded['live_token']}/"
    usernames = ["thu_ky", *seeded["keepers"]][:keepers]
    stats, stop, saved = Stats(), threading.Event(), []
    poll, _body = discover_poll(server.url, live_path)
    upload = b""
    if importers:
        from bench.bench_import import session_data

        upload = json.dumps(session_data(import_games), ensure_ascii=False).encode()
    threads = [
        threading.Thread(
            target=watch,
            args=(server.url, live_path, stats, stop, poll.seconds * i / max(1, phones)),
            daemon=True,
        )
        for i in range(phones)
    ]
    threads += [
        threading.Thread(
            target=keep_score,
            args=(
                server.url,
                name,
                seeded["sitting"],
                seeded["members"],
                stats,
                stop,
                think,
                taps,
                saved,
            ),
            daemon=True,
        )
        for name in usernames
    ]
    threads += [
        threading.Thread(
            target=keep_importing,
            args=(server.url, name, upload, stats, stop, import_pause, poll.seconds * (1 + n)),
            daemon=True,
        )
        for n, name in enumerate(importers or [])
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(30)
    elapsed = time.monotonic() - started
    audit = dbtool(server.database_url, "audit", str(seeded["sitting"]))
    if len(audit["games"]) != len(saved):
        audit["problems"].append(f"{len(saved)} saves answered, {len(audit['games'])} games stored")
    return Result(elapsed, stats.report(elapsed), dict(stats.errors), len(saved), audit)


def seed(database_url: str, importers: int = 0) -> dict:
    seeded = dbtool(database_url, "seed", "--live", "--keepers", "3", "--players", "4")
    seeded["importers"] = []
    for n in range(importers):
        name = f"nhap_{n + 1}"
        dbtool(database_url, "seed", "--username", name, "--password", PASSWORD)
        seeded["importers"].append(name)
    return seeded


class PostgresDatabase:
    """A database of this run's own on the local server, dropped at the end."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.name = f"tienlen_load_{os.getpid()}"

    def __enter__(self) -> str:
        self._execute(f'DROP DATABASE IF EXISTS "{self.name}"')
        self._execute(f'CREATE DATABASE "{self.name}"')
        return self.admin_url.rsplit("/", 1)[0] + "/" + self.name

    def __exit__(self, *exc: object) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _execute(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--short", action="store_true", help="10 seconds, for CI")
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--keepers", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0, help="seconds between taps")
    parser.add_argument("--taps", type=int, default=3, help="previews before each save")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LOAD_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
        ),
        help="a PostgreSQL server to create the run's database on",
    )
    parser.add_argument("--sqlite", action="store_true", help="a throwaway SQLite file instead")
    parser.add_argument(
        "--importers",
        type=int,
        default=0,
        help="scorekeepers uploading a session file again and again (the imports scenario)",
    )
    parser.add_argument("--import-games", type=int, default=2000, help="games in each file")
    parser.add_argument(
        "--import-pause", type=float, default=2.0, help="seconds between one's uploads"
    )
    parser.add_argument(
        "--max-poll-ms",
        type=float,
        default=None,
        help="fail if any poll took longer (the imports scenario uses 1000)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    args = parser.parse_args(argv)
    seconds = 10 if args.short else args.seconds

    def go(database_url: str) -> Result:
        if not args.sqlite:
            manage(database_url, "migrate", "--no-input", "--verbosity", "0")
        seeded = seed(database_url, args.importers)
        with Server(database_url, workers=args.workers, threads=args.threads, timeout=30) as server:
            print(
                f"gunicorn: {args.workers} workers × {args.threads} threads on {server.url}; "
                f"{args.phones} phones, {args.keepers} scorekeepers, {seconds:.0f} s"
                + (
                    f"; {args.importers} importing {args.import_games}-game files "
                    f"({args.import_pause:g} s apart)"
                    if args.importers
                    else ""
                ),
                flush=True,
            )
            return run_load(
                server,
                seeded,
                seconds=seconds,
                phones=args.phones,
                keepers=args.keepers,
                think=args.think,
                taps=args.taps,
                importers=seeded["importers"],
                import_games=args.import_games,
                import_pause=args.import_pause,
            )

    if args.sqlite:
        result = go(sqlite_url(migrated_sqlite(Path(tempfile.mkdtemp(prefix="tienlen-load-")))))
    else:
        with PostgresDatabase(args.database_url) as database_url:
            result = go(database_url)
    print(result.table())
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"CPU: load generator {own.ru_utime + own.ru_stime:.1f} s, server and tools "
        f"{children.ru_utime + children.ru_stime:.1f} s, over {result.seconds:.0f} s on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"games saved: {result.saves}; ledger audit: "
        f"{'clean' if not result.audit['problems'] else result.audit['problems'][:5]}"
    )
    for kind, errors in result.errors.items():
        for error in errors[:5]:
            print(f"  {kind}: {error}")
    slow_polls = 0
    if args.max_poll_ms is not None:
        polls = next((r for r in result.rows if r["kind"] == "poll"), None)
        worst = polls["max_ms"] if polls else 0.0
        slow_polls = int(worst > args.max_poll_ms)
        print(
            f"slowest poll: {worst:.0f} ms (limit {args.max_poll_ms:.0f} ms): "
            + ("within" if not slow_polls else "ABOVE THE LIMIT")
        )
    if args.json:
        print(json.dumps({"seconds": result.seconds, "rows": result.rows, "saves": result.saves}))
    return 0 if result.ok and not slow_polls else 1


if __name__ == "__main__":
    sys.exit(main())
