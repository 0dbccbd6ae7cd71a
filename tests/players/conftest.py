import uuid
from datetime import date

import pytest

from scoring import engine, services


def record(sitting, user, data):
    game, _created = services.game_record(
        sitting=sitting, user=user, record=data, token=uuid.uuid4()
    )
    return game


def open_sitting(owner, name, day, players, preset="dem-la", stake=5000):
    return services.sitting_open(
        owner=owner,
        name=name,
        date=day,
        rules=engine.PRESETS[preset],
        stake=stake,
        player_names=players,
    )


# The worked example of docs/rules.md#paying-a-first-out-game: Bình goes out; An holds 5 cards
# with 2♥ (thối), Dũng is cóng.
FIRST = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "opening": True,
    "finish": ["Bình"],
    "hands": {"An": {"cards": 5, "heo": ["2H"]}, "Chi": {"cards": 8}, "Dũng": {"cards": 13}},
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


@pytest.fixture
def night(owner):
    """Two sittings: An plays both, Bình only the first."""
    first = open_sitting(owner, "Tối thứ Bảy", date(2025, 3, 1), ["An", "Bình", "Chi", "Dũng"])
    record(first, owner, FIRST)
    record(first, owner, CHOPPED)
    second = open_sitting(owner, "Chủ nhật", date(2025, 3, 2), ["An", "Chi", "Dũng", "Em"])
    record(second, owner, {**FIRST, "players": ["An", "Chi", "Dũng", "Em"], "finish": ["Em"]})
    return first, second
