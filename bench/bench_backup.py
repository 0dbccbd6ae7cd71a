"""What a backup and a restore cost: wall time and file size, on SQLite and PostgreSQL.

A database of ``--sittings`` sittings of ``--games`` games each (imported as session files,
so every game has its seats, payments and history entry), then, as an operator runs them:

- ``manage.py backup FILE`` (the snapshot, the dump or copy, the manifest's books);
- ``manage.py restore FILE --yes`` into a new empty database (the load, every fingerprint
  compared, every book checked against its history as ``verify_ledger --all`` does).

    .venv/bin/python bench/bench_backup.py [--sittings 3] [--games 1000] [--sqlite-only]

Throwaway databases (a temporary folder; on the local PostgreSQL server, databases of this
run's own, dropped at the end). Wall seconds: each command is a process of its own, with
Django's start-up included; the load average is printed beside them. Exits 1 when a restore
does not agree with its backup.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import PostgresDatabase  # noqa: E402
from tests.reliability.realserver import (  # noqa: E402
    manage,
    migrated_sqlite,
    server_env,
    sqlite_url,
)

PRESET = "dem-la"


def seed(database_url: str, sittings: int, games: int) -> None:
    """In a child process: ``sittings`` imported sittings of ``games`` random games each."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from scoring import engine
    from scoring.engine.samples import NAMES, random_record
    from scoring.services import bulk_import as importer

    owner = get_user_model().objects.create_user("bench-backup", password="bench-backup-pw-1")
    rng = random.Random("bench-backup")
    for n in range(sittings):
        records = [random_record(engine.PRESETS[PRESET], rng) for _ in range(games)]
        data = {
            "name": f"Bàn {n + 1}",
            "rules": PRESET,
            "stake": 1000,
            "players": list(NAMES),
            "games": records,
            "settlements": [{"from": "An", "to": "Bình", "amount": 5000}],
        }
        importer.session_import(owner=owner, data=data)


def timed(database_url: str, *args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=server_env(database_url),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    return time.perf_counter() - start, result


def report(kind: str, source: str, target: str, folder: Path, args: argparse.Namespace) -> bool:
    subprocess.run(
        [sys.executable, __file__, "--child", source, "--sittings", str(args.sittings),
         "--games", str(args.games)],
        cwd=ROOT, env=server_env(source), check=True,
    )  # fmt: skip
    file = folder / f"{kind.lower()}.tar.gz"
    backup_s, made = timed(source, "backup", str(file))
    if made.returncode != 0:
        print(f"{kind}: backup failed: {made.stderr.strip()}")
        return False
    restore_s, restored = timed(target, "restore", str(file), "--yes")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    games = args.sittings * args.games
    print(f"{kind}: {args.sittings} sittings × {args.games} games (load {load})")
    print(f"  backup               {backup_s:7.2f} s   {file.stat().st_size / 1024:8.0f} KiB file")
    print(f"  restore, with checks {restore_s:7.2f} s   ({games / restore_s:.0f} games/s)")
    print(f"  {made.stdout.strip().split(': ', 1)[1]}")
    if restored.returncode != 0:
        print(f"  restore DISAGREES: {restored.stderr.strip()[-2000:]}")
        return False
    print(f"  {restored.stdout.strip().splitlines()[-1]}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=3)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--child", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        seed(args.child, args.sittings, args.games)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="bench-backup-"))
    source = sqlite_url(migrated_sqlite(folder))
    ok = report("SQLite", source, sqlite_url(folder / "restored.sqlite3"), folder, args)
    if not args.sqlite_only:
        try:
            first = PostgresDatabase(args.pg_admin_url, prefix="tienlen_bench_backup")
            second = PostgresDatabase(args.pg_admin_url, prefix="tienlen_bench_restored")
            source, target = first.__enter__(), second.__enter__()
        except Exception as error:  # no server, no psycopg, no rights: say so and go on
            print(f"PostgreSQL: skipped ({error.__class__.__name__}: {error})")
        else:
            try:
                manage(source, "migrate", "--no-input", "--verbosity", "0")
                ok = report("PostgreSQL", source, target, folder, args) and ok
            finally:
                first.__exit__()
                second.__exit__()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
