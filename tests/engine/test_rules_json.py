"""The JSON form of a rule set: exact round trip, friendly numbers, every problem with its path."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.engine import (
    PRESETS,
    InvalidRuleSet,
    PenaltyTable,
    load_rules,
    ruleset_from_dict,
    ruleset_to_dict,
)


def refused(data) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from_dict(data)
    for problem in caught.value.problems:
        assert problem.message("vi") and problem.message("en")
    return [(p.path, p.code) for p in caught.value.problems]


@pytest.mark.parametrize("preset", PRESETS)
def test_it_round_trips_every_preset_through_json(preset):
    rules = PRESETS[preset]
    data = json.loads(json.dumps(ruleset_to_dict(rules)))
    assert ruleset_from_dict(data) == rules
    assert hash(ruleset_from_dict(data)) == hash(rules)


def test_it_writes_whole_values_as_ints_and_halves_as_fractions():
    data = ruleset_to_dict(PRESETS["cuoc"])
    assert data["penalties"] == {
        "2S": "1/2",
        "2C": "1/2",
        "2D": 1,
        "2H": 1,
        "3dt": "3/2",
        "tq": 2,
        "4dt": "5/2",
    }
    assert data["placement"]["4"] == [1, "1/2", "-1/2", -1]
    assert data["cong_score"] == -2


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (1, Fraction(1)),
        ("1/2", Fraction(1, 2)),
        ("1.5", Fraction(3, 2)),
        ("½", Fraction(1, 2)),
        ("1½", Fraction(3, 2)),
        ("2 ½", Fraction(5, 2)),
        (2.5, Fraction(5, 2)),
        (" 3 ", Fraction(3)),
        ("0,5", Fraction(1, 2)),
    ],
)
def test_it_reads_amounts_in_every_friendly_form(text, value):
    rules = ruleset_from_dict({"base": "dem-la", "penalties": {"2S": text}})
    assert rules.penalties["2S"] == value


@pytest.mark.parametrize("bad", ["abc", "1/0", None, True, [1], {}, "nan", float("inf")])
def test_it_refuses_what_is_not_a_number(bad):
    assert refused({"base": "dem-la", "penalties": {"2H": bad}}) == [
        ("penalties.2H", "not_a_number")
    ]


def test_it_refuses_negative_penalties_and_card_values():
    assert sorted(
        refused(
            {
                "base": "dem-la",
                "penalties": {"2H": -1},
                "card_value": "-1/2",
                "toi_trang_value": -13,
            }
        )
    ) == [
        ("card_value", "negative_value"),
        ("penalties.2H", "negative_value"),
        ("toi_trang_value", "negative_value"),
    ]


def test_it_refuses_unknown_mode_fields_and_keys():
    assert refused(
        {"mode": "poker", "thoi_to": "banker", "colour": "red", "penalties": {"2H": 1, "5H": 2}}
    ) == [
        ("colour", "unknown_field"),
        ("mode", "unknown_mode"),
        ("thoi_to", "unknown_thoi_to"),
        ("penalties.5H", "unknown_field"),
        ("penalties.2S", "missing_field"),
        ("penalties.2C", "missing_field"),
        ("penalties.2D", "missing_field"),
        ("penalties.3dt", "missing_field"),
        ("penalties.tq", "missing_field"),
        ("penalties.4dt", "missing_field"),
    ]


def test_it_refuses_placement_values_that_do_not_make_sense():
    assert refused(
        {"base": "nhat-nhi-ba-bet", "placement": {"4": [1, 3, -1, -3], "3": [3, 0, -2], "2": [3]}}
    ) == [
        ("placement.2", "placement_length"),
        ("placement.3", "placement_not_zero_sum"),
        ("placement.4", "placement_not_descending"),
    ]


def test_it_refuses_a_cong_score_above_the_last_rank():
    assert refused({"base": "nhat-nhi-ba-bet", "cong_score": -1}) == [
        ("cong_score", "cong_score_above_last")
    ]


def test_it_refuses_settings_that_belong_to_the_other_mode():
    assert refused({"base": "dem-la", "thoi_to": "above"}) == [
        ("thoi_to", "thoi_to_above_first_out")
    ]
    assert refused({"base": "diem", "ket_3_bich": 26}) == [
        ("ket_3_bich", "ket_3_bich_needs_first_out")
    ]


def test_it_refuses_a_cong_multiplier_below_one():
    assert refused({"base": "dem-la", "cong_multiplier": "1/2"}) == [
        ("cong_multiplier", "cong_multiplier_below_one")
    ]


def test_it_refuses_toi_trang_hands_that_do_not_fit_together():
    assert refused(
        {
            "base": "dem-la",
            "toi_trang_value": None,
            "toi_trang_hands": ["sanh_rong", "royal_flush", "sanh_rong"],
            "toi_trang_opening_only": ["tu_quy_3"],
            "toi_trang_hand_values": {"6_doi": 2},
        }
    ) == [
        ("toi_trang_hands[1]", "unknown_hand"),
        ("toi_trang_hands[2]", "duplicate_hand"),
        ("toi_trang_opening_only[0]", "opening_hand_not_accepted"),
        ("toi_trang_hand_values.6_doi", "valued_hand_not_accepted"),
        ("toi_trang_hands[0]", "hand_without_value"),
    ]


def test_it_starts_from_a_preset_with_base():
    rules = ruleset_from_dict(
        {
            "base": "cuoc",
            "id": "cuoc-nha",
            "name": "Cược nhà mình",
            "penalties": {"2H": 2},
            "placement": {"4": [2, 1, -1, -2]},
        }
    )
    expected = replace(
        PRESETS["cuoc"],
        id="cuoc-nha",
        name="Cược nhà mình",
        penalties=replace(PRESETS["cuoc"].penalties, heo_h=Fraction(2)),
        placement_4=(Fraction(2), Fraction(1), Fraction(-1), Fraction(-2)),
    )
    assert rules == expected


def test_it_fills_missing_fields_with_the_documented_defaults():
    rules = ruleset_from_dict(
        {
            "id": "mini",
            "name": "Mini",
            "penalties": {"2S": 1, "2C": 1, "2D": 1, "2H": 1, "3dt": 1, "tq": 1, "4dt": 1},
        }
    )
    assert rules.mode == "first_out" and rules.card_value == 1 and rules.cong_multiplier == 2
    assert rules.penalties == PenaltyTable.of(1, 1, 1, 1, 1, 1, 1)
    assert rules.toi_trang_value == 13 and rules.ket_3_bich is None


def test_it_loads_a_preset_by_id_or_a_dict():
    assert load_rules("diem") is PRESETS["diem"]
    assert load_rules(ruleset_to_dict(PRESETS["diem"])) == PRESETS["diem"]
    with pytest.raises(InvalidRuleSet) as caught:
        load_rules("poker")
    assert [(p.path, p.code) for p in caught.value.problems] == [("rules", "unknown_preset")]


def test_it_refuses_an_unknown_base_and_a_non_object():
    assert refused({"base": "poker"}) == [("base", "unknown_preset")]
    assert refused([1, 2]) == [("", "not_an_object")]


def test_it_reads_the_examples_of_the_documentation():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules-json.md").read_text("utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, flags=re.S)]
    full, short = (ruleset_from_dict(b) for b in blocks)
    assert full == short
    assert full.penalties["2H"] == 12 and full.chat_table["tq"] == Fraction(25, 2)
    assert ruleset_to_dict(full) == blocks[0]


@pytest.mark.long
@pytest.mark.parametrize("preset", PRESETS)
def test_it_never_crashes_on_junk_in_any_rule_set_field(preset):
    data = ruleset_to_dict(PRESETS[preset])
    junk = [None, True, -1, 1.5, "", "x", [], [[]], {}, {"x": 1}, ["sanh_rong", 1]]

    def places(value, prefix=()):
        if isinstance(value, dict):
            for key, item in value.items():
                yield (*prefix, key)
                yield from places(item, (*prefix, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield (*prefix, i)
                yield from places(item, (*prefix, i))

    for path in places(data):
        for value in junk:
            broken = json.loads(json.dumps(data))
            target = broken
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
            try:
                ruleset_from_dict(broken)
            except InvalidRuleSet as exc:
                assert exc.problems
