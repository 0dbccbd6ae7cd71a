"""Which hand was charged how much thối: kept per player so statistics need no rules of their
own (in first_out it is paid inside the card payment, "5 lá + thối 2♥")."""

from __future__ import annotations

from dataclasses import replace

from scoring.engine import PRESETS, score_game

from .helpers import four


def test_it_reports_the_thoi_of_the_dem_la_worked_example():
    record = four(
        finish=["B"],
        hands={"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
    )
    assert score_game(PRESETS["dem-la"], record, 5000).thoi == {"A": 50000}


def test_it_reports_placement_thoi_paid_to_the_player_above():
    record = four(finish=["B", "A", "D", "C"], hands={"C": {"cards": 2, "heo": ["2D", "2S"]}})
    assert score_game(PRESETS["nhat-nhi-ba-bet"], record, 1000).thoi == {"C": 3000}


def test_a_den_player_pays_it_but_the_holder_is_the_one_charged():
    record = four(
        finish=["B"],
        hands={"A": {"cards": 5, "tq": 1}, "C": {"cards": 8}, "D": {"cards": 13}},
        den="C",
    )
    rules = replace(PRESETS["dem-la"], den_when="any_cong")
    result = score_game(rules, record, 1)
    assert result.thoi == {"A": 15}
    assert result.transfers
    assert all(t.payer == "C" for t in result.transfers)


def test_nothing_is_charged_in_a_ket_3_bich_game():
    record = four(
        finish=["B"],
        hands={"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 3}},
        ket_3_bich=True,
    )
    assert score_game(PRESETS["dem-la-26"], record, 1).thoi == {}


def test_a_toi_trang_charges_thoi_only_when_the_rules_count_it():
    from scoring.engine import ruleset_from_dict, ruleset_to_dict

    record = {
        "players": ["A", "B", "C", "D"],
        "toi_trang": {"player": "A", "hand": "sanh_rong"},
        "hands": {"B": {"cards": 13, "heo": ["2H"]}},
    }
    plain = PRESETS["dem-la"]
    counting = ruleset_from_dict({**ruleset_to_dict(plain), "toi_trang_counts_thoi": True})
    assert score_game(plain, {k: v for k, v in record.items() if k != "hands"}, 1).thoi == {}
    assert score_game(counting, record, 1).thoi == {"B": 10}
