"""How long a group's standing ledger takes: what the group page and its settle-up wait for.

A group of 8 people with 50 sittings of 200 games each (four of the eight at each table,
winners and cards varying by sitting; the games are written in bulk, as
``tests.factories.bulk_games`` does), plus a settlement per sitting and a few group-wide ones,
in a throwaway SQLite database. Printed, median of several runs, milliseconds:

- loading the group ledger (balances of everyone across the 50 sittings);
- the group settle-up: the exact minimum, "as played" and "through a banker";
- one player's statement, the explanation of the first suggestion, the chart series, the
  JSON export;
- the SQL queries of all of the above at 30 sittings and at 50 (they must be the same);
- the pages as served (Django's test client, logged in): the group settle-up, a player's
  statement and what its "Từng ván" opens for one sitting, their time, HTML size and SQL
  queries at 30 sittings and at 50 (the settle-up must stay under 40 ms and 40 KB, the
  statement and a sitting's games under 30 ms, and none may need more queries at 50 sittings
  than at 30).

The first count is taken at 30 sittings, past each page's first screenful (a statement's 20
latest lines, the "Vì sao?"'s 20 sittings, the chart's 24 points, after which it sums by
week): a smaller group reads fewer rows in other shapes, and the count that must not move
is the one of a page that is full.

Each time is given twice, as wall time and as this process's CPU time (``bench.cpuclock``):
on a machine shared with other work the wall time is partly theirs, so the limits are judged
on CPU time, and a page over its limit fails the run (exit 1) as a query count that grows
does. Each figure is taken **cold** (the cache cleared before every run and the group ledger
loaded inside the timed run: nothing kept from an earlier read) and **warm** (after a run
that filled it, the ledger loaded once); a page is also timed **after
a save** (a game recorded in the last sitting before every run: the cache holds every other
sitting). Query counts are compared cold with cold and warm with warm, the cache cleared
between the two sizes so the second is not served by what the first kept.

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
import uuid
from collections.abc import Callable
from dataclasses import dataclass
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

from bench.production import debug_off  # noqa: E402

debug_off()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.cpuclock import process_seconds  # noqa: E402
from scoring import engine, services  # noqa: E402
from scoring.ledger import group_export, group_statements  # noqa: E402
from scoring.ledger.balance_chart import balance_series  # noqa: E402
from scoring.ledger.balances import BANKER, MIN, PLAYED  # noqa: E402
from scoring.ledger.standing import GroupLedger, ledger_version  # noqa: E402
from scoring.ledger.why import explain  # noqa: E402
from scoring.models import Group, Player, Sitting  # noqa: E402
from tests.factories import bulk_games  # noqa: E402

RUNS = 9
NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Lan"]
DAY = datetime.date(2026, 1, 5)
# The size the query counts are first taken at: every page full (see the docstring).
FIRST = 30


@dataclass(frozen=True)
class Timing:
    wall_ms: float
    cpu_ms: float
    least_cpu_ms: float  # the run least disturbed by the machine's other work

    def __str__(self) -> str:
        return f"{self.wall_ms:7.1f} /{self.cpu_ms:6.1f} ({self.least_cpu_ms:5.1f})"


def timed(
    action: Callable[[], object],
    *,
    cold: bool,
    before: Callable[[], object] | None = None,
    runs: int = RUNS,
) -> Timing:
    """Median wall and CPU milliseconds of ``action``: ``cold``, the cache cleared before each
    run; warm, after one untimed run that filled it. ``before`` runs (untimed) before each."""
    if not cold:
        action()
    walls, cpus = [], []
    for _ in range(runs):
        if before is not None:
            before()
        if cold:
            cache.clear()
        wall, cpu = time.perf_counter(), process_seconds()
        action()
        cpus.append((process_seconds() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return Timing(statistics.median(walls), statistics.median(cpus), min(cpus))


def captured(action: Callable[[], object]) -> int:
    """The SQL queries ``action`` runs. Under DEBUG every query is logged, at most 9 000 of
    them: once the log is full a capture counts none, so it is emptied first."""
    reset_queries()
    with CaptureQueriesContext(connection) as ctx:
        action()
    return len(ctx.captured_queries)


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
    ledger = GroupLedger.load(group)
    plan = ledger.plan(MIN)
    ledger.plan(PLAYED)
    ledger.plan(BANKER, ledger.default_banker())
    group_statements.statement(group, ledger.players[0], ledger=ledger)
    if plan:
        explain(group, plan[0].payer, plan[0].payee, ledger=ledger)
    balance_series(ledger)
    ledger_version(group)


def queries(group: Group, *, cold: bool) -> int:
    """The queries of ``everything``, cold (nothing kept) or warm (after a run that kept)."""
    cache.clear()
    if not cold:
        everything(group)
    return captured(lambda: everything(group))


def LOAD(ledger: GroupLedger) -> object:
    """The row that times loading the ledger itself (nothing more)."""
    return ledger


# What the pages must stay under at full size (50 sittings × 200 games).
SETTLE_MS, SETTLE_BYTES, STATEMENT_MS = 40.0, 40 * 1024, 30.0


def statement_subject(group: Group) -> tuple[Player, Sitting]:
    """The player whose statement is timed, and their latest sitting: the one a save goes to
    and whose games are opened."""
    first = Player.objects.filter(group=group).order_by("name").first()
    assert first is not None
    played = Sitting.objects.filter(group=group, memberships__player=first)
    latest = played.order_by("-date", "-id").first()
    assert latest is not None
    return first, latest


def page_urls(group: Group) -> dict[str, str]:
    player, sitting = statement_subject(group)
    return {
        "settle": f"/groups/{group.pk}/settle/",
        "statement": f"/groups/{group.pk}/players/{player.pk}/",
        "games": f"/groups/{group.pk}/players/{player.pk}/sittings/{sitting.pk}/games/",
    }


def page_headers(url: str) -> dict[str, str]:
    """What the browser sends for ``url``: a sitting's games are asked for by htmx."""
    return {"HX-Request": "true"} if url.endswith("/games/") else {}


