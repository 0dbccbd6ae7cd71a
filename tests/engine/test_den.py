"""Đền: the đền player pays everything the losers owe the winner; chặt is untouched."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import PRESETS

from .helpers import four, net, problems, transfers

FIRST_OUT = {
    "finish": ["B"],
    "hands": {"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
}


def with_den(preset: str, when: str):
    return replace(PRESETS[preset], den_when=when)


# One cóng among three losers: đền there is a house rule ("any_cong"), one option away.
DEM_LA_ANY = with_den("dem-la", "any_cong")


def test_it_makes_the_den_player_pay_the_whole_table_in_first_out():
    record = four(**FIRST_OUT, den="C")
    assert net(DEM_LA_ANY, record, 5000) == {"A": 0, "B": 245000, "C": -245000, "D": 0}
    assert transfers(DEM_LA_ANY, record) == [
        ("C", "B", 15, "den", "đền thay A: 5 lá + thối 2♥"),
        ("C", "B", 8, "cards", "8 lá"),
        ("C", "B", 26, "den", "đền thay D: cóng: 13 lá ×2"),
    ]


def test_it_gives_the_winner_exactly_what_they_would_have_got():
    plain = net("dem-la", four(**FIRST_OUT))
    for den in ("A", "C"):
        assert net(DEM_LA_ANY, four(**FIRST_OUT, den=den))["B"] == plain["B"]


def test_it_makes_the_den_player_pay_ranks_cong_and_thoi_in_placement():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"C": {"cards": 2, "heo": ["2D"]}, "D": {"cards": 13, "heo": ["2S"]}},
        cong=["D"],
        den="B",
    )
    plain = net("nhat-nhi-ba-bet", {**record, "den": None})
    assert plain == {"A": 6 + 2 + 1, "B": 1, "C": -1 - 2, "D": -6 - 1}
    # The nhất still gets 9; nhì (B) pays it all and receives nothing; C and D pay nothing.
    rules = with_den("nhat-nhi-ba-bet", "any_cong")
    assert net(rules, record) == {"A": 9, "B": -9, "C": 0, "D": 0}


def test_it_leaves_chat_alone_under_den():
    record = four(
        **FIRST_OUT,
        den="C",
        chat=[
            {
                "steps": [
                    {"player": "A", "play": "heo", "cards": ["2S"]},
                    {"player": "C", "play": "3dt"},
                ]
            }
        ],
    )
    assert ("A", "C", 5, "chat", "chặt: 2♠") in transfers(DEM_LA_ANY, record)
    assert net(DEM_LA_ANY, record) == {"A": -5, "B": 49, "C": -49 + 5, "D": 0}


def test_it_refuses_den_without_cong():
    record = four(
        finish=["B"], hands={"A": {"cards": 5}, "C": {"cards": 8}, "D": {"cards": 3}}, den="C"
    )
    assert problems(DEM_LA_ANY, record) == [("den", "den_without_cong")]
    assert problems("dem-la", record) == [("den", "den_needs_all_cong")]


def test_it_refuses_den_by_the_winner():
    assert problems("dem-la", four(**FIRST_OUT, den="B")) == [("den", "den_is_winner")]


# --- a cóng player đền ------------------------------------------------------------------------

THREE_CONG = {
    "finish": ["A", "B", "C", "D"],
    "hands": {"B": {"cards": 13}, "C": {"cards": 13, "heo": ["2H"]}, "D": {"cards": 13}},
    "cong": ["B", "C", "D"],
}


def test_a_cong_player_pays_the_whole_table_when_three_are_cong():
    # cuoc at 2 000 đ: three cóng owe A 3 × 2 cược, and C's 2♥ 1 cược of thối: 7 cược.
    record = four(**THREE_CONG, den="B")
    assert net("cuoc", {**record, "den": None}, 2000) == {
        "A": 14000,
        "B": -4000,
        "C": -6000,
        "D": -4000,
    }
    assert net("cuoc", record, 2000) == {"A": 14000, "B": -14000, "C": 0, "D": 0}
    assert transfers("cuoc", record, 2000) == [
        ("B", "A", 4000, "den", "đền thay D: cóng → nhất"),
        ("B", "A", 4000, "den", "đền thay C: cóng → nhất"),
        ("B", "A", 4000, "cong", "cóng → nhất"),
        ("B", "A", 2000, "den", "đền thay C: thối 2♥"),
    ]


def test_a_cong_player_may_den_in_first_out_too():
    record = four(**FIRST_OUT, den="D")
    assert net(DEM_LA_ANY, record, 5000) == {"A": 0, "B": 245000, "C": 0, "D": -245000}


def test_the_den_player_leads_the_next_game_even_when_cong():
    from scoring.engine import next_leader, parse_record

    assert next_leader(parse_record(four(**THREE_CONG, den="C"), PRESETS["cuoc"])) == "C"


# --- den_when ---------------------------------------------------------------------------------

NO_CONG = {"finish": ["B"], "hands": {"A": {"cards": 5}, "C": {"cards": 8}, "D": {"cards": 3}}}
ONE_CONG = {"finish": ["A", "B", "C", "D"], "hands": {"D": {"cards": 13}}, "cong": ["D"]}
TWO_CONG = {
    "finish": ["A", "B", "C", "D"],
    "hands": {"B": {"cards": 4}, "C": {"cards": 13}, "D": {"cards": 13}},
    "cong": ["C", "D"],
}


@pytest.mark.parametrize("preset", PRESETS)
def test_all_cong_is_the_default_of_every_preset(preset):
    # "Cóng 3 nhà: lúc này sẽ xét đến việc đền bài": đền only when every loser is cóng.
    assert PRESETS[preset].den_when == "all_cong"


@pytest.mark.parametrize("den", ["B", "C", "D"])
def test_the_default_refuses_den_with_one_or_two_cong(den):
    # "Cóng 2 nhà … không xét đền".
    assert problems("nhat-nhi-ba-bet", four(**ONE_CONG, den=den)) == [("den", "den_needs_all_cong")]
    assert problems("cuoc", four(**TWO_CONG, den=den)) == [("den", "den_needs_all_cong")]
    assert problems("dem-la", four(**FIRST_OUT, den="C")) == [("den", "den_needs_all_cong")]


def test_any_cong_accepts_den_with_one_or_two_cong():
    rules = with_den("nhat-nhi-ba-bet", "any_cong")
    assert net(rules, four(**ONE_CONG, den="C")) == {"A": 6, "B": 0, "C": -6, "D": 0}
    # Two cóng (C, D): B is nhì holding cards and pays what C and D owe the nhất (11); the
    # nhì's own share from C is dropped, as the other losers receive nothing.
    two = four(**TWO_CONG, den="B")
    assert net(rules, {**two, "den": None}) == {"A": 11, "B": 1, "C": -6, "D": -6}
    assert net(rules, two) == {"A": 11, "B": -11, "C": 0, "D": 0}


def test_the_default_accepts_den_when_every_loser_is_cong():
    assert net("cuoc", four(**THREE_CONG, den="C"), 2000) == {
        "A": 14000,
        "B": 0,
        "C": -14000,
        "D": 0,
    }


def test_all_cong_refuses_den_while_a_loser_is_not_cong():
    rules = with_den("nhat-nhi-ba-bet", "all_cong")
    assert problems(rules, four(**ONE_CONG, den="C")) == [("den", "den_needs_all_cong")]
    assert problems(rules, four(**ONE_CONG, den="D")) == [("den", "den_needs_all_cong")]
    message = _message(rules, four(**ONE_CONG, den="D"), "en")
    assert "B, C" in message and "every loser is cóng" in message


def test_all_cong_allows_den_when_every_loser_is_cong():
    rules = with_den("cuoc", "all_cong")
    assert net(rules, four(**THREE_CONG, den="D"), 2000) == {
        "A": 14000,
        "B": 0,
        "C": 0,
        "D": -14000,
    }


def test_always_allows_den_without_any_cong():
    record = four(**NO_CONG, den="C")
    assert problems(DEM_LA_ANY, record) == [("den", "den_without_cong")]
    rules = with_den("dem-la", "always")
    # C pays A's 5 lá and D's 3 as well as their own 8: B still gets 16.
    assert net(rules, record) == {"A": 0, "B": 16, "C": -16, "D": 0}
    assert problems(rules, four(**NO_CONG, den="B")) == [("den", "den_is_winner")]


@pytest.mark.parametrize("record", [four(**NO_CONG, den="C"), four(**THREE_CONG, den="B")])
def test_never_refuses_every_den_naming_the_rule_set(record):
    rules = with_den("cuoc" if "cong" in record else "dem-la", "never")
    assert problems(rules, record) == [("den", "den_not_played")]
    assert rules.name in _message(rules, record, "vi")


@pytest.mark.parametrize("when", ["any_cong", "all_cong", "always", "never"])
def test_no_den_choice_changes_a_game_recorded_without_den(when):
    for preset, record in (("cuoc", four(**THREE_CONG)), ("dem-la", four(**FIRST_OUT))):
        assert net(with_den(preset, when), record, 2000) == net(preset, record, 2000)


def _message(rules, record, lang):
    from scoring.engine import InvalidRecord, parse_record

    with pytest.raises(InvalidRecord) as caught:
        parse_record(record, rules)
    return caught.value.problems[0].message(lang)
