"""How many games the engine scores per second, validation included, on one core.

Draws a fixed mix of random valid records per preset (seeded, so runs compare), then times
``score_game(rules, record_dict, stake, prices=...)`` over them, the prices made once per
preset as an import makes them: the path an import takes. Prints one line per preset and an
overall line. Time is the process's CPU time, so other work on the machine does not lower the
figure.

    .venv/bin/python bench/bench_engine.py [--games N] [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import PRESETS, Prices, score_game
from scoring.engine.samples import random_record

STAKE = 1000  # a multiple of 2, so the ½ values of "cuoc" are whole đồng


def bench(preset: str, games: int, seconds: float) -> tuple[int, float]:
    """(games scored, seconds taken): whole passes over the records until ``seconds`` is up."""
    rules = PRESETS[preset]
    rng = random.Random(f"bench-{preset}")
    records = [random_record(rules, rng) for _ in range(games)]
    prices = Prices(rules, STAKE)
    done = 0
    start = time.process_time()
    while True:
        for record in records:
            score_game(rules, record, STAKE, prices=prices)
        done += len(records)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="records drawn per preset")
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent per preset")
    args = parser.parse_args()
    total_games, total_time = 0, 0.0
    for preset in PRESETS:
        games, elapsed = bench(preset, args.games, args.seconds)
        total_games += games
        total_time += elapsed
        print(f"{preset:<16} {games / elapsed:>10,.0f} games/s")
    print(f"{'overall':<16} {total_games / total_time:>10,.0f} games/s")


if __name__ == "__main__":
    main()
