"""Cóng "cả làng": each cóng player pays a fixed value to every non-cóng player, and that is all."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from scoring.engine import PRESETS

from .helpers import four, net, transfers

CA_LANG = replace(PRESETS["dem-la"], id="ca-lang", cong_ca_lang=Fraction(13), den_when="any_cong")
CA_LANG_PLACEMENT = replace(PRESETS["nhat-nhi-ba-bet"], id="ca-lang-p", cong_ca_lang=Fraction(3))


def test_it_makes_each_cong_player_pay_every_non_cong_player():
    record = four(
        finish=["A"],
        hands={"B": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 13}, "D": {"cards": 13}},
    )
    assert transfers(CA_LANG, record) == [
        ("C", "A", 13, "cong", "cóng cả làng"),
        ("C", "B", 13, "cong", "cóng cả làng"),
        ("D", "A", 13, "cong", "cóng cả làng"),
        ("D", "B", 13, "cong", "cóng cả làng"),
    ]


def test_it_scores_normally_without_cong():
    record = four(finish=["A"], hands={p: {"cards": 2} for p in "BCD"})
    assert net(CA_LANG, record) == {"A": 6, "B": -2, "C": -2, "D": -2}


def test_it_ends_a_placement_game_at_the_first_player_out():
    # Only the winner is known: no ranks among the rest.
    record = four(finish=["B"], hands={"D": {"cards": 13}}, cong=["D"])
    assert net(CA_LANG_PLACEMENT, record) == {"A": 3, "B": 3, "C": 3, "D": -9}


def test_it_lets_the_den_player_pay_only_the_winners_share():
    record = four(
        finish=["A"], hands={"B": {"cards": 5}, "C": {"cards": 4}, "D": {"cards": 13}}, den="B"
    )
    assert net(CA_LANG, record) == {"A": 13, "B": -13, "C": 0, "D": 0}
