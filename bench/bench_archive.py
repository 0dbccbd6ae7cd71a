"""What moving a group costs: its archive written, then imported as a new group and checked.

A group of S sittings of G games each (đếm lá, random records, a settlement a sitting, made
through the session import), then, in CPU seconds of this process (SQLite runs in it):

- ``export_group --format archive`` (``scoring.ledger.archive.archive_bytes``), plain and
  gzipped, with the sizes;
- ``import_group`` (``scoring.services.group_archive``: the rows written, every book checked
  by ``verify_ledger``'s check as it goes), inside a transaction rolled back after each run.

    .venv/bin/python bench/bench_archive.py [--sittings S] [--games G]

A throwaway SQLite database under the system's temporary directory, removed at the end.
Exits 1 when the imported group's fingerprints are not the original's.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-archive-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
os.environ.setdefault("LOG_LEVEL", "ERROR")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from scoring import engine, services  # noqa: E402
from scoring.engine.samples import NAMES, random_record  # noqa: E402
from scoring.ledger import archive, archive_file, verify  # noqa: E402
from scoring.services import bulk_import as importer  # noqa: E402
from scoring.services import group_archive  # noqa: E402

PRESET = "dem-la"


class _RolledBack(Exception):
    pass


def median(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=20)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    owner = users.create_user("bench", password="bench-archive-password")
    mover = users.create_user("mover", password="bench-archive-password")
    group = services.group_create(owner=owner, name="Nhóm benchmark").value
    rng = random.Random("bench-archive")
    rules = engine.PRESETS[PRESET]
    first = datetime.date(2026, 1, 3)
    for n in range(args.sittings):
        data = {
            "name": f"Bàn {n + 1}",
            "date": (first + datetime.timedelta(weeks=n)).isoformat(),
            "rules": PRESET,
            "stake": 1000,
            "players": list(NAMES),
            "games": [random_record(rules, rng) for _ in range(args.games)],
            "settlements": [{"from": NAMES[0], "to": NAMES[1], "amount": 5000}],
        }
        importer.session_import(owner=owner, data=data, group=group)
    plain = archive.archive_bytes(group)
    packed = archive.archive_bytes(group, compress=True)
    export_s = median(lambda: archive.archive_bytes(group, compress=True), 3)

    def import_once() -> None:
        try:
            with transaction.atomic():
                # Read each time: the sittings are read as the import reaches them.
                data = archive_file.archive_read(packed)
                group_archive.group_import(owner=mover, data=data)
                raise _RolledBack
        except _RolledBack:
            pass

    import_s = median(import_once, 3)
    imported = group_archive.group_import(owner=mover, data=archive_file.archive_read(packed)).group
    same = verify.fingerprint_of(imported) == verify.fingerprint_of(group) and [
        verify.fingerprint_of(s) for s in imported.sittings.order_by("id")
    ] == [verify.fingerprint_of(s) for s in group.sittings.order_by("id")]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    games = args.sittings * args.games
    print(f"{args.sittings} sittings × {args.games} games, SQLite, CPU time (load {load})")
    sizes = f"{len(plain) / 1048576:.1f} MiB plain, {len(packed) / 1048576:.2f} MiB gzipped"
    print(f"  archive written (gzipped)  {export_s:7.2f} s   {sizes}")
    print(f"  imported and checked       {import_s:7.2f} s   ({games / import_s:.0f} games/s)")
    print(f"  fingerprints {'kept' if same else 'CHANGED'}")
    if not same:
        print("missed: the imported group's fingerprints differ", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    try:
        code = main()
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)
    sys.exit(code)
