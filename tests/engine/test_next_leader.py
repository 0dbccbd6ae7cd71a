"""Who leads the next game."""

from __future__ import annotations

from scoring.engine import PRESETS, next_leader, parse_record

from .helpers import four

RULES = PRESETS["dem-la"]
GAME = {"finish": ["B"], "hands": {"A": {"cards": 13}, "C": {"cards": 13}, "D": {"cards": 13}}}


def test_it_gives_the_lead_to_the_winner():
    assert next_leader(parse_record(four(**GAME), RULES)) == "B"


def test_it_gives_the_lead_to_the_den_player():
    assert next_leader(parse_record(four(**GAME, den="C"), RULES)) == "C"


def test_it_leaves_the_lead_to_the_holder_of_3_bich_after_toi_trang():
    record = parse_record(four(toi_trang={"player": "A", "hand": "sanh_rong"}), RULES)
    assert next_leader(record) is None
