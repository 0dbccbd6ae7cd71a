"""CPU cost of each kind of request, for the capacity plan (docs/scaling.md).

    .venv/bin/python bench/capacity.py                     # 200 requests of each kind
    .venv/bin/python bench/capacity.py --requests 500 --cache local

One gunicorn instance with one sync worker (production settings, persistent PostgreSQL
connection, Redis cache unless ``--cache local``) on a database of its own. Each kind of
request is sent one at a time, so nothing queues, and what is measured is CPU time, read from
/proc, not wall time: the app worker's, PostgreSQL's backends for this database, and Redis's.
CPU seconds per request hardly depend on what else the machine is doing, unlike latencies;
dividing one core-second by them gives requests per second per core. SQL statements come from
the server's probe headers, bytes are the compressed bodies a phone receives.

Kinds: a quiet poll (304, version in the cache), a quiet poll whose version is not cached, a
changed poll whose board another phone already rendered, the first poll after a change (it
renders the board), opening the live page, a record-form preview and a save.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import PHONE_HEADERS, PostgresDatabase, board_etag, seed  # noqa: E402
from tests.reliability.realserver import (  # noqa: E402
    PASSWORD,
    Phone,
    first_out_fields,
    manage,
    request,
)
from tests.reliability.stack import Stack  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


class Meter:
    """CPU seconds spent by the app's processes, PostgreSQL's backends and Redis."""

    def __init__(self, stack: Stack, database_url: str) -> None:
        import psycopg

        self.stack = stack
        self.name = database_url.rsplit("/", 1)[1]
        self.admin = psycopg.connect(database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True)

    def _pg_pids(self) -> list[int]:
        rows = self.admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.name]
        ).fetchall()
        return [r[0] for r in rows]

    def read(self) -> dict[str, float]:
        app = 0.0
        for server in self.stack.servers:
            assert server.proc is not None
            app += sum(cpu_seconds(p) for p in [server.proc.pid, *children(server.proc.pid)])
        redis = self.stack.redis
        return {
            "app": app,
            "postgres": sum(cpu_seconds(p) for p in self._pg_pids()),
            "redis": cpu_seconds(redis.proc.pid) if redis and redis.proc else 0.0,
        }


def measure(
    meter: Meter, count: int, send: Callable[[], tuple[int, object, bytes]], expect: int
) -> dict:
    sql, sizes, walls = [], [], []
    before = meter.read()
    for _ in range(count):
        started = time.perf_counter()
        status, headers, body = send()
        walls.append(time.perf_counter() - started)
        if status != expect:
            raise RuntimeError(f"expected {expect}, got {status}: {body[:300]!r}")
        sql.append(int(headers.get("X-Probe-SQL", "0")))  # type: ignore[attr-defined]
        sizes.append(len(body))
    after = meter.read()
    cost = {k: (after[k] - before[k]) / count for k in after}
    return {
        "app_ms": 1000 * cost["app"],
        "pg_ms": 1000 * cost["postgres"],
        "redis_ms": 1000 * cost["redis"],
        "per_core": 1 / cost["app"] if cost["app"] else float("inf"),
        "sql": statistics.fmean(sql),
        "bytes": statistics.fmean(sizes),
        "wall_p50_ms": 1000 * statistics.median(walls),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--cache", choices=["local", "redis"], default="redis")
    parser.add_argument(
        "--connections", choices=["persistent", "pool", "per-request"], default="persistent"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LOAD_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
        ),
    )
    args = parser.parse_args(argv)
    n = args.requests
    with PostgresDatabase(args.database_url) as database_url:
        manage(database_url, "migrate", "--no-input", "--verbosity", "0")
        seeded = seed(database_url)
        stack = Stack(
            database_url,
            instances=1,
            proxy=False,
            redis=args.cache == "redis",
            workers=1,
            connections=args.connections,
        )
        with stack:
            meter = Meter(stack, database_url)
            url = stack.url
            live = f"/live/{seeded['live_token']}/"
            members = seeded["members"]
            phone = Phone(url).login("thu_ky", PASSWORD)
            games = f"/s/{seeded['sitting']}/games/"
            htmx = {"HX-Request": "true"}

            def save(token: str | None = None, action: str = "save"):
                fields = first_out_fields(
                    members,
                    winner=members[0],
                    cards={m: 5 for m in members[1:]},
                    token=token or str(uuid.uuid4()),
                    action=action,
                )
                return phone.post(games, fields, {**htmx, **PHONE_HEADERS})

            for _ in range(20):  # a night already under way: 20 games on the board
                save()

            def poll(etag: str):
                return request(
                    url,
                    "GET",
                    live,
                    headers={**PHONE_HEADERS, "HX-Request": "true", "If-None-Match": etag},
                )

            _s, _h, page = request(url, "GET", live, headers=PHONE_HEADERS)
            current = board_etag(page) or ""
            old = '"0-vi-000000000000"'
            redis_client = None
            if stack.redis:
                import redis

                redis_client = redis.Redis.from_url(stack.redis.url)

            def forget_version():
                if redis_client is not None:
                    redis_client.delete(f":1:live-version:{seeded['live_token']}")
                else:
                    time.sleep(1.05)  # the local cache's entry expires

            rows: dict[str, dict] = {}
            for _ in range(20):  # warm the worker
                poll(current)
            rows["quiet poll (304)"] = measure(meter, n, lambda: poll(current), 304)
            if redis_client is not None or n <= 50:
                rows["quiet poll, version not cached"] = measure(
                    meter, min(n, 200), lambda: (forget_version(), poll(current))[1], 304
                )
            rows["changed poll, board cached"] = measure(meter, n, lambda: poll(old), 200)
            rows["first poll after a change"] = measure(
                meter, max(20, n // 4), lambda: (save(), poll(old))[1], 200
            )
            # That row counted a save too: take it away below, once the save is measured.
            rows["live page open"] = measure(
                meter, n, lambda: request(url, "GET", live, headers=PHONE_HEADERS), 200
            )
            rows["preview"] = measure(meter, n, lambda: save(action="preview"), 200)
            rows["save"] = measure(meter, max(20, n // 4), save, 200)
            first = rows["first poll after a change"]
            for key in ("app_ms", "pg_ms", "redis_ms"):
                first[key] -= rows["save"][key]
            first["per_core"] = 1000 / first["app_ms"] if first["app_ms"] > 0 else float("inf")
            first["wall_p50_ms"] = float("nan")
    print(
        f"one gunicorn sync worker, {args.cache} cache, {args.connections} PostgreSQL "
        "connections; "
        f"{n} requests per kind, one at a time; load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    print(
        f"{'kind':<32} {'app ms':>7} {'req/s/core':>10} {'PG ms':>6} {'redis ms':>8} "
        f"{'SQL':>5} {'bytes':>6} {'wall p50':>8}"
    )
    for kind, r in rows.items():
        print(
            f"{kind:<32} {r['app_ms']:>7.2f} {r['per_core']:>10.0f} {r['pg_ms']:>6.2f} "
            f"{r['redis_ms']:>8.3f} {r['sql']:>5.2f} {r['bytes']:>6.0f} {r['wall_p50_ms']:>8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
