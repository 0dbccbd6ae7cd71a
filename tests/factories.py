"""The one set of factories of the suite: sittings, games, settlements and session files.

Everything that writes goes through the real services (``scoring.services``), so a test's rows
are the rows the site writes. The one shortcut is ``bulk_games``, for tables too big to record
one game at a time: it copies games the service recorded, row for row, and
``tests/test_factories.py`` holds it to that.
"""

from __future__ import annotations

import datetime
import random
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Model

from scoring import engine, ledger, services
from scoring.engine.samples import NAMES, random_record
from scoring.ledger import live_cache
from scoring.models import Game, Group, Player, Settlement, Sitting
from tienlen_site.plumbing.waits import RowBusy

FOUR = ["An", "Bình", "Chi", "Dũng"]
DAY = datetime.date(2026, 11, 28)
STAKE = 1000  # đồng per lá for tables built to exact balances and for session files (even,
# so the ½ values of "cuoc" are whole đồng)

# --- Records ----------------------------------------------------------------------------

# The worked example of docs/rules.md#paying-a-card-count-game: Bình goes out; An holds 5 cards
# with 2♥ (thối), Dũng is cóng.
FIRST = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "opening": True,
    "finish": ["Bình"],
    "hands": {"An": {"cards": 5, "heo": ["2H"]}, "Chi": {"cards": 8}, "Dũng": {"cards": 13}},
}
SECOND = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "finish": ["Chi"],
    "hands": {"An": {"cards": 3}, "Bình": {"cards": 7}, "Dũng": {"cards": 2}},
}
# Chi goes out; An's 2♦ was chopped by Chi (3 đôi thông), then Chi by Dũng (tứ quý).
CHOPPED = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "finish": ["Chi"],
    "hands": {"An": {"cards": 3}, "Bình": {"cards": 7}, "Dũng": {"cards": 2}},
    "chat": [
        {
            "steps": [
                {"player": "An", "play": "heo", "cards": ["2D"]},
                {"player": "Chi", "play": "3dt"},
                {"player": "Dũng", "play": "tq"},
            ],
            "victim_out": False,
        }
    ],
}
# Four đếm lá games in which each of FOUR wins in turn: the default of ``bulk_games``.
ROUND = [
    {
        "players": FOUR,
        "opening": False,
        "finish": [winner],
        "hands": {n: {"cards": 2 + (i + k) % 9} for i, n in enumerate(FOUR) if n != winner},
    }
    for k, winner in enumerate(FOUR)
]


def first_out(winner: str = "Bình", **cards: int) -> dict[str, Any]:
    """A đếm lá record: ``first_out("Bình", An=5, Chi=8, Dũng=13)``."""
    players = [winner, *cards] if winner not in cards else list(cards)
    order = [p for p in FOUR if p in players] + [p for p in players if p not in FOUR]
    return {
        "players": order,
        "finish": [winner],
        "hands": {name: {"cards": n} for name, n in cards.items()},
    }


def lose(winner: str, loser: str, cards: int) -> dict[str, Any]:
    """A two-player first-out game: ``loser`` still holds ``cards`` plain cards (1–12)."""
    return {"players": [winner, loser], "finish": [winner], "hands": {loser: {"cards": cards}}}


# --- Writes, through the services -------------------------------------------------------


def open_sitting(
    owner: Any,
    *,
    preset: str = "dem-la",
    rules: engine.RuleSet | None = None,
    stake: int = 5000,
    players: Sequence[str] = FOUR,
    name: str = "Tối thứ Bảy",
    day: datetime.date = DAY,
    group: Group | None = None,
) -> Sitting:
    """A sitting of ``players`` under a preset (or the given ``rules``), in ``group`` (the
    owner's default group when none is given)."""
    return services.sitting_open(
        owner=owner,
        name=name,
        date=day,
        rules=rules or engine.PRESETS[preset],
        stake=stake,
        player_names=list(players),
        group=group,
    )


def record(
    sitting: Sitting, user: Any, rec: Mapping[str, Any], token: uuid.UUID | None = None
) -> Game:
    game, _created = services.game_record(
        sitting=sitting, user=user, record=rec, token=token or uuid.uuid4()
    )
    return game


def settle(sitting: Sitting, user: Any, payer: str, payee: str, amount: int) -> Settlement:
    """A settlement between two members, by name."""
    return services.settlement_record(
        sitting=sitting,
        user=user,
        payer=player(sitting, payer),
        payee=player(sitting, payee),
        amount=amount,
    )


