"""What the history's hash chain costs: on a save, and to check a whole sitting.

- the chain's share of a save: reading the book's head and hashing the new entry's
  canonical JSON (``scoring.engine.chain.link_all``), for an edit of a game in a 1 000-game
  sitting (median of many, milliseconds; the target is under 1 ms);
- ``manage.py verify_ledger --sitting`` on that sitting, the command itself (the chain, then
  every game's record, payments and seats through the engine, every settlement, and its
  checkpoint written; median of three, seconds; the target is under 2 s);
- ``verify_session`` on its exported session file, for comparison (no database).

    .venv/bin/python bench/bench_chain.py [--games N]

A throwaway SQLite database under the system's temporary directory, removed at the end.
Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import io
import json
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
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-chain-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
os.environ.setdefault("LOG_LEVEL", "ERROR")

import django  # noqa: E402

django.setup()

from bench.production import debug_off  # noqa: E402

debug_off()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from scoring import engine, services  # noqa: E402
from scoring.engine import chain  # noqa: E402
from scoring.engine.samples import NAMES, random_record  # noqa: E402
from scoring.ledger import (  # noqa: E402
    replay,
    sessionfile,
    verify,
)
from scoring.models import HistoryEntry, Sitting  # noqa: E402
from scoring.services import bulk_import as importer  # noqa: E402

PRESET = "dem-la"
STAKE = 1000
SAVE_TARGET_MS = 1.0
VERIFY_TARGET_S = 2.0


def median(action: Callable[[], object], runs: int) -> float:
    """Median CPU seconds of this process (SQLite runs in it): on a machine shared with other
    work, wall time measures the others too; the load average is printed beside it."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench-chain-password")
    rng = random.Random("bench-chain")
    records = [random_record(engine.PRESETS[PRESET], rng) for _ in range(args.games + 1)]
    data = {
        "name": "Bàn benchmark",
        "rules": PRESET,
        "stake": STAKE,
        "players": list(NAMES),
        "games": records[:-1],
        "settlements": [],
    }
    sitting = importer.session_import(owner=owner, data=data).sitting
    # An ordinary edit through the service, so the sitting's history has every kind of row.
    last = sitting.games.get(number=args.games)
    services.game_edit(game=last, user=owner, record=records[-1], expected_revision=1)
    entries = HistoryEntry.objects.filter(sitting=sitting).count()

    def link_one() -> None:
        chain.link_all([entry])

    # The entry the service would insert (building it is the save's cost, chain or not).
    entry = HistoryEntry(
        sitting=sitting, game=last, user=owner, action="edited", revision=3,
        before=records[-1], after=last.record,
    )  # fmt: skip

    # The chain's work on a save, inside the transaction the service has open anyway (its
    # own cost, BEGIN and COMMIT, is the save's whatever the chain does).
    with transaction.atomic():
        save_ms = median(link_one, 301) * 1000
        # For scale: the cheapest query a save runs anyway (one row by primary key).
        query_ms = (
            median(lambda: Sitting.objects.filter(pk=sitting.pk).values("version").first(), 301)
            * 1000
        )
    out = io.StringIO()

    def command() -> None:
        call_command("verify_ledger", "--sitting", str(sitting.pk), stdout=out)

    # The command as an operator runs it (a whole check: every run reads the whole book).
    check_s = median(command, 3)
    verdict = verify.verify_sitting(sitting)
    printed = out.getvalue().split()
    text = sessionfile.session_json(sitting)
    parsed = json.loads(text)
    file_s = median(lambda: replay.check_session_file(parsed), 3)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.games}-game sitting, {entries} history entries, SQLite, CPU time (load {load})")
    print(f"  chain on a save (head + hash)  {save_ms:8.3f} ms  (target < {SAVE_TARGET_MS} ms)")
    print(f"    (one-row query by primary key, for scale: {query_ms:.3f} ms)")
    print(f"  verify_ledger --sitting        {check_s:8.3f} s   (target < {VERIFY_TARGET_S} s)")
    print(f"  verify_session (no database)   {file_s:8.3f} s   ({len(text) / 1024:.0f} KiB file)")
    print(f"  fingerprint {verdict.fingerprint}, {'agrees' if verdict.ok else 'MISMATCH'}")
    missed = []
    if printed[-1:] != [verdict.fingerprint]:
        missed.append("verify_ledger did not print the fingerprint")
    if not verdict.ok or replay.check_session_file(parsed).mismatch is not None:
        missed.append("the sitting does not verify")
    if save_ms >= SAVE_TARGET_MS:
        missed.append(f"chain on a save took {save_ms:.3f} ms")
    if check_s >= VERIFY_TARGET_S:
        missed.append(f"verify_ledger took {check_s:.2f} s")
    for line in missed:
        print(f"missed: {line}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    try:
        code = main()
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)
    sys.exit(code)
