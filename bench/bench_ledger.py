"""How long settling up and exporting take: what the settle-up and download pages wait for.

- ``settle.min_payments`` for 4, 8 and 12 people with random balances (median of several
  tables, milliseconds);
- a 1 000-game sitting, imported from a session file into a throwaway SQLite database, then
  exported as the JSON session file, the payments CSV and the totals CSV (median of several
  runs, milliseconds; the import is timed once).

    .venv/bin/python bench/bench_ledger.py [--games N]

The database is a new file under the system's temporary directory, removed at the end; the
project's own database is never touched.
"""

from __future__ import annotations

import argparse
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
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-ledger-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
os.environ.setdefault("LOG_LEVEL", "ERROR")

import django  # noqa: E402

django.setup()

from bench.production import debug_off  # noqa: E402

debug_off()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from scoring import engine  # noqa: E402
from scoring.engine import settle  # noqa: E402
from scoring.engine.samples import NAMES, random_record  # noqa: E402
from scoring.ledger import sessionfile, sheets  # noqa: E402
from scoring.services import bulk_import as importer  # noqa: E402

RUNS = 7
PRESET = "dem-la"
STAKE = 1000


def balances(rng: random.Random, people: int) -> dict[str, int]:
    """Amounts of a night at 1 000 ₫ a lá, summing to zero, nobody at zero."""
    while True:
        amounts = [rng.randrange(-300, 300) * 1000 for _ in range(people - 1)]
        amounts.append(-sum(amounts))
        if 0 not in amounts:
            return {f"P{i:02}": a for i, a in enumerate(amounts)}


def round_balances(rng: random.Random, people: int) -> dict[str, int]:
    """Only ±10k, ±20k, ±50k: many zero-sum groups, the exact search's harder case."""
    while True:
        amounts = [rng.choice((-50, -20, -10, 10, 20, 50)) * 1000 for _ in range(people - 1)]
        amounts.append(-sum(amounts))
        if 0 not in amounts:
            return {f"P{i:02}": a for i, a in enumerate(amounts)}


def median_ms(action: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_settle() -> None:
    print(f"settle.min_payments, median of {RUNS} random tables, ms")
    print("  people     night    round")
    for people in (4, 8, 12):
        cells = []
        for make in (balances, round_balances):
            rng = random.Random(f"{make.__name__}-{people}")
            tables = iter([make(rng, people) for _ in range(RUNS)])
            cells.append(median_ms(lambda t=tables: settle.min_payments(next(t))))
        print(f"  {people:>6}" + "".join(f"{cell:9.2f}" for cell in cells))


def bench_export(games: int) -> None:
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench-ledger-password")
    rng = random.Random("bench-ledger")
    data = {
        "name": "Bàn benchmark",
        "rules": PRESET,
        "stake": STAKE,
        "players": list(NAMES),
        "games": [random_record(engine.PRESETS[PRESET], rng) for _ in range(games)],
        "settlements": [],
    }
    start = time.perf_counter()
    sitting = importer.session_import(owner=owner, data=data).sitting
    imported = time.perf_counter() - start
    payments = sum(1 for _ in sheets.payments_csv(sitting).splitlines()) - 1
    print(f"\n{games}-game sitting ({payments} payments), SQLite")
    print(f"  import (once)          {imported * 1000:10.1f} ms")
    for label, export in (
        ("JSON session file", sessionfile.session_json),
        ("payments CSV", sheets.payments_csv),
        ("totals CSV", sheets.totals_csv),
    ):
        size = len(export(sitting).encode())
        print(
            f"  export {label:<16}{median_ms(lambda e=export: e(sitting)):10.1f} ms"
            f"  ({size / 1024:.0f} KiB, median of {RUNS})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    try:
        bench_settle()
        bench_export(args.games)
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)


if __name__ == "__main__":
    main()
