"""Tables with exactly the balances a test wants, recorded through the services.

Balances are made from two-player ``dem-la`` games (the loser pays the winner one lá per
card left), so a test can say "A is owed 4, C owes 4" and get exactly that in đồng.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from scoring import engine, services
from scoring.models import Game, Player, Sitting

STAKE = 1000  # đồng per lá


def open_table(
    owner: Any,
    names: Sequence[str],
    *,
    rules: str = "dem-la",
    stake: int = STAKE,
    name: str = "Tối thứ Bảy",
    on: date = date(2026, 5, 16),
) -> Sitting:
    return services.sitting_open(
        owner=owner,
        name=name,
        date=on,
        rules=engine.PRESETS[rules],
        stake=stake,
        player_names=list(names),
    )


def record(sitting: Sitting, user: Any, game: Mapping[str, Any]) -> Game:
    saved, _created = services.game_record(
        sitting=sitting, user=user, record=game, token=uuid.uuid4()
    )
    return saved


def lose(winner: str, loser: str, cards: int) -> dict[str, Any]:
    """A two-player first-out game: ``loser`` still holds ``cards`` plain cards (1–12)."""
    return {"players": [winner, loser], "finish": [winner], "hands": {loser: {"cards": cards}}}


def owe(sitting: Sitting, user: Any, debtor: str, creditor: str, units: int) -> list[Game]:
    """Games in which ``debtor`` ends up owing ``creditor`` exactly ``units`` lá."""
    games = []
    while units > 0:
        cards = min(units, 12)
        games.append(record(sitting, user, lose(creditor, debtor, cards)))
        units -= cards
    return games


def table_with(owner: Any, balances: Mapping[str, int], **kwargs: Any) -> Sitting:
    """A sitting whose members have exactly these balances (in lá; they must sum to zero).

    Debtors are matched to creditors greedily in the given order, one chain of games each.
    """
    assert sum(balances.values()) == 0
    sitting = open_table(owner, list(balances), **kwargs)
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


def by_name(sitting: Sitting) -> dict[str, int]:
    names = dict(sitting.members.values_list("pk", "name"))
    return {names[pk]: amount for pk, amount in services.balances(sitting).items()}
