"""A stake must make every amount whole đồng; it is refused, never rounded."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from scoring.engine import PRESETS, InvalidRecord, check_stake, score_game

from .helpers import four


def codes(rules, stake):
    return [(p.path, p.code) for p in check_stake(rules, stake)]


@pytest.mark.parametrize("preset", PRESETS)
def test_it_accepts_a_round_stake_for_every_preset(preset):
    assert check_stake(PRESETS[preset], 5000) == []
    assert check_stake(PRESETS[preset], 2) == []


def test_it_refuses_an_odd_stake_where_a_value_is_a_half():
    assert codes(PRESETS["cuoc"], 5001) == [("stake", "stake_makes_fraction")]
    problem = check_stake(PRESETS["cuoc"], 5001)[0]
    assert problem.params["multiple"] == 2
    assert "2" in problem.message("en") and "5001" in problem.message("vi")
    assert check_stake(PRESETS["dem-la"], 5001) == []


@pytest.mark.parametrize("stake", [0, -5000])
def test_it_refuses_a_stake_that_is_not_positive(stake):
    assert codes(PRESETS["dem-la"], stake) == [("stake", "stake_not_positive")]


@pytest.mark.parametrize("stake", ["5000", 5000.0, True, None])
def test_it_refuses_a_stake_that_is_not_an_int(stake):
    assert codes(PRESETS["dem-la"], stake) == [("stake", "stake_not_int")]


def test_it_checks_the_cong_amount_that_a_multiplier_makes_fractional():
    # ½ per card ×3 for cóng: 13 cards come to 19½ when special cards count.
    rules = replace(
        PRESETS["dem-la"], id="x", card_value=Fraction(1, 2), cong_multiplier=Fraction(3)
    )
    assert check_stake(rules, 2) == []  # 1 per card, 39 for a cóng at stake 2
    assert codes(rules, 1) == [("stake", "stake_makes_fraction")]
    # 1½ multiplier: 13 × 1 × 1½ = 19½, so the stake must be even even though cards are whole.
    odd = replace(PRESETS["dem-la"], id="y", cong_multiplier=Fraction(3, 2))
    assert codes(odd, 1) == [("stake", "stake_makes_fraction")]
    assert check_stake(odd, 2) == []


def test_it_needs_a_whole_amount_per_cong_card_when_heo_are_not_counted():
    # Without heo/hàng as cards a cóng player may have 12 plain cards: 12 × 1¼ × 4/3 … so one
    # cóng card (card value × multiplier) must be whole.
    rules = replace(PRESETS["dem-la-26"], id="x", cong_multiplier=Fraction(3, 2))
    assert codes(rules, 1) == [("stake", "stake_makes_fraction")]
    assert check_stake(rules, 2) == []


def test_it_checks_tables_chat_and_toi_trang_values():
    for field, value in (
        ("toi_trang_value", Fraction(1, 3)),
        ("cong_ca_lang", Fraction(1, 3)),
        ("ket_3_bich", Fraction(1, 3)),
    ):
        rules = replace(PRESETS["dem-la"], id="x", **{field: value})
        assert codes(rules, 2) == [("stake", "stake_makes_fraction")], field
        assert check_stake(rules, 3) == []


def test_it_refuses_to_score_at_a_fractional_stake():
    record = four(finish=["A", "B", "C", "D"], hands={"D": {"cards": 1}})
    with pytest.raises(InvalidRecord) as caught:
        score_game(PRESETS["cuoc"], record, 5001)
    assert [(p.path, p.code) for p in caught.value.problems] == [("stake", "stake_makes_fraction")]
    assert score_game(PRESETS["cuoc"], record, 5000).net == {
        "A": 5000,
        "B": 2500,
        "C": -2500,
        "D": -5000,
    }