def live_link(sitting: Sitting, user: Any) -> str:
    """Turn the sitting's live link on; its token."""
    token = services.sitting_live_link(sitting=sitting, user=user, action="enable")
    assert token is not None
    return token


def live_url(sitting: Sitting) -> str:
    return f"/live/{sitting.live_token}/"


def owe(sitting: Sitting, user: Any, debtor: str, creditor: str, units: int) -> list[Game]:
    """Games in which ``debtor`` ends up owing ``creditor`` exactly ``units`` lá."""
    games = []
    while units > 0:
        cards = min(units, 12)
        games.append(record(sitting, user, lose(creditor, debtor, cards)))
        units -= cards
    return games


def table_with(
    owner: Any, balances: Mapping[str, int], *, stake: int = STAKE, **kwargs: Any
) -> Sitting:
    """A sitting whose members have exactly these balances (in lá; they must sum to zero).

    Made of two-player ``dem-la`` games (the loser pays the winner one lá per card left), so a
    test can say "A is owed 4, C owes 4" and get exactly that in đồng. Debtors are matched to
    creditors greedily in the given order, one chain of games each.
    """
    assert sum(balances.values()) == 0
    sitting = open_sitting(owner, players=list(balances), stake=stake, **kwargs)
    debts = [[n, -v] for n, v in balances.items() if v < 0]
    credits = [[n, v] for n, v in balances.items() if v > 0]
    i = j = 0
    while i < len(debts) and j < len(credits):
        amount = min(debts[i][1], credits[j][1])
        owe(sitting, owner, debts[i][0], credits[j][0], amount)
        debts[i][1] -= amount
        credits[j][1] -= amount
        i += debts[i][1] == 0
        j += credits[j][1] == 0
    return sitting


def player(sitting: Sitting, name: str) -> Player:
    return sitting.members.get(name=name)


# --- Groups -----------------------------------------------------------------------------


def new_group(owner: Any, name: str) -> Group:
    """A group of ``owner``'s, through the group service."""
    return services.group_create(owner=owner, name=name).value


def open_in_group(
    group: Group,
    user: Any,
    players: Sequence[str],
    *,
    day: datetime.date = DAY,
    name: str = "Tối thứ Hai",
    stake: int = STAKE,
) -> Sitting:
    """A đếm lá sitting of ``players`` opened by ``user`` in ``group``."""
    return open_sitting(user, players=players, day=day, name=name, stake=stake, group=group)


def won(sitting: Sitting, user: Any, winner: str, cards: Mapping[str, int]) -> Game:
    """A đếm lá game: ``winner`` goes out first, the others hold ``cards``."""
    rec = {
        "players": [winner, *cards],
        "finish": [winner],
        "hands": {name: {"cards": n} for name, n in cards.items()},
    }
    return record(sitting, user, rec)


def four_weeks(owner: Any, *, first: datetime.date, name: str = "Tháng 11") -> Group:
    """A group with four weekly nights of An, Bình, Chi and Dũng from ``first``: An wins one
    game and Chi the other, each night alike."""
    group = new_group(owner, name)
    for week in range(4):
        sitting = open_in_group(
            group, owner, ["An", "Bình", "Chi", "Dũng"], day=first + datetime.timedelta(weeks=week)
        )
        won(sitting, owner, "An", {"Bình": 3, "Chi": 5, "Dũng": 7})
        won(sitting, owner, "Chi", {"An": 2, "Bình": 9, "Dũng": 1})
    return group


def group_player(group: Group, name: str) -> Player:
    return Player.objects.get(group=group, name=name, merged_into=None)


def by_name(sitting: Sitting) -> dict[str, int]:
    names = dict(sitting.members.values_list("pk", "name"))
    return {names[pk]: amount for pk, amount in ledger.balances(sitting).items()}


# --- Big tables -------------------------------------------------------------------------

# Fields a copy of a game gets anew rather than from the game it copies.
_FRESH = {"id", "number", "submission_token", "created_at", "updated_at", "at"}


def _fields(row: Model, *skip: str) -> dict[str, Any]:
    return {
        f.attname: getattr(row, f.attname)
        for f in row._meta.concrete_fields
        if f.attname not in _FRESH and f.attname not in skip
    }


