"""The rules the sources write down and tables play, recordable since Rules III: a run of five
pairs, going out on a 2, the two readings of kết 3 bích and of chặn kết 3 bích, and tới trắng
hands that only count "tại các ván khác". Each default changes nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    PRESETS,
    InvalidRuleSet,
    parse_record,
    record_to_dict,
    ruleset_from_dict,
    ruleset_to_dict,
    score_game,
)
from scoring.engine.samples import random_record

from .helpers import four, net, problems, transfers

# --- a run of five pairs ------------------------------------------------------------------------


def test_a_five_pair_run_costs_12_in_dem_la_26():
    # "4 đôi thông (hoặc dài hơn)": 12 cược, and its 10 cards are not charged as cards.
    record = four(finish=["B"], hands={"A": {"cards": 10, "5dt": 1}, "C": {"cards": 1}})
    assert problems("dem-la-26", record) == [("hands.D.cards", "loser_without_cards")]
    record["hands"]["D"] = {"cards": 2}
    assert transfers("dem-la-26", record)[0] == ("A", "B", 12, "thoi", "thối 5 đôi thông")
    # Recorded as 4 đôi thông, two of its cards were charged again as plain cards: 14.
    as_four = four(finish=["B"], hands={"A": {"cards": 10, "4dt": 1}, "C": {"cards": 1},
                                        "D": {"cards": 2}})  # fmt: skip
    assert net("dem-la-26", as_four)["A"] == -14
    assert net("dem-la-26", record)["A"] == -12


def test_a_five_pair_run_counts_its_cards_where_they_count_as_cards():
    record = four(finish=["B"], hands={"A": {"cards": 11, "5dt": 1}, "C": {"cards": 1},
                                       "D": {"cards": 1}})  # fmt: skip
    # dem-la: 11 cards + 20 thối (as 4 đôi thông).
    assert net("dem-la", record)["A"] == -31
    # cóng: 13 cards, 10 of them the run; dem-la-26 doubles the 3 plain cards.
    cong = four(finish=["B"], hands={"A": {"cards": 13, "5dt": 1}, "C": {"cards": 1},
                                     "D": {"cards": 1}})  # fmt: skip
    assert net("dem-la-26", cong)["A"] == -(3 * 2 + 12)


def test_it_refuses_more_than_one_five_pair_run_or_more_cards_than_held():
    record = four(finish=["B"], hands={"A": {"cards": 13, "5dt": 2}, "C": {"cards": 9, "5dt": 1},
                                       "D": {"cards": 1}})  # fmt: skip
    assert problems("dem-la", record) == [
        ("hands.A.5dt", "count_out_of_range"),
        ("hands.C.cards", "special_exceeds_cards"),
    ]


def test_a_five_pair_run_is_written_back_only_when_held():
    rules = PRESETS["dem-la-26"]
    record = four(finish=["B"], hands={"A": {"cards": 10, "5dt": 1}, "C": {"cards": 1},
                                       "D": {"cards": 2}})  # fmt: skip
    data = record_to_dict(parse_record(record, rules))
    assert data["hands"]["A"]["5dt"] == 1 and "5dt" not in data["hands"]["C"]
    assert parse_record(data, rules) == parse_record(record, rules)


# --- going out on a 2 ---------------------------------------------------------------------------

BET = replace(PRESETS["nhat-nhi-ba-bet"], two_out="bet")
BET_FIRST_OUT = replace(PRESETS["dem-la"], two_out="bet", two_out_cards=13)


def test_going_out_on_a_2_ranks_last_in_placement():
    # "… có lá bài 2 thì họ sẽ về bét": D went out on a 2, holding nothing, and is bét; C, left
    # holding cards, is ba.
    record = four(finish=["A", "B", "C", "D"], hands={"C": {"cards": 3, "heo": ["2S"]}},
                  two_out="D")  # fmt: skip
    assert net(BET, record) == {"A": 3 + 1, "B": 1, "C": -1 - 1, "D": -3}
    assert parse_record(record, BET).two_out == "D"


def test_going_out_on_a_2_must_be_ranked_last_among_those_not_cong():
    record = four(finish=["A", "D", "B", "C"], hands={"C": {"cards": 3}}, two_out="D")
    assert problems(BET, record) == [("two_out", "two_out_not_last")]
    with_cong = four(finish=["A", "B", "D", "C"], hands={"B": {"cards": 2}, "C": {"cards": 13}},
                     cong=["C"], two_out="D")  # fmt: skip
    # The cóng player takes the last rank: D, last of the others, scores ba's −1.
    assert net(BET, with_cong) == {"A": 6, "B": 1, "C": -6, "D": -1}
    assert parse_record(with_cong, BET).two_out == "D"


def test_going_out_on_a_2_holds_no_cards():
    record = four(finish=["A", "B", "C", "D"], hands={"D": {"cards": 1, "heo": ["2S"]}},
                  two_out="D")  # fmt: skip
    assert problems(BET, record) == [("hands.D.cards", "finished_player_holds_cards")]


def test_going_out_on_a_2_pays_the_rule_sets_cards_in_first_out():
    record = four(finish=["B"], hands={"C": {"cards": 8}, "D": {"cards": 4}}, two_out="A")
    assert transfers(BET_FIRST_OUT, record)[0] == ("A", "B", 13, "cards", "về bằng heo: 13 lá")
    assert net(BET_FIRST_OUT, record) == {"A": -13, "B": 25, "C": -8, "D": -4}


def test_first_out_refuses_going_out_on_a_2_until_the_rules_say_how_many_cards():
    rules = replace(PRESETS["dem-la"], two_out="bet")
    record = four(finish=["B"], hands={"C": {"cards": 8}, "D": {"cards": 4}}, two_out="A")
    assert problems(rules, record) == [("two_out", "two_out_cards_missing")]


def test_going_out_on_a_2_is_refused_where_it_is_allowed_and_for_the_winner_or_a_cong():
    record = four(finish=["B"], hands={"C": {"cards": 8}, "D": {"cards": 4}}, two_out="A")
    assert problems("dem-la", record) == [
        ("hands.A.cards", "loser_without_cards"),
        ("two_out", "two_out_not_played"),
    ]
    won = {**record, "two_out": "B", "hands": {**record["hands"], "A": {"cards": 1}}}
    assert problems(BET_FIRST_OUT, won) == [("two_out", "two_out_is_winner")]
    cong = four(finish=["B"], hands={"A": {"cards": 13}, "C": {"cards": 8}, "D": {"cards": 4}},
                two_out="A")  # fmt: skip
    assert problems(BET_FIRST_OUT, cong) == [("two_out", "two_out_is_cong")]
    held = four(finish=["B"], hands={"A": {"cards": 2}, "C": {"cards": 8}, "D": {"cards": 4}},
                two_out="A")  # fmt: skip
    assert problems(BET_FIRST_OUT, held) == [("hands.A.cards", "two_out_holds_cards")]


def test_going_out_on_a_2_is_written_back():
    record = four(finish=["B"], hands={"C": {"cards": 8}, "D": {"cards": 4}}, two_out="A")
    data = record_to_dict(parse_record(record, BET_FIRST_OUT))
    assert data["two_out"] == "A"
    plain = {**record, "two_out": None, "hands": {**record["hands"], "A": {"cards": 1}}}
    assert "two_out" not in record_to_dict(parse_record(plain, PRESETS["dem-la"]))


# --- kết 3 bích and chặn kết 3 bích ----------------------------------------------------------

KET = four(
    finish=["A"],
    hands={"B": {"cards": 4}, "C": {"cards": 13}, "D": {"cards": 2, "heo": ["2S"]}},
    ket_3_bich=True,
)
CHAN = four(
    finish=["A"],
    hands={"B": {"cards": 3}, "C": {"cards": 6}, "D": {"cards": 2}},
    chan_ket_3_bich={"player": "B", "last_round": ["C", "D"]},
)


def test_ket_3_bich_instead_replaces_card_and_thoi_money():
    # "mất 26 cược": the preset reads it as the whole of each loser's payment.
    assert net("dem-la-26", KET) == {"A": 78, "B": -26, "C": -26, "D": -26}


def test_ket_3_bich_plus_comes_on_top_of_card_and_thoi_money():
    rules = replace(PRESETS["dem-la-26"], ket_3_bich_mode="plus")
    assert net(rules, KET) == {"A": 112, "B": -30, "C": -52, "D": -30}
    assert ("D", "A", 4, "cards", "1 lá + thối 2♠") in transfers(rules, KET)
    # Card counts carry money now: a loser must be recorded with cards.
    missing = {**KET, "hands": {"B": {"cards": 4}, "C": {"cards": 13}}}
    assert net("dem-la-26", missing) == {"A": 78, "B": -26, "C": -26, "D": -26}
    assert problems(rules, missing) == [("hands.D.cards", "loser_without_cards")]


def test_chan_ket_3_bich_pays_no_card_money_by_default():
    assert net("dem-la-26", CHAN) == {"A": 0, "B": -52, "C": 26, "D": 26}


def test_chan_ket_3_bich_may_keep_the_card_money_for_the_winner():
    rules = replace(PRESETS["dem-la-26"], chan_ket_keeps_cards=True)
    assert net(rules, CHAN) == {"A": 11, "B": -3 - 52, "C": 26 - 6, "D": 26 - 2}
    # đền moves the card payments owed to the winner, never the chặn.
    three_cong = four(finish=["A"], hands={"B": {"cards": 3}, "C": {"cards": 13},
                                           "D": {"cards": 2}},
                      chan_ket_3_bich={"player": "B", "last_round": ["D"]}, den="D")  # fmt: skip
    any_cong = replace(rules, den_when="any_cong")
    assert transfers(any_cong, three_cong) == [
        ("B", "D", 26, "chan_ket_3_bich", "chặn kết 3 bích"),
        ("D", "A", 3, "den", "đền thay B: 3 lá"),
        ("D", "A", 26, "den", "đền thay C: cóng: 13 lá ×2"),
        ("D", "A", 2, "cards", "2 lá"),
    ]


# --- tới trắng "tại các ván khác" ---------------------------------------------------------------


def test_hands_of_the_other_games_may_be_refused_in_an_opening_game():
    rules = replace(PRESETS["cuoc"], toi_trang_outside_opening=True)
    six = four(opening=True, toi_trang={"player": "A", "hand": "6_doi_thong"})
    assert net("cuoc", six, 2) == {"A": 12, "B": -4, "C": -4, "D": -4}
    assert problems(rules, six) == [("toi_trang.hand", "hand_not_in_opening")]
    assert problems(rules, {**six, "toi_trang": {"player": "A", "hand": "tu_quy_heo"}}) == [
        ("toi_trang.hand", "hand_not_in_opening")
    ]
    # The opening hands still count there, and every hand counts in the other games.
    four_3s = four(opening=True, toi_trang={"player": "A", "hand": "tu_quy_3"})
    assert net(rules, four_3s, 2)["A"] == 12
    assert net(rules, {**six, "opening": False}, 2)["A"] == 12


# --- the rule-set fields ------------------------------------------------------------------------


def test_the_new_fields_read_and_write_back():
    data = {"base": "dem-la-26", "id": "x", "name": "x", "ket_3_bich_mode": "plus",
            "chan_ket_keeps_cards": True, "two_out": "bet", "two_out_cards": 5,
            "toi_trang_outside_opening": True}  # fmt: skip
    rules = ruleset_from_dict(data)
    assert (rules.ket_3_bich_mode, rules.chan_ket_keeps_cards, rules.two_out) == (
        "plus",
        True,
        "bet",
    )
    assert rules.two_out_cards == 5 and rules.toi_trang_outside_opening is True
    assert ruleset_from_dict(ruleset_to_dict(rules)) == rules


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("ket_3_bich_mode", "both", "unknown_ket_3_bich_mode"),
        ("two_out", "last", "unknown_two_out"),
        ("two_out_cards", 14, "count_out_of_range"),
        ("two_out_cards", -1, "count_out_of_range"),
        ("two_out_cards", "13", "not_an_int"),
        ("two_out_cards", True, "not_an_int"),
        ("chan_ket_keeps_cards", "yes", "not_a_bool"),
        ("toi_trang_outside_opening", 1, "not_a_bool"),
    ],
)
def test_it_refuses_bad_values_of_the_new_fields(field, value, code):
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from_dict({"base": "dem-la", field: value})
    assert [(p.path, p.code) for p in caught.value.problems] == [(field, code)]
    for problem in caught.value.problems:
        assert "?" not in problem.message("vi") and "?" not in problem.message("en")


def test_the_bound_on_a_games_money_counts_the_26_on_top_of_the_cards():
    from scoring.engine.limits import game_bound

    base = PRESETS["dem-la-26"]
    for choice in ({"ket_3_bich_mode": "plus"}, {"chan_ket_keeps_cards": True}):
        assert game_bound(replace(base, **choice)) == game_bound(base) + 3 * 26


@settings(max_examples=150, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    mode=st.sampled_from(["instead", "plus"]),
    keeps=st.booleans(),
    den_when=st.sampled_from(["any_cong", "all_cong"]),
)
def test_every_ket_and_chan_choice_balances_and_pays_at_least_the_instead_reading(
    rng, mode, keeps, den_when
):
    base = replace(PRESETS["dem-la-26"], den_when=den_when)
    rules = replace(base, ket_3_bich_mode=mode, chan_ket_keeps_cards=keeps)
    data = random_record(rules, rng)
    result = score_game(rules, data, 1000)
    assert sum(result.net.values()) == 0
    assert all(t.amount > 0 for t in result.transfers)
    plain = score_game(base, data, 1000)
    # Each choice only adds money the winner receives; the chặn payments stay as they were.
    if data.get("toi_trang") is None and not data.get("den"):
        winner = data["finish"][0]
        assert result.net[winner] >= plain.net[winner]
    chan = [t for t in result.transfers if t.reason == "chan_ket_3_bich"]
    assert chan == [t for t in plain.transfers if t.reason == "chan_ket_3_bich"]