def page_figures(client: Client, url: str, *, cold: bool) -> tuple[int, int]:
    """A page's HTML size in bytes and its SQL queries (it must answer 200), cold or warm."""
    cache.clear()
    if not cold:
        client.get(url, headers=page_headers(url))
    sizes = []

    def get() -> None:
        response = client.get(url, headers=page_headers(url))
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        sizes.append(len(response.content))

    count = captured(get)
    return sizes[0], count


def record_one(sitting: Sitting, owner: object) -> Callable[[], object]:
    """A game saved in ``sitting``, as a scorekeeper's phone saves it."""
    members = Player.objects.filter(memberships__sitting=sitting).order_by("name")
    table = list(members.values_list("name", flat=True))[:4]
    rec = {
        "players": table,
        "finish": [table[0]],
        "hands": {name: {"cards": 3 + k} for k, name in enumerate(table[1:])},
    }
    return lambda: services.game_record(
        sitting=sitting,
        user=owner,
        record=rec,
        token=uuid.uuid4(),  # type: ignore[arg-type]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=50)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if args.sittings <= FIRST:
        parser.error(f"--sittings must be more than {FIRST}, the size first counted")
    try:
        call_command("migrate", verbosity=0)
        owner = get_user_model().objects.create_user("bench", password="bench-groups-password")
        group = services.group_create(owner=owner, name="Bench").value
        add_sittings(group, owner, 0, FIRST, args.games)
        at_first = {cold: queries(group, cold=cold) for cold in (True, False)}
        client = Client()
        client.force_login(owner)
        urls = page_urls(group)
        for url in urls.values():  # the first render compiles the templates
            client.get(url, headers=page_headers(url))
        pages_at_first = {
            (name, cold): page_figures(client, url, cold=cold)
            for name, url in urls.items()
            for cold in (True, False)
        }
        add_sittings(group, owner, FIRST, args.sittings, args.games)
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
        at_n = {cold: queries(group, cold=cold) for cold in (True, False)}
        games = args.sittings * (args.games // 2 * 2)
        print(f"group of {len(names)} people, {args.sittings} sittings × {args.games} games "
              f"({games} games), SQLite; median of {RUNS}, ms of wall time / of CPU time (least "
              "CPU time), cold (cache cleared before each run) and warm")  # fmt: skip
        ledger = GroupLedger.load(group)
        plan = ledger.plan()
        banker = ledger.default_banker()
        # Each row is given the group ledger: warm, the one loaded above (and kept in the
        # cache); cold, one loaded afresh in the run, from an empty cache.
        rows: list[tuple[str, Callable[[GroupLedger], object]]] = [
            ("load the group ledger (balances)", LOAD),
            ("settle-up: exact minimum", lambda gl: gl.plan(MIN)),
            ("settle-up: as played", lambda gl: gl.plan(PLAYED)),
            ("settle-up: through a banker", lambda gl: gl.plan(BANKER, banker)),
            (
                "group page (load + all three plans)",
                lambda _gl: (
                    (fresh := GroupLedger.load(group)).plan(MIN),
                    fresh.plan(PLAYED),
                    fresh.plan(BANKER, fresh.default_banker()),
                ),
            ),
            (
                "one player's statement",
                lambda gl: group_statements.statement(group, gl.players[0], ledger=gl),
            ),
            (
                "explain the first suggestion",
                lambda gl: explain(group, plan[0].payer, plan[0].payee, ledger=gl),
            ),
            ("chart series", lambda gl: balance_series(gl)),
            ("JSON export (export_dict)", lambda _gl: group_export.export_dict(group)),
        ]
        print(f"  {'':<38}{'cold wall / CPU (least)':>24}{'warm wall / CPU (least)':>26}")
        for label, use in rows:

            def cold_run(use: Callable[[GroupLedger], object] = use) -> object:
                return use(GroupLedger.load(group))

            def warm_run(use: Callable[[GroupLedger], object] = use) -> object:
                return GroupLedger.load(group) if use is LOAD else use(ledger)

            cold, warm = timed(cold_run, cold=True), timed(warm_run, cold=False)
            print(f"  {label:<38}{cold!s:>24}{warm!s:>26}")
        print(f"  suggested payments (minimum)          {len(plan):10d}")
        failed = False
        for cold in (True, False):
            state = "cold" if cold else "warm"
            print(f"  SQL queries, all of the above, {state}: {at_first[cold]} at {FIRST} "
                  f"sittings, {at_n[cold]} at {args.sittings}")  # fmt: skip
            if at_first[cold] != at_n[cold]:
                print(f"  FAIL: the query count grows with the sittings ({state})")
                failed = True
        print(f"pages (test client, logged in), median of {RUNS}, ms of wall time / of CPU "
              f"time (least); HTML bytes; SQL queries at {FIRST} → {args.sittings} "
              "sittings")  # fmt: skip
        print(f"  {'':<24}{'cold':>24}{'after a save':>24}{'warm':>24}{'bytes':>8}  queries")
        limits = {
            "settle": (SETTLE_MS, SETTLE_BYTES),
            "statement": (STATEMENT_MS, None),
            "games": (STATEMENT_MS, None),
        }
        labels = {
            "settle": "group settle-up page",
            "statement": "player statement",
            "games": "one sitting's games",
        }
        save = record_one(statement_subject(group)[1], owner)
        urls = page_urls(group)  # the latest sitting is another than at FIRST sittings
        for name, url in urls.items():
            label = labels[name]
            counts = {cold: page_figures(client, url, cold=cold) for cold in (True, False)}
            size = counts[False][0]

            def get(url: str = url) -> object:
                return client.get(url, headers=page_headers(url))

            cold_t = timed(get, cold=True)
            saved_t = timed(get, cold=False, before=save)
            warm_t = timed(get, cold=False)
            shown = ", ".join(
                f"{'cold' if cold else 'warm'} {pages_at_first[name, cold][1]} → {counts[cold][1]}"
                for cold in (True, False)
            )
            print(f"  {label:<24}{cold_t!s:>24}{saved_t!s:>24}{warm_t!s:>24}{size:8d}  {shown}")
            most_ms, most_bytes = limits[name]
            full = args.sittings >= 50 and args.games >= 200
            for cold in (True, False):
                if counts[cold][1] != pages_at_first[name, cold][1]:
                    state = "cold" if cold else "warm"
                    print(f"  FAIL: the {label} needs more queries at {args.sittings} sittings "
                          f"({state})")  # fmt: skip
                    failed = True
            for state, timing in (("cold", cold_t), ("after a save", saved_t), ("warm", warm_t)):
                if full and timing.cpu_ms > most_ms:
                    print(f"  MISSED: the {label} took over {most_ms:.0f} ms of CPU ({state})")
                    failed = True
            if full and most_bytes is not None and size > most_bytes:
                print(f"  FAIL: the {label} is over {most_bytes // 1024} KB of HTML")
                failed = True
        if failed:
            sys.exit(1)
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)


if __name__ == "__main__":
    main()
