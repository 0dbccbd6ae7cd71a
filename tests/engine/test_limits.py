"""One limit on amounts: the bound a rule set puts on a game, and the stakes it allows."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    PRESETS,
    InvalidRecord,
    check_stake,
    ruleset_from_dict,
    ruleset_to_dict,
    score_game,
)
from scoring.engine.limits import (
    MAX_AMOUNT,
    MAX_STAKE,
    check_rule_limits,
    game_bound,
    max_stake,
)
from scoring.engine.samples import random_record
from tests.hypothesis_counts import examples

VARIANTS = {
    **PRESETS,
    "ca-lang": replace(PRESETS["dem-la"], id="ca-lang", cong_ca_lang=Fraction(13)),
    "toi-thoi": replace(PRESETS["cuoc"], id="toi-thoi", toi_trang_counts_thoi=True),
    "big": replace(PRESETS["dem-la"], id="big", card_value=Fraction(10**6)),
}


@pytest.mark.parametrize("preset", VARIANTS)
@settings(max_examples=examples(150), deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_no_game_goes_beyond_the_bound_of_its_rule_set(preset, rng):
    rules = VARIANTS[preset]
    stake = max_stake(rules) // 2 * 2  # every preset's values are multiples of ½
    result = score_game(rules, random_record(rules, rng), stake)
    largest = max([0, *(t.amount for t in result.transfers), *map(abs, result.net.values())])
    assert largest <= game_bound(rules) * stake <= MAX_AMOUNT


def test_the_bound_leaves_every_preset_the_whole_stake_range():
    for rules in PRESETS.values():
        assert max_stake(rules) == MAX_STAKE
        assert check_stake(rules, MAX_STAKE) == []


def test_a_rule_value_that_overflows_any_game_is_refused_with_the_limit():
    data = ruleset_to_dict(PRESETS["dem-la"]) | {"card_value": 10**12}
    rules = ruleset_from_dict(data)  # stored before the limit: it still reads
    (problem,) = check_rule_limits(rules)
    assert problem.code == "rules_too_large"
    assert problem.path == "card_value"
    assert "9.999.999.999.999" in problem.message("vi")
    assert "9,999,999,999,999" in problem.message("en")


@pytest.mark.parametrize("key", ["tq", "2H"])
def test_a_penalty_that_overflows_is_refused_on_its_field(key):
    data = ruleset_to_dict(PRESETS["dem-la"])
    data["penalties"][key] = 10**13
    (problem,) = check_rule_limits(ruleset_from_dict(data))
    assert problem.code == "rules_too_large" and problem.path.endswith(key)


def test_every_stake_is_refused_for_rules_too_large_for_any():
    rules = ruleset_from_dict(ruleset_to_dict(PRESETS["dem-la"]) | {"card_value": 10**12})
    (problem,) = check_stake(rules, 1)
    assert problem.code == "rules_too_large_for_any_stake"
    assert "9,999,999,999,999" in problem.message("en")


def test_a_stake_is_bounded_by_the_rule_set_and_the_message_says_the_largest():
    rules = VARIANTS["big"]
    top = max_stake(rules)
    assert top < MAX_STAKE
    assert check_stake(rules, top) == []
    (problem,) = check_stake(rules, top + 1)
    assert problem.code == "stake_too_large" and problem.path == "stake"
    assert f"{top:,}" in problem.message("en")


def test_a_stake_above_the_absolute_cap_is_refused_with_it():
    (problem,) = check_stake(PRESETS["dem-la"], MAX_STAKE + 1)
    assert problem.code == "stake_above_max"
    assert "100.000.000" in problem.message("vi")


def test_the_thirteen_card_cong_game_at_the_largest_stake_fits():
    rules = VARIANTS["big"]
    stake = max_stake(rules)
    record = {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "finish": ["An"],
        "cong": ["Bình", "Chi", "Dũng"],
        "hands": {
            "Bình": {"cards": 13, "heo": ["2H", "2D"], "tq": 1},
            "Chi": {"cards": 13, "heo": ["2S", "2C"], "3dt": 1},
            "Dũng": {"cards": 13, "4dt": 1},
        },
    }
    result = score_game(rules, record, stake)
    assert max(result.net.values()) <= MAX_AMOUNT


def test_a_chat_chain_longer_than_the_deck_is_refused_not_stored():
    rules = PRESETS["dem-la"]
    steps = [{"player": ("An", "Bình")[i % 2], "play": "tq"} for i in range(10_000)]
    record = {
        "players": ["An", "Bình"],
        "finish": ["An"],
        "hands": {"Bình": {"cards": 1}},
        "chat": [{"steps": steps, "victim_out": False}],
    }
    with pytest.raises(InvalidRecord) as error:
        score_game(rules, record, MAX_STAKE)
    assert [p.code for p in error.value.problems] == ["game_too_large"]
