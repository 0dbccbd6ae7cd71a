"""Build a group of S sittings × G games (``bench/grow.py``) in a throwaway SQLite database,
write its gzipped archive, then import it with ``import_group`` in a fresh process and print
that process's peak resident memory (MB), its time and whether the fingerprints were kept, as
one JSON line. Run by test_big_import.py (and by hand: ``big_archive.py S G``); not a test
module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.memory import peak_mb  # noqa: E402


def _setup(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    # As in production: with DEBUG on, Django keeps the last 9 000 queries, values spelled in.
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "big-archive-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    import django

    django.setup()


def build(database: Path, sittings: int, games: int, out: Path) -> str:
    _setup(database)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from bench import grow
    from scoring import services
    from scoring.ledger import archive, verify

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    owner = users.create_user("ban_dau", password="big-archive-password")
    users.create_user("nguoi_nhan", password="big-archive-password")
    group = services.group_create(owner=owner, name="Nhóm năm năm").value
    grow.add_sittings(group, owner, 0, sittings, games)
    out.write_bytes(archive.archive_bytes(group, compress=True))
    fingerprint = verify.fingerprint_of(group)
    # The build's write-ahead log folded into the file: the importing process then measures
    # its import, not SQLite reading the builder's log.
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return fingerprint


def load(database: Path, path: Path) -> None:
    """In its own process: import the file, print peak memory and time."""
    _setup(database)
    from django.core.management import call_command

    start = time.monotonic()
    call_command("import_group", str(path), owner="nguoi_nhan", stdout=sys.stderr)
    seconds = time.monotonic() - start
    peak = peak_mb()
    print(json.dumps({"seconds": seconds, "peak_mb": peak}))


def main() -> None:
    if sys.argv[1] == "--load":
        load(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    sittings, games = int(sys.argv[1]), int(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="big-archive-") as work:
        database, path = Path(work) / "db.sqlite3", Path(work) / "group.json.gz"
        start = time.monotonic()
        fingerprint = build(database, sittings, games, path)
        built = time.monotonic() - start
        done = subprocess.run(
            [sys.executable, __file__, "--load", str(database), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            print(json.dumps({"error": done.stderr[-2000:]}))
            return
        found = json.loads(done.stdout.strip().splitlines()[-1])
        said = done.stderr
        found.update(
            built_seconds=built,
            archive_bytes=path.stat().st_size,
            kept=f"group {fingerprint}" in said,
        )
        print(json.dumps(found))


if __name__ == "__main__":
    main()
