"""A session file as a long evening would export it: what the import benchmark uploads and
the load test's importers send (``bench_import.py``, ``load.py``; kept apart from both so
neither imports the other)."""

from __future__ import annotations

import random
from typing import Any

PRESET = "dem-la"
NAMES = ("An", "Bình", "Chi", "Dũng", "Em", "Phúc", "Giang", "Hà")


def session_data(games: int, seed: str = "bench-import") -> dict[str, Any]:
    """A session file as a long evening would export it: every 40th game voided, a
    settlement every 100 games (every fifth of them voided), eight players."""
    from scoring import engine
    from scoring.engine.samples import random_record

    rng = random.Random(f"{seed}-{games}")
    rules = engine.PRESETS[PRESET]
    records: list[dict[str, Any]] = []
    for n in range(games):
        record = random_record(rules, rng, NAMES)
        if n % 40 == 39:
            record = {**record, "void": True, "void_reason": "chia bài sai"}
        records.append(record)
    settlements: list[dict[str, Any]] = []
    for n in range(max(1, games // 100)):
        payer, payee = rng.sample(NAMES[:4], 2)
        entry: dict[str, Any] = {"from": payer, "to": payee, "amount": 1000 * rng.randint(1, 500)}
        if n % 5 == 4:
            entry.update(void=True, void_reason="nhầm")
        settlements.append(entry)
    return {
        "version": 1,
        "name": f"Bàn {games} ván",
        "date": "2026-05-16",
        "rules": PRESET,
        "stake": 1000,
        "players": list(NAMES),
        "games": records,
        "settlements": settlements,
    }