def bulk_games(
    sitting: Sitting, user: Any, count: int, records: Sequence[Mapping[str, Any]] = ROUND
) -> list[Game]:
    """``count`` games (recording a thousand one by one through the service takes minutes).

    The first game of each record in ``records`` is recorded by ``services.game_record``; the
    rest are copies of those, in turn, numbered on: the game row and every row that points at
    it (seats, payments, history entry) exactly as the service wrote them, and the sitting's
    version moved on by one per game, as each recording does.
    """
    made = [record(sitting, user, rec) for rec in list(records)[:count]]
    rest = count - len(made)
    if rest <= 0:
        return made
    relations = [(r.related_model, r.field.attname) for r in Game._meta.related_objects]
    rows = {
        game.pk: [
            (model, key, _fields(row, key))
            for model, key in relations
            for row in model.objects.filter(**{key: game.pk}).order_by("pk")
        ]
        for game in made
    }
    start = made[-1].number
    copies = Game.objects.bulk_create(
        Game(number=start + 1 + i, **_fields(made[i % len(made)])) for i in range(rest)
    )
    if not all(g.pk for g in copies):  # backends that do not return ids from bulk_create
        copies = list(Game.objects.filter(sitting=sitting, number__gt=start).order_by("number"))
    by_model: dict[type[Model], list[Model]] = {model: [] for model, _key in relations}
    for i, copy in enumerate(copies):
        for model, key, values in rows[made[i % len(made)].pk]:
            by_model[model].append(model(**{**values, key: copy.pk}))
    for model, objects in by_model.items():
        model.objects.bulk_create(objects, batch_size=2000)
    Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + rest)
    services.refresh_totals([sitting.pk])  # as every write of games does
    # As every write in scoring.services does: watchers see the new version on their next poll.
    live_cache.publish([Sitting.objects.get(pk=sitting.pk)])
    return made + copies


# --- Session files ----------------------------------------------------------------------


def session(
    preset: str = "dem-la", games: int = 10, seed: int = 1, **fields: Any
) -> dict[str, Any]:
    """A valid session file: random games for ``preset``, one of them voided, two payments."""
    rng = random.Random(f"{preset}-{seed}")
    records: list[dict[str, Any]] = [
        random_record(engine.PRESETS[preset], rng) for _ in range(games)
    ]
    if games > 2:
        records[1] = {**records[1], "void": True, "void_reason": "chia bài sai"}
    data: dict[str, Any] = {
        "name": f"Bàn {preset}",
        "date": "2026-05-16",
        "rules": preset,
        "stake": STAKE,
        "players": list(NAMES),
        "games": records,
        "settlements": [
            {"from": "An", "to": "Bình", "amount": 3000},
            {"from": "Chi", "to": "Dũng", "amount": 1000, "void": True, "void_reason": "nhầm"},
        ],
    }
    data.update(fields)
    return data


def plain(**fields: Any) -> dict[str, Any]:
    """A session file of two hand-written dem-la games, names with Vietnamese letters."""
    data: dict[str, Any] = {
        "name": "Tối thứ Bảy",
        "rules": "dem-la",
        "stake": 1000,
        "players": ["Ánh", "Đức", "Hương"],
        "games": [
            {"players": ["Ánh", "Đức"], "finish": ["Ánh"], "hands": {"Đức": {"cards": 5}}},
            {
                "players": ["Ánh", "Đức", "Hương"],
                "finish": ["Hương"],
                "hands": {"Ánh": {"cards": 2}, "Đức": {"cards": 4}},
            },
        ],
        "settlements": [],
    }
    data.update(fields)
    return data


def resent[**P, T](work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work(*args, **kwargs)``, sent again while its sitting's queue is full (``RowBusy``),
    as the page's pending-save queue resends the 503 it gets: a test writing to one sitting
    from more threads than the queue has places models the web, where the third is told to
    send again."""
    while True:
        try:
            return work(*args, **kwargs)
        except RowBusy:
            time.sleep(0.01)


def atomic_in_test() -> transaction.Atomic:
    """``transaction.atomic()`` for a block a test opens to roll back (a Hypothesis example, a
    request the crawl undoes): marked as the test case's own, as Django's ``TestCase`` marks
    its blocks, so the services' durable transactions run inside it as they do inside the
    test's."""
    block = transaction.atomic()
    block._from_testcase = True
    return block
