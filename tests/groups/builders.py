"""Builders for the group tests: sittings with real games, in a group."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence

from scoring import engine, services
from scoring.models import Group, Player, Sitting

DAY = datetime.date(2026, 11, 2)


def open_in(
    group: Group,
    user,
    players: Sequence[str],
    *,
    day: datetime.date = DAY,
    name: str = "Tối thứ Hai",
    stake: int = 1000,
) -> Sitting:
    return services.sitting_open(
        owner=user,
        name=name,
        date=day,
        rules=engine.PRESETS["dem-la"],
        stake=stake,
        player_names=list(players),
        group=group,
    )


def game(sitting: Sitting, user, winner: str, cards: dict[str, int]):
    """A đếm lá game: ``winner`` goes out first, the others hold ``cards``."""
    names = [winner, *cards]
    rec = {
        "players": names,
        "finish": [winner],
        "hands": {n: {"cards": c} for n, c in cards.items()},
    }
    made, _created = services.game_record(
        sitting=sitting, user=user, record=rec, token=uuid.uuid4()
    )
    return made


def player(group: Group, name: str) -> Player:
    return Player.objects.get(group=group, name=name, merged_into=None)
