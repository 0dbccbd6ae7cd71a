"""How long min_payments takes to settle a table, for 4, 8 and 12 people (and a bit beyond).

Three kinds of balances: all amounts different (few zero-sum subgroups), amounts drawn from
a handful of round values (many zero-sum subgroups, many equally short plans to choose
between), and half the table at +10k, half at -10k (about as many zero-sum subgroups as
there can be). Prints the median of several runs; 20 people is the most min_payments accepts.

    .venv/bin/python bench/bench_settle.py
"""

import random
import statistics
import time
from collections.abc import Callable

from scoring.engine.settle import min_payments

RUNS = 7
ROUND = (-50_000, -20_000, -10_000, 10_000, 20_000, 50_000)


def distinct(rng: random.Random, people: int) -> dict[str, int]:
    """All-distinct amounts, half owing and half owed."""
    while True:
        amounts = rng.sample(range(1_000, 1_000_000, 1_000), people - 1)
        amounts = [a if i % 2 else -a for i, a in enumerate(amounts)]
        amounts.append(-sum(amounts))
        if len(set(amounts)) == people and 0 not in amounts:
            return {f"P{i:02}": a for i, a in enumerate(amounts)}


def subgroups(rng: random.Random, people: int) -> dict[str, int]:
    """Round amounts (±10k, ±20k, ±50k): lots of zero-sum subgroups and ties."""
    while True:
        amounts = [rng.choice(ROUND) for _ in range(people - 1)]
        amounts.append(-sum(amounts))
        if 0 not in amounts:
            return {f"P{i:02}": a for i, a in enumerate(amounts)}


def even_split(rng: random.Random, people: int) -> dict[str, int]:
    """Half lost 10k, half won 10k: about as many zero-sum subgroups as there can be."""
    amounts = [10_000, -10_000] * (people // 2)
    rng.shuffle(amounts)
    return {f"P{i:02}": a for i, a in enumerate(amounts)}


def median_ms(make: Callable[[random.Random, int], dict[str, int]], people: int) -> float:
    rng = random.Random(people)
    times = []
    for _ in range(RUNS):
        balances = make(rng, people)
        start = time.perf_counter()
        min_payments(balances)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    kinds = {"distinct": distinct, "subgroups": subgroups, "even split": even_split}
    print(f"min_payments, median of {RUNS} random tables, milliseconds")
    print("people" + "".join(f"{kind:>12}" for kind in kinds))
    for people in (4, 8, 12, 16, 20):
        print(
            f"{people:>6}" + "".join(f"{median_ms(make, people):>12.2f}" for make in kinds.values())
        )


if __name__ == "__main__":
    main()
