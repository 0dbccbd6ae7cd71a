"""How long the table's story takes: a group's stats page (every player's counts, the
head-to-head flows and their chart, rendered) at 5 and at 50 sittings of 200 games.

A group of 8 people, four at each table; each sitting's games alternate a plain first-out game
and one with a chặt chain and a cóng (written in bulk, as ``tests.factories.bulk_games``
does), in a throwaway SQLite database. Printed, median of several runs, milliseconds, and the
SQL queries of one page at 5 sittings and at 50 (they must be the same). The page adds up
each sitting's part, kept in the cache under the sitting's version (``scoring.ledger.stats``): the
page is timed as people meet it, past nights kept, and once more with the cache cleared
before each view (every part read from the database). Also timed, for scale: the stats and
flows read alone, a player's year, and re-pricing the whole group under another preset
(every game scored again by the engine).

    .venv/bin/python bench/bench_story.py [--sittings N] [--games N]

Wall and CPU milliseconds are printed; the CPU time (this process's, SQLite included) is what
the target is checked on, since on a shared machine the wall clock also measures the wait for
a core. Exits 1 if the query count grows with the sittings, or if the page (past nights kept)
takes over 100 ms of CPU.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-story-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ.setdefault("LOG_LEVEL", "ERROR")

import django  # noqa: E402

django.setup()

from bench.production import debug_off  # noqa: E402

debug_off()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring import engine, services  # noqa: E402
from scoring.ledger import stats  # noqa: E402
from scoring.ledger.reprice import reprice_group  # noqa: E402
from scoring.models import Group, Player  # noqa: E402
from tests.factories import bulk_games  # noqa: E402

RUNS = 7
TARGET_MS = 100
NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Lan"]
DAY = datetime.date(2026, 1, 5)


def median_ms(action: Callable[[], object], runs: int = RUNS) -> float:
    return timed(action, runs)[0]


def timed(action: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``action`` (CPU: this process's, SQLite included,
    since it runs in the process: what the request costs, whatever else the machine does)."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def records(table: list[str], index: int) -> list[dict]:
    a, b, c, d = table
    plain = {
        "players": table,
        "finish": [table[index % 4]],
        "hands": {
            name: {"cards": 1 + (index * 3 + k) % 12}
            for k, name in enumerate(table)
            if name != table[index % 4]
        },
    }
    chopped = {
        "players": table,
        "finish": [c],
        "cong": [d],
        "hands": {a: {"cards": 3}, b: {"cards": 7}, d: {"cards": 13}},
        "chat": [
            {
                "steps": [
                    {"player": a, "play": "heo", "cards": ["2D"]},
                    {"player": c, "play": "3dt"},
                ],
                "victim_out": False,
            }
        ],
    }
    return [plain, chopped]


def add_sittings(group: Group, owner: object, start: int, stop: int, games: int) -> None:
    for index in range(start, stop):
        table = [NAMES[(index + k) % len(NAMES)] for k in range(4)]
        sitting = services.sitting_open(
            owner=owner,  # type: ignore[arg-type]
            name=f"Bàn {index + 1}",
            date=DAY + datetime.timedelta(days=index * 3),
            rules=engine.PRESETS["dem-la"],
            stake=1000,
            player_names=table,
            group=group,
        )
        bulk_games(sitting, owner, games, records(table, index))


def page_queries(client: Client, url: str) -> int:
    """The SQL queries of the page with nothing kept (the cache cleared, so 5 and 50 sittings
    compare alike). Under DEBUG Django logs at most 9 000 queries and a full log counts none:
    building the sittings fills it, so it is emptied first."""
    cache.clear()
    reset_queries()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=50)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    failed = False
    try:
        call_command("migrate", verbosity=0)
        owner = get_user_model().objects.create_user("bench", password="bench-story-password")
        group = services.group_create(owner=owner, name="Bench").value
        client = Client()
        client.force_login(owner)
        url = f"/groups/{group.pk}/stats/?period=all"
        add_sittings(group, owner, 0, 5, args.games)
        at_5 = page_queries(client, url)
        page_5 = timed(lambda: client.get(url))
        add_sittings(group, owner, 5, args.sittings, args.games)
        at_n = page_queries(client, url)
        player = Player.objects.filter(group=group).order_by("pk").first()
        assert player is not None
        games = args.sittings * args.games
        print(f"group of {len(NAMES)} people, {args.sittings} sittings × {args.games} games "
              f"({games} games), SQLite; median of {RUNS}, ms")  # fmt: skip
        cold_n = timed(lambda: (cache.clear(), client.get(url)), 3)
        page_n = timed(lambda: client.get(url))
        rows = [
            ("stats and head to head (group_story)", lambda: stats.group_story(group)),
            ("a player's year", lambda: stats.player_year(group, player, DAY.year)),
        ]
        print(f"  {'':<40}{'wall':>10}{'CPU':>10}")
        print(f"  {'stats page at 5 sittings':<40}{page_5[0]:10.1f}{page_5[1]:10.1f}")
        label = f"stats page at {args.sittings} sittings"
        print(f"  {label:<40}{page_n[0]:10.1f}{page_n[1]:10.1f}")
        label = "  the same, nothing kept (cache cleared)"
        print(f"  {label:<40}{cold_n[0]:10.1f}{cold_n[1]:10.1f}")
        for label, action in rows:
            print(f"  {label:<40}{median_ms(action):10.1f}")
        reprice = median_ms(lambda: reprice_group(group, engine.PRESETS["dem-la-26"], 1000), 3)
        print(f"  {f're-price all {games} games (dem-la-26)':<40}{reprice:10.1f}")
        print(f"  SQL queries of the stats page: {at_5} at 5 sittings, {at_n} at {args.sittings}")
        if at_5 != at_n:
            print("  FAIL: the query count grows with the sittings")
            failed = True
        print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        # CPU time, not wall time: on a machine shared with other work the wall clock measures
        # the queue for a core as much as the page.
        if page_n[1] > TARGET_MS:
            print(f"  FAIL: the stats page took over {TARGET_MS} ms of CPU")
            failed = True
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
