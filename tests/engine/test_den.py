"""Đền: the đền player pays everything the losers owe the winner; chặt is untouched."""

from __future__ import annotations

from .helpers import four, net, problems, transfers

FIRST_OUT = {
    "finish": ["B"],
    "hands": {"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
}


def test_it_makes_the_den_player_pay_the_whole_table_in_first_out():
    record = four(**FIRST_OUT, den="C")
    assert net("dem-la", record, 5000) == {"A": 0, "B": 245000, "C": -245000, "D": 0}
    assert transfers("dem-la", record) == [
        ("C", "B", 15, "den", "đền thay A: 5 lá + 2♥ thối"),
        ("C", "B", 8, "cards", "8 lá"),
        ("C", "B", 26, "den", "đền thay D: cóng: 13 lá ×2"),
    ]


def test_it_gives_the_winner_exactly_what_they_would_have_got():
    plain = net("dem-la", four(**FIRST_OUT))
    for den in ("A", "C"):
        assert net("dem-la", four(**FIRST_OUT, den=den))["B"] == plain["B"]


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
    assert net("nhat-nhi-ba-bet", record) == {"A": 9, "B": -9, "C": 0, "D": 0}


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
    assert ("A", "C", 5, "chat", "chặt: 2♠") in transfers("dem-la", record)
    assert net("dem-la", record) == {"A": -5, "B": 49, "C": -49 + 5, "D": 0}


def test_it_refuses_den_without_cong():
    record = four(
        finish=["B"], hands={"A": {"cards": 5}, "C": {"cards": 8}, "D": {"cards": 3}}, den="C"
    )
    assert problems("dem-la", record) == [("den", "den_without_cong")]


def test_it_refuses_den_by_the_winner_or_a_cong_player():
    assert problems("dem-la", four(**FIRST_OUT, den="B")) == [("den", "den_is_winner")]
    assert problems("dem-la", four(**FIRST_OUT, den="D")) == [("den", "den_is_cong")]
