"""Seed and audit a ledger from outside the server, in a process of its own.

    DATABASE_URL=… python -m tests.reliability.dbtool seed [--players 4] [--preset dem-la]
    DATABASE_URL=… python -m tests.reliability.dbtool audit <sitting id>

Each command prints one line of JSON. The fault and load tests use it because the server
under test runs against a database the test process may not be connected to (a SQLite file).
The audit recomputes every game from its record with the engine alone, so it does not trust
anything the server wrote.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from typing import Any

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em", "Phúc", "Giang", "Hà"]


def seed(
    *, players: int, preset: str, stake: int, live: bool, keepers: int, username: str, password: str
) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from scoring import services
    from tests.factories import live_link, open_sitting

    users = get_user_model().objects
    owner = users.filter(username=username).first() or users.create_user(
        username, password=password
    )
    sitting = open_sitting(owner, preset=preset, stake=stake, players=PLAYERS[:players])
    others = []
    for n in range(keepers):
        name = f"{username}_{n + 1}"
        other = users.filter(username=name).first() or users.create_user(name, password=password)
        services.sitting_share(sitting=sitting, user=owner, invitee=other)
        others.append(name)
    token = None
    if live:
        token = live_link(sitting, owner)
    return {
        "sitting": sitting.pk,
        "group": sitting.group_id,
        "members": PLAYERS[:players],
        "live_token": token,
        "keepers": others,
    }


def grow(sitting_id: int, *, sittings: int, games: int) -> dict[str, Any]:
    """More sittings of ``games`` games each in the group of ``sitting_id``, dated one week
    apart before it (copies of a few recorded games: ``tests.factories.bulk_games``)."""
    import datetime

    from scoring.models import Sitting
    from tests.factories import bulk_games, open_sitting

    first = Sitting.objects.select_related("owner", "group").get(pk=sitting_id)
    made = []
    for n in range(sittings):
        day = first.date - datetime.timedelta(days=7 * (n + 1))
        # The four players bulk_games' records name (the seed's first four).
        sitting = open_sitting(first.owner, group=first.group, day=day, stake=first.stake)
        bulk_games(sitting, first.owner, games)
        made.append(sitting.pk)
    return {"group": first.group_id, "sittings": made}


def audit(sitting_id: int) -> dict[str, Any]:
    """Every game either whole and exact, or absent; report what is not."""
    from scoring import engine, ledger
    from scoring.models import Game, HistoryEntry, Payment, Seat, Sitting

    sitting = Sitting.objects.get(pk=sitting_id)
    rules = engine.ruleset_from_dict(sitting.rules)
    problems: list[str] = []
    games = []
    expected_totals: Counter[int] = Counter()
    for game in Game.objects.filter(sitting=sitting).order_by("number"):
        label = f"game {game.number}"
        seats = list(Seat.objects.filter(game=game).select_related("player"))
        payments = list(
            Payment.objects.filter(game=game, revision=game.revision).select_related(
                "payer", "payee"
            )
        )
        result = engine.score_game(rules, engine.parse_record(game.record, rules), sitting.stake)
        want = sorted((t.payer, t.payee, t.amount, t.reason) for t in result.transfers)
        got = sorted((p.payer.name, p.payee.name, p.amount, p.reason) for p in payments)
        if got != want:
            problems.append(f"{label}: payments {got} != engine {want}")
        if sum(seat.net for seat in seats) != 0:
            problems.append(f"{label}: seats sum to {sum(s.net for s in seats)}")
        if {s.player.name: s.net for s in seats} != dict(result.net):
            problems.append(f"{label}: seats {[(s.player.name, s.net) for s in seats]}")
        if not HistoryEntry.objects.filter(game=game, action=HistoryEntry.Action.RECORDED).exists():
            problems.append(f"{label}: no history entry")
        if game.status == Game.Status.ACTIVE:
            for p in payments:
                expected_totals[p.payee_id] += p.amount
                expected_totals[p.payer_id] -= p.amount
        games.append(
            {
                "number": game.number,
                "token": str(game.submission_token),
                "revision": game.revision,
                "record": game.record,
            }
        )
    totals = {k: v for k, v in ledger.game_totals(sitting).items() if v}
    if totals != {k: v for k, v in expected_totals.items() if v}:
        problems.append(f"totals {totals} != sum of payments {dict(expected_totals)}")
    return {
        "games": games,
        "problems": problems,
        "payments": Payment.objects.filter(game__sitting=sitting).count(),
        "seats": Seat.objects.filter(game__sitting=sitting).count(),
        "history": HistoryEntry.objects.filter(sitting=sitting).count(),
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    parser = argparse.ArgumentParser(prog="dbtool")
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("seed")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--preset", default="dem-la")
    s.add_argument("--stake", type=int, default=1000)
    s.add_argument("--live", action="store_true")
    s.add_argument("--keepers", type=int, default=0, help="co-scorekeepers to invite")
    s.add_argument("--username", default="thu_ky")
    s.add_argument("--password", default="mat-khau-that-dai-2026")
    a = commands.add_parser("audit")
    a.add_argument("sitting", type=int)
    g = commands.add_parser("grow")
    g.add_argument("sitting", type=int)
    g.add_argument("--sittings", type=int, default=1)
    g.add_argument("--games", type=int, default=100)
    args = parser.parse_args(argv)
    if args.command == "grow":
        out = grow(args.sitting, sittings=args.sittings, games=args.games)
    elif args.command == "seed":
        out = seed(
            players=args.players,
            preset=args.preset,
            stake=args.stake,
            live=args.live,
            keepers=args.keepers,
            username=args.username,
            password=args.password,
        )
    else:
        out = audit(args.sitting)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
