"""Small builders shared by the view and service tests."""

import datetime
import uuid

from scoring import engine, services

FOUR = ["An", "Bình", "Chi", "Dũng"]


def open_sitting(user, *, preset="dem-la", stake=5000, players=FOUR, name="Tối thứ Bảy"):
    return services.sitting_open(
        owner=user,
        name=name,
        date=datetime.date(2026, 11, 28),
        rules=engine.PRESETS[preset],
        stake=stake,
        player_names=players,
    )


def first_out(winner="Bình", **cards):
    """A đếm lá record: ``first_out("Bình", An=5, Chi=8, Dũng=13)``."""
    players = [winner, *cards] if winner not in cards else list(cards)
    order = [p for p in FOUR if p in players] + [p for p in players if p not in FOUR]
    return {
        "players": order,
        "finish": [winner],
        "hands": {name: {"cards": n} for name, n in cards.items()},
    }


def record(sitting, user, rec, token=None):
    game, _created = services.game_record(
        sitting=sitting, user=user, record=rec, token=token or uuid.uuid4()
    )
    return game
