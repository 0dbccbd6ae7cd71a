"""Tới trắng: every other player pays the winner the rule set's value; nothing else counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import HANDS, PRESETS

from .helpers import four, net, problems, transfers

FLAT = {"dem-la": 13, "nhat-nhi-ba-bet": 3, "cuoc": 2, "diem": 6}
LIST_A = ["sanh_rong", "tu_quy_heo", "5_doi_thong", "6_doi"]
LIST_B = [
    *LIST_A,
    "6_doi_thong",
    "3_sam_thong",
    "4_sam_thong",
    "4_sam",
    "3_tu_quy",
    "dong_mau_12",
    "thung_pha_sanh",
]
OPENING_ONLY = ["3_doi_thong_3bich", "tu_quy_3", "4_doi_thong_3bich"]
LIST_C = {
    "sanh_rong": 9,
    "6_doi_thong": 8,
    "4_sam": 7,
    "2_tu_quy": 6,
    "dong_chat_12": 5,
    "5_doi_thong": 4,
    "tu_quy_heo": 3,
    "6_doi": 2,
}


def toi(player, hand, opening=False):
    return four(opening=opening, toi_trang={"player": player, "hand": hand})


@pytest.mark.parametrize("preset", ["dem-la", "nhat-nhi-ba-bet"])
@pytest.mark.parametrize("hand", LIST_A)
def test_it_pays_the_flat_value_for_every_hand_of_list_a(preset, hand):
    value = FLAT[preset]
    assert net(preset, toi("C", hand)) == {"A": -value, "B": -value, "C": 3 * value, "D": -value}


@pytest.mark.parametrize("preset", ["cuoc", "diem"])
@pytest.mark.parametrize("hand", LIST_B)
def test_it_pays_the_flat_value_for_every_hand_of_list_b(preset, hand):
    value = FLAT[preset] * 2  # at 2 đồng per unit: cuoc has ½ values elsewhere
    assert net(preset, toi("A", hand), 2) == {"A": 3 * value, "B": -value, "C": -value, "D": -value}


@pytest.mark.parametrize("preset", ["cuoc", "diem"])
@pytest.mark.parametrize("hand", OPENING_ONLY)
def test_it_accepts_opening_only_hands_only_in_an_opening_game(preset, hand):
    assert net(preset, toi("B", hand, opening=True), 2)["B"] == 3 * 2 * FLAT[preset]
    assert problems(preset, toi("B", hand)) == [("toi_trang.hand", "hand_needs_opening")]


@pytest.mark.parametrize(("hand", "value"), LIST_C.items())
def test_it_pays_by_hand_in_dem_la_26(hand, value):
    assert transfers("dem-la-26", toi("D", hand)) == [
        (p, "D", value, "toi_trang", f"tới trắng: {HANDS[hand]}") for p in "ABC"
    ]


@pytest.mark.parametrize("preset", ["dem-la", "nhat-nhi-ba-bet"])
def test_it_refuses_a_list_b_hand_where_only_list_a_counts(preset):
    assert problems(preset, toi("A", "6_doi_thong")) == [("toi_trang.hand", "hand_not_accepted")]


def test_it_refuses_a_hand_outside_list_c_in_dem_la_26():
    assert problems("dem-la-26", toi("A", "3_sam_thong")) == [
        ("toi_trang.hand", "hand_not_accepted")
    ]


def test_it_refuses_play_fields_in_a_toi_trang_game():
    record = toi("A", "sanh_rong")
    record.update(finish=["A"], chat=[{"steps": []}], hands={"B": {"cards": 12}})
    assert sorted(problems("dem-la", record)) == [
        ("chat", "not_with_toi_trang"),
        ("finish", "not_with_toi_trang"),
        ("hands.B.cards", "dealt_hand_not_13"),
    ]


def test_it_accepts_empty_play_fields_in_a_toi_trang_game():
    record = toi("A", "sanh_rong")
    record.update(finish=[], chat=[], cong=[], den=None, ket_3_bich=False, chan_ket_3_bich=None)
    assert net("dem-la", record)["A"] == 39


def test_it_adds_the_dealt_thoi_when_the_rule_set_counts_it():
    rules = replace(PRESETS["dem-la"], id="x", toi_trang_counts_thoi=True)
    record = toi("A", "sanh_rong")
    record["hands"] = {"B": {"heo": ["2H"]}, "C": {"cards": 13, "tq": 1}}
    assert transfers(rules, record) == [
        ("B", "A", 23, "toi_trang", "tới trắng: sảnh rồng + thối 2♥"),
        ("C", "A", 28, "toi_trang", "tới trắng: sảnh rồng + thối tứ quý"),
        ("D", "A", 13, "toi_trang", "tới trắng: sảnh rồng"),
    ]
