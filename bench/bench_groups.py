"""How long a group's standing ledger takes: what the group page and its settle-up wait for.

A group of 8 people with 50 sittings of 200 games each (four of the eight at each table,
winners and cards varying by sitting; the games are written in bulk, as
``tests.factories.bulk_games`` does), plus a settlement per sitting and a few group-wide ones,
in a throwaway SQLite database. Printed, median of several runs, milliseconds:

- loading the group ledger (balances of everyone across the 50 sittings);
- the group settle-up: the exact minimum, "as played" and "through a banker";
- one player's statement, the explanation of the first suggestion, the chart series, the
  JSON export;
- the SQL queries of all of the above at 5 sittings and at 50 (they must be the same);
- the pages as served (Django's test client, logged in): the group settle-up and a
  player's statement, their time, HTML size and SQL queries at 5 sittings and at 50 (the
  settle-up must stay under 40 ms and 40 KB, the statement under 30 ms, and neither may need
  more queries at 50 sittings than at 5).

    .venv/bin/python bench/bench_groups.py [--sittings N] [--games N]

The database is a new file under the system's temporary directory, removed at the end.
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
WORKDIR = Path(tempfile.mkdtemp(prefix="bench-groups-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_SETTINGS_MODULE"] = "tienlen_site.settings"
os.environ.setdefault("LOG_LEVEL", "ERROR")
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring import engine, services  # noqa: E402
from scoring.ledger import groups as group_ledger  # noqa: E402
from scoring.models import Group, Player  # noqa: E402
from tests.factories import bulk_games  # noqa: E402

RUNS = 5
NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Lan"]
DAY = datetime.date(2026, 1, 5)


def median_ms(action: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


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
        winner = table[index % 4]
        for offset in range(2):
            rec = {
                "players": table,
                "finish": [table[(index + offset) % 4]],
                "hands": {
                    name: {"cards": 1 + (index * 3 + k + offset) % 12}
                    for k, name in enumerate(table)
                    if name != table[(index + offset) % 4]
                },
            }
            bulk_games(sitting, owner, games // 2, [rec])
        loser = table[(index + 1) % 4] if table[(index + 1) % 4] != winner else table[2]
        services.settlement_record(
            sitting=sitting,
            user=owner,  # type: ignore[arg-type]
            payer=Player.objects.get(group=group, name=loser),
            payee=Player.objects.get(group=group, name=winner),
            amount=1000 * (1 + index % 7),
        )


def everything(group: Group) -> None:
    ledger = group_ledger.GroupLedger.load(group)
    plan = ledger.plan(group_ledger.MIN)
    ledger.plan(group_ledger.PLAYED)
    ledger.plan(group_ledger.BANKER, ledger.default_banker())
    group_ledger.statement(group, ledger.players[0], ledger=ledger)
    if plan:
        group_ledger.explain(group, plan[0].payer, plan[0].payee, ledger=ledger)
    group_ledger.balance_series(ledger)
    group_ledger.ledger_version(group)


def queries(group: Group) -> int:
    with CaptureQueriesContext(connection) as ctx:
        everything(group)
    return len(ctx.captured_queries)


# What the pages must stay under at full size (50 sittings × 200 games).
SETTLE_MS, SETTLE_BYTES, STATEMENT_MS = 40.0, 40 * 1024, 30.0


def page_urls(group: Group) -> dict[str, str]:
    first = Player.objects.filter(group=group).order_by("name").first()
    assert first is not None
    return {
        "settle": f"/groups/{group.pk}/settle/",
        "statement": f"/groups/{group.pk}/players/{first.pk}/",
    }


def page_figures(client: Client, url: str) -> tuple[int, int]:
    """A page's HTML size in bytes and its SQL queries (it must answer 200)."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return len(response.content), len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=50)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    try:
        call_command("migrate", verbosity=0)
        owner = get_user_model().objects.create_user("bench", password="bench-groups-password")
        group = services.group_create(owner=owner, name="Bench").value
        add_sittings(group, owner, 0, 5, args.games)
        at_5 = queries(group)
        client = Client()
        client.force_login(owner)
        urls = page_urls(group)
        for url in urls.values():  # the first render compiles the templates
            client.get(url)
        pages_at_5 = {name: page_figures(client, url) for name, url in urls.items()}
        add_sittings(group, owner, 5, args.sittings, args.games)
        names = [p for p in Player.objects.filter(group=group)]
        for k in range(3):
            services.group_settlement_record(
                group=group,
                user=owner,
                payer=names[k],
                payee=names[k + 3],
                amount=5000,
                date=DAY + datetime.timedelta(days=args.sittings * 3),
            )
        at_n = queries(group)
        games = args.sittings * (args.games // 2 * 2)
        print(f"group of {len(names)} people, {args.sittings} sittings × {args.games} games "
              f"({games} games), SQLite; median of {RUNS}, ms")  # fmt: skip
        ledger = group_ledger.GroupLedger.load(group)
        plan = ledger.plan()
        banker = ledger.default_banker()
        rows = [
            ("load the group ledger (balances)", lambda: group_ledger.GroupLedger.load(group)),
            ("settle-up: exact minimum", lambda: ledger.plan(group_ledger.MIN)),
            ("settle-up: as played", lambda: ledger.plan(group_ledger.PLAYED)),
            ("settle-up: through a banker", lambda: ledger.plan(group_ledger.BANKER, banker)),
            (
                "group page (load + all three plans)",
                lambda: (
                    (fresh := group_ledger.GroupLedger.load(group)).plan(group_ledger.MIN),
                    fresh.plan(group_ledger.PLAYED),
                    fresh.plan(group_ledger.BANKER, fresh.default_banker()),
                ),
            ),
            (
                "one player's statement",
                lambda: group_ledger.statement(group, ledger.players[0], ledger=ledger),
            ),
            (
                "explain the first suggestion",
                lambda: group_ledger.explain(group, plan[0].payer, plan[0].payee, ledger=ledger),
            ),
            ("chart series", lambda: group_ledger.balance_series(ledger)),
            ("JSON export (export_dict)", lambda: group_ledger.export_dict(group)),
        ]
        for label, action in rows:
            print(f"  {label:<38}{median_ms(action):10.1f}")
        print(f"  suggested payments (minimum)          {len(plan):10d}")
        print(f"  SQL queries, all of the above: {at_5} at 5 sittings, {at_n} at {args.sittings}")
        failed = at_5 != at_n
        if failed:
            print("  FAIL: the query count grows with the sittings")
        print("pages (test client, logged in): ms, HTML bytes, SQL queries at 5 and at "
              f"{args.sittings} sittings")  # fmt: skip
        limits = {"settle": (SETTLE_MS, SETTLE_BYTES), "statement": (STATEMENT_MS, None)}
        for name, url in urls.items():
            size, count = page_figures(client, url)
            ms = median_ms(lambda url=url: client.get(url))
            label = {"settle": "group settle-up page", "statement": "player statement"}[name]
            print(f"  {label:<26}{ms:8.1f} ms{size:9d} B  {pages_at_5[name][1]} → {count} queries")
            most_ms, most_bytes = limits[name]
            full = args.sittings >= 50 and args.games >= 200
            if count != pages_at_5[name][1]:
                print(f"  FAIL: the {label} needs more queries at {args.sittings} sittings")
                failed = True
            if full and ms > most_ms:
                print(f"  MISSED: the {label} took over {most_ms:.0f} ms")
            if full and most_bytes is not None and size > most_bytes:
                print(f"  FAIL: the {label} is over {most_bytes // 1024} KB of HTML")
                failed = True
        if failed:
            sys.exit(1)
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)


if __name__ == "__main__":
    main()
