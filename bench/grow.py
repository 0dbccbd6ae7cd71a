"""A group with years of nights, built fast: what the growth and chain benchmarks measure.

``add_sittings`` opens each sitting and records its one settlement through the services (so
the sitting, its members, its history and the settlement are what the site writes), and writes
its games in bulk: each distinct record is scored once by the engine (``services.game_score``,
no write), then every game, seat, payment and history entry is inserted with ``bulk_create``
exactly as ``services.games.game_record`` writes them, the history chained as it is inserted
(``HistoryEntry.objects.bulk_create``). The book verifies (``verify_ledger``) like one recorded
game by game, in a fraction of the time.

Django must be set up before this module is imported.
"""

from __future__ import annotations

import datetime
import random
import uuid
from typing import Any

from django.db import transaction
from django.db.models import F

from scoring import engine, services
from scoring.engine.samples import random_record
from scoring.ledger import live_cache
from scoring.models import Game, Group, HistoryEntry, Player, Sitting
from scoring.services.bulk_import import insert_seats_and_payments

NAMES = ("An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Lan")
DAY = datetime.date(2024, 1, 5)
# Distinct records per sitting; the games of a sitting take them in turn.
VARIANTS = 12


def table_of(index: int) -> list[str]:
    """The four of the eight who play the ``index``-th sitting (everyone takes turns)."""
    return [NAMES[(index + k) % len(NAMES)] for k in range(4)]


def add_sittings(group: Group, owner: Any, start: int, stop: int, games: int) -> list[Sitting]:
    """Sittings ``start`` to ``stop - 1`` of ``group`` (a week apart), ``games`` games each
    and one settlement; the same arguments always build the same book."""
    made = []
    for index in range(start, stop):
        table = table_of(index)
        sitting = services.sitting_open(
            owner=owner,
            name=f"Tối {index + 1}",
            date=DAY + datetime.timedelta(days=7 * index),
            rules=engine.PRESETS["dem-la"],
            stake=1000,
            player_names=table,
            group=group,
        )
        add_games(sitting, owner, games, random.Random(f"grow-{index}"))
        players = {p.name: p for p in Player.objects.filter(group=group, name__in=table)}
        services.settlement_record(
            sitting=sitting,
            user=owner,
            payer=players[table[(index + 1) % 4]],
            payee=players[table[index % 4]],
            amount=1000 * (1 + index % 7),
        )
        made.append(sitting)
    return made


def add_games(sitting: Sitting, owner: Any, count: int, rng: random.Random) -> None:
    """``count`` games in ``sitting`` (which has none yet), as ``game_record`` writes them."""
    names = tuple(m.player.name for m in sitting.memberships.select_related("player"))
    rules = engine.ruleset_from_dict(sitting.rules)
    variants = []
    for _ in range(VARIANTS):
        record = random_record(rules, rng, names)
        variants.append(services.game_score(sitting=sitting, record=record))
    with transaction.atomic():
        games = Game.objects.bulk_create(
            Game(
                sitting=sitting,
                number=number,
                record=variants[number % VARIANTS].record,
                submission_token=uuid.uuid4(),
                created_by=owner,
                next_leader=_next_leader(variants[number % VARIANTS]),
            )
            for number in range(1, count + 1)
        )
        if not all(g.pk for g in games):  # a backend that does not return ids
            games = list(Game.objects.filter(sitting=sitting).order_by("number"))
        entries = [
            HistoryEntry(
                sitting=sitting,
                game=game,
                user=owner,
                action=HistoryEntry.Action.RECORDED,
                revision=1,
                after=variants[game.number % VARIANTS].record,
            )
            for game in games
        ]
        ids = [{name: player.pk for name, player in v.players.items()} for v in variants]
        insert_seats_and_payments(
            (game.pk, 1, variants[n].record, variants[n].result, ids[n])
            for game in games
            for n in [game.number % VARIANTS]
        )
        HistoryEntry.objects.bulk_create(entries, batch_size=2000)
        Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + count)
    live_cache.publish([Sitting.objects.get(pk=sitting.pk)])


def _next_leader(scored: services.games.Scored) -> Player | None:
    name = engine.next_leader(scored.parsed)
    return scored.players.get(name) if name else None
