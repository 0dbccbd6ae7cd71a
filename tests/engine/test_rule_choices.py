"""The table choices of a rule set: tới trắng thối by hand, who gets a cóng player's thối, and
the chop table. Each default changes nothing; each other value changes exactly its part."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import (
    PRESETS,
    InvalidRecord,
    parse_record,
    ruleset_from_dict,
    ruleset_to_dict,
    score_game,
)

from .helpers import four, net, problems, transfers
from .test_rules_json import refused


def toi(player, hand, hands=None):
    record = four(toi_trang={"player": player, "hand": hand})
    if hands is not None:
        record["hands"] = hands
    return record


# --- toi_trang_counts_thoi as a list of hands ---------------------------------------------------

# "6 đôi thì tới trắng không đếm heo, còn 6 đôi thông thì tới trắng có đếm heo."
SIX_PAIRS_RUN = replace(PRESETS["cuoc"], id="x", toi_trang_counts_thoi=("6_doi_thong",))
DEALT = {"B": {"heo": ["2H"]}, "C": {"cards": 13, "tq": 1}}


def test_a_listed_hand_counts_the_thoi_of_the_dealt_hands():
    assert transfers(SIX_PAIRS_RUN, toi("A", "6_doi_thong", DEALT), 2) == [
        ("B", "A", 4 + 2, "toi_trang", "tới trắng: 6 đôi thông + thối 2♥"),
        ("C", "A", 4 + 4, "toi_trang", "tới trắng: 6 đôi thông + thối tứ quý"),
        ("D", "A", 4, "toi_trang", "tới trắng: 6 đôi thông"),
    ]


def test_a_hand_not_listed_counts_no_thoi_of_the_dealt_hands():
    assert net(SIX_PAIRS_RUN, toi("A", "6_doi"), 2) == {"A": 12, "B": -4, "C": -4, "D": -4}
    assert net(SIX_PAIRS_RUN, toi("A", "6_doi", DEALT), 2) == {"A": 12, "B": -4, "C": -4, "D": -4}
    assert [n.code for n in score_game(SIX_PAIRS_RUN, toi("A", "6_doi", DEALT), 2).notes] == [
        "hands_set_aside"
    ]


def test_true_and_false_still_mean_every_hand_and_none():
    every = replace(PRESETS["cuoc"], id="x", toi_trang_counts_thoi=True)
    assert net(every, toi("A", "6_doi", DEALT), 2)["A"] == 12 + 2 + 4
    assert net("cuoc", toi("A", "6_doi_thong", DEALT), 2)["A"] == 12


def test_it_reads_and_writes_a_list_of_hands():
    data = ruleset_to_dict(SIX_PAIRS_RUN)
    assert data["toi_trang_counts_thoi"] == ["6_doi_thong"]
    assert ruleset_from_dict(data) == SIX_PAIRS_RUN
    assert ruleset_from_dict({**data, "toi_trang_counts_thoi": []}).toi_trang_counts_thoi is False


def test_it_refuses_a_list_with_hands_the_rule_set_does_not_accept():
    base = {"base": "dem-la"}
    assert refused({**base, "toi_trang_counts_thoi": ["6_doi_thong"]}) == [
        ("toi_trang_counts_thoi[0]", "thoi_hand_not_accepted")
    ]
    assert refused({**base, "toi_trang_counts_thoi": ["6_doi", "6_doi"]}) == [
        ("toi_trang_counts_thoi[1]", "duplicate_hand")
    ]
    assert refused({**base, "toi_trang_counts_thoi": ["poker", 3]}) == [
        ("toi_trang_counts_thoi[1]", "unknown_hand")
    ]
    assert refused({**base, "toi_trang_counts_thoi": "yes"}) == [
        ("toi_trang_counts_thoi", "not_a_bool_or_hands")
    ]


# --- cong_thoi_to ----------------------------------------------------------------------------

# nhat-nhi-ba-bet, order A B C D, C and D cóng: C holds 2♦, D holds 2♠.
TWO_CONG = four(
    finish=["A", "B", "C", "D"],
    hands={"C": {"cards": 13, "heo": ["2D"]}, "D": {"cards": 13, "heo": ["2S"]}},
    cong=["C", "D"],
)


def test_a_cong_players_thoi_goes_to_the_nhat_by_default():
    assert PRESETS["diem"].cong_thoi_to == "winner"
    thoi = [t for t in transfers("nhat-nhi-ba-bet", TWO_CONG) if t[3] == "thoi"]
    assert thoi == [("C", "A", 2, "thoi", "thối 2♦"), ("D", "A", 1, "thoi", "thối 2♠")]


def test_above_sends_a_cong_players_thoi_to_the_player_ranked_just_above():
    rules = replace(PRESETS["nhat-nhi-ba-bet"], id="x", cong_thoi_to="above")
    thoi = [t for t in transfers(rules, TWO_CONG) if t[3] == "thoi"]
    assert thoi == [("C", "B", 2, "thoi", "thối 2♦"), ("D", "C", 1, "thoi", "thối 2♠")]
    # Ranks and cóng are as before: A +11, B +1, C −6, D −6; then thối C → B 2, D → C 1.
    assert net(rules, TWO_CONG) == {"A": 11, "B": 3, "C": -7, "D": -7}
    assert net("nhat-nhi-ba-bet", TWO_CONG) == {"A": 14, "B": 1, "C": -8, "D": -7}


def test_cong_thoi_to_leaves_the_last_non_cong_players_thoi_alone():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"C": {"cards": 2, "heo": ["2H"]}, "D": {"cards": 13}},
        cong=["D"],
    )
    for to in ("winner", "above"):
        rules = replace(PRESETS["cuoc"], id="x", cong_thoi_to=to)  # thoi_to: above
        assert ("C", "B", 2, "thoi", "thối 2♥") in transfers(rules, record, 2)


def test_it_refuses_cong_thoi_to_above_in_first_out_and_unknown_values():
    assert refused({"base": "dem-la", "cong_thoi_to": "above"}) == [
        ("cong_thoi_to", "cong_thoi_to_above_first_out")
    ]
    assert refused({"base": "cuoc", "cong_thoi_to": "below"}) == [
        ("cong_thoi_to", "unknown_cong_thoi_to")
    ]
    assert refused({"base": "cuoc", "den_when": "sometimes"}) == [("den_when", "unknown_den_when")]


# --- chops -------------------------------------------------------------------------------------

NO_DOI_HEO = ruleset_from_dict(
    {"base": "dem-la", "name": "Không chặt đôi heo",
     "chops": {"tq": ["heo", "3dt", "tq"], "4dt": ["heo", "3dt", "tq", "4dt"]}}
)  # fmt: skip


def chain(*steps, victim_out=False):
    return {"finish": ["B"], "hands": {"A": {"cards": 5}, "C": {"cards": 8}, "D": {"cards": 3}},
            "chat": [{"steps": list(steps), "victim_out": victim_out}]}  # fmt: skip


DOI_HEO_BY_TQ = chain(
    {"player": "A", "play": "doi_heo", "cards": ["2S", "2H"]}, {"player": "C", "play": "tq"}
)


def test_the_default_table_lets_a_tu_quy_chop_a_doi_heo():
    assert PRESETS["dem-la"].chopped_by("doi_heo") == {"tq", "4dt"}
    chop = ("A", "C", 15, "chat", "chặt: đôi heo 2♠ 2♥")
    assert chop in transfers("dem-la", four(**DOI_HEO_BY_TQ))


def test_a_table_without_doi_heo_chops_refuses_it_naming_the_rule_set():
    assert NO_DOI_HEO.chopped_by("doi_heo") == set()
    assert problems(NO_DOI_HEO, four(**DOI_HEO_BY_TQ)) == [
        ("chat[0].steps[1].play", "chop_not_in_rules")
    ]
    with pytest.raises(InvalidRecord) as caught:
        parse_record(four(**DOI_HEO_BY_TQ), NO_DOI_HEO)
    vi, en = (caught.value.problems[0].message(lang) for lang in ("vi", "en"))
    assert "Không chặt đôi heo" in vi and "tứ quý" in vi and "đôi heo" in vi
    assert "does not let a tứ quý chop đôi heo" in en


def test_the_rest_of_the_table_is_unchanged():
    heo_by_tq = chain(
        {"player": "A", "play": "heo", "cards": ["2H"]}, {"player": "C", "play": "tq"}
    )
    assert net(NO_DOI_HEO, four(**heo_by_tq)) == net("dem-la", four(**heo_by_tq))
    three_heo = chain(
        {"player": "A", "play": "heo", "cards": ["2S", "2C", "2H"]}, {"player": "C", "play": "4dt"}
    )
    assert problems(NO_DOI_HEO, four(**three_heo)) == [
        ("chat[0].steps[1].play", "nothing_chops_three_heo")
    ]


def test_a_table_may_add_a_chop_the_default_refuses():
    wide = replace(PRESETS["dem-la"], id="x", chops=(("3dt", ("heo", "doi_heo", "3dt")),))
    by_3dt = chain(
        {"player": "A", "play": "doi_heo", "cards": ["2S", "2H"]}, {"player": "C", "play": "3dt"}
    )
    assert problems("dem-la", four(**by_3dt)) == [("chat[0].steps[1].play", "illegal_chop")]
    assert ("A", "C", 15, "chat", "chặt: đôi heo 2♠ 2♥") in transfers(wide, four(**by_3dt))
    # Rows left out of a table built in code chop nothing.
    assert wide.chopped_by("tq") == set() and wide.chopped_by("heo") == {"3dt"}


def test_it_reads_and_writes_the_chop_table():
    data = ruleset_to_dict(NO_DOI_HEO)
    assert data["chops"] == {
        "3dt": ["heo", "3dt"],
        "tq": ["heo", "3dt", "tq"],
        "4dt": ["heo", "3dt", "tq", "4dt"],
    }
    assert ruleset_from_dict(data) == NO_DOI_HEO
    # Listed in any order, kept in one order: the same table is the same rule set.
    shuffled = {**data, "chops": {"tq": ["tq", "3dt", "heo"], "4dt": ["4dt", "tq", "3dt", "heo"]}}
    assert ruleset_from_dict(shuffled).chops == NO_DOI_HEO.chops
    # A row left out keeps the default row.
    one_row = ruleset_from_dict({**data, "chops": {"tq": ["heo", "3dt", "tq"]}})
    assert one_row.chopped_by("doi_heo") == {"4dt"}


def test_it_refuses_a_chop_table_that_does_not_read():
    base = {"base": "dem-la"}
    assert refused({**base, "chops": []}) == [("chops", "not_an_object")]
    assert refused({**base, "chops": {"heo": ["heo"]}}) == [("chops.heo", "unknown_field")]
    assert refused({**base, "chops": {"tq": "heo"}}) == [("chops.tq", "not_a_list")]
    assert refused({**base, "chops": {"tq": ["heo", "bom"]}}) == [("chops.tq[1]", "unknown_play")]
    assert refused({**base, "chops": {"tq": ["heo", "heo"]}}) == [("chops.tq[1]", "duplicate_play")]


# --- defaults change nothing ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_the_default_of_every_new_choice(preset):
    rules = PRESETS[preset]
    data = ruleset_to_dict(rules)
    assert data["den_when"] == "all_cong" and data["cong_thoi_to"] == "winner"
    assert rules.chops == ruleset_from_dict({"id": "d", "name": "d"}).chops
    assert data["toi_trang_counts_thoi"] is False
    old = {k: v for k, v in data.items() if k not in ("den_when", "cong_thoi_to", "chops")}
    assert ruleset_from_dict(old) == rules  # a rule set stored before these fields existed


NEW_FIELDS = {
    "ket_3_bich_mode": "instead",
    "chan_ket_keeps_cards": False,
    "two_out": "allowed",
    "two_out_cards": None,
    "toi_trang_outside_opening": False,
}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_the_default_of_the_fields_of_rules_iii(preset):
    rules = PRESETS[preset]
    data = ruleset_to_dict(rules)
    assert {k: data[k] for k in NEW_FIELDS} == NEW_FIELDS
    old = {k: v for k, v in data.items() if k not in NEW_FIELDS}
    assert ruleset_from_dict(old) == rules
    assert ruleset_from_dict(data) == rules
