"""How fast a session file imports, on SQLite and on PostgreSQL, and two imports at once.

1. In process: files of 500, 1 000 and 2 000 games (the largest file the app accepts) are
   imported one after the other into a throwaway database; each row gives the wall time,
   games per second (linear growth shows as a steady games/s) and this process's CPU time
   (the database server's is not in it).
2. On real gunicorn (2 sync workers, gunicorn's default 30 s timeout, as ``make serve``): two
   scorekeepers upload a 2 000-game file at the same moment through the import page; both must
   be answered with the new sitting (302), not a timeout.

    .venv/bin/python bench/bench_import.py                 # both databases
    .venv/bin/python bench/bench_import.py --sqlite-only
    .venv/bin/python bench/bench_import.py --sizes 100 2000 --no-parallel

SQLite is a new file under the system's temporary directory. PostgreSQL is a database of the
run's own (``tienlen_bench_import_<pid>`` on ``--pg-admin-url``), dropped at the end; if that
server cannot be reached the PostgreSQL rows are skipped with a note. The project's own
database is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import PostgresDatabase  # noqa: E402
from bench.sessiondata import session_data  # noqa: E402
from tests.reliability.realserver import (  # noqa: E402
    PASSWORD,
    Phone,
    Server,
    dbtool,
    manage,
    migrated_sqlite,
    sqlite_url,
)

SIZES = (500, 1000, 2000)


# --- 1. In process ------------------------------------------------------------------------


def measure(database_url: str, sizes: list[int]) -> list[dict[str, Any]]:
    """Run in a child process (its own Django, against ``database_url``)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from bench.production import debug_off

    debug_off()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from scoring.ledger import sessionfile
    from scoring.services import bulk_import as importer

    owner = get_user_model().objects.create_user("bench-import", password=PASSWORD)
    importer.session_import(owner=owner, data=session_data(10, "warm-up"))
    rows = []
    for size in sizes:
        data = session_data(size)
        raw = json.dumps(data, ensure_ascii=False).encode()
        start, cpu = time.perf_counter(), time.process_time()
        imported = importer.session_import(owner=owner, data=sessionfile.session_read(raw))
        seconds = time.perf_counter() - start
        rows.append(
            {
                "vendor": connection.vendor,
                "games": size,
                "seconds": seconds,
                "cpu": time.process_time() - cpu,
                "games_per_s": size / seconds,
                "kib": len(raw) / 1024,
                "stored": imported.sitting.games.count(),
            }
        )
    return rows


def run_measure(database_url: str, sizes: list[int]) -> list[dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, __file__, "--child", database_url, "--sizes", *map(str, sizes)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- 2. Two uploads at once on gunicorn -----------------------------------------------------


def parallel(database_url: str, games: int = 2000, uploads: int = 2) -> list[dict[str, Any]]:
    """``uploads`` scorekeepers post a ``games``-game file at the same moment."""
    users = [dbtool(database_url, "seed", "--username", f"nhap_{n}") for n in range(uploads)]
    assert len(users) == uploads
    body = json.dumps(session_data(games), ensure_ascii=False).encode()
    with Server(database_url, workers=uploads, timeout=30) as server:
        phones = [Phone(server.url, timeout=120).login(f"nhap_{n}") for n in range(uploads)]
        for phone in phones:
            phone.get("/import/")
        results: list[dict[str, Any]] = [{} for _ in phones]
        barrier = threading.Barrier(uploads)

        def upload(n: int) -> None:
            barrier.wait()
            start = time.perf_counter()
            try:
                status, headers, _body = phones[n].upload(
                    "/import/", {}, {"file": ("ban.json", body, "application/json")}
                )
                results[n] = {
                    "status": status,
                    "seconds": time.perf_counter() - start,
                    "location": headers.get("Location", ""),
                }
            except OSError as error:
                results[n] = {"status": None, "seconds": time.perf_counter() - start}
                results[n]["error"] = repr(error)

        threads = [threading.Thread(target=upload, args=(n,)) for n in range(uploads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results


def report(label: str, database_url: str, args: argparse.Namespace) -> bool:
    rows = run_measure(database_url, args.sizes)
    print(f"{label}: import in process (file read, checked, scored and written)")
    print(f"  {'games':>6} {'file KiB':>9} {'seconds':>8} {'games/s':>8} {'CPU s':>7}")
    for row in rows:
        print(
            f"  {row['games']:>6} {row['kib']:>9.0f} {row['seconds']:>8.2f} "
            f"{row['games_per_s']:>8.0f} {row['cpu']:>7.2f}"
        )
    ok = all(row["stored"] == row["games"] for row in rows)
    if not args.no_parallel:
        results = parallel(database_url)
        print(f"{label}: two 2000-game uploads at once, gunicorn 2 workers, timeout 30 s")
        for n, result in enumerate(results):
            print(
                f"  upload {n + 1}: status {result['status']} in {result['seconds']:.2f} s"
                + (f" ({result['error']})" if "error" in result else "")
            )
        ok = ok and all(r["status"] == 302 and "/s/" in r["location"] for r in results)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--no-parallel", action="store_true", help="skip the gunicorn part")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--child", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.sizes)))
        return 0
    # The machine may be shared: a fixed loop shows how fast it is right now.
    start = time.perf_counter()
    sum(range(10_000_000))
    print(
        f"machine check: 10^7 additions in {time.perf_counter() - start:.2f} s "
        "(compare between runs: it grows when other work shares the CPU)"
    )
    ok = report(
        "SQLite", sqlite_url(migrated_sqlite(Path(tempfile.mkdtemp(prefix="bench-import-")))), args
    )
    if not args.sqlite_only:
        try:
            database = PostgresDatabase(args.pg_admin_url, prefix="tienlen_bench_import")
            url = database.__enter__()
        except Exception as error:  # no server, no psycopg, no rights: say so and go on
            print(f"PostgreSQL: skipped ({error.__class__.__name__}: {error})")
        else:
            try:
                manage(url, "migrate", "--no-input", "--verbosity", "0")
                ok = report("PostgreSQL", url, args) and ok
            finally:
                database.__exit__()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
