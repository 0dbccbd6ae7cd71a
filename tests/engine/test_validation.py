"""Bad records are refused with every problem named by its field path."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS, InvalidRecord, parse_record, score_game

from .helpers import four, problems, rules_of, three, two

OK_FIRST_OUT = {"finish": ["A"], "hands": {"B": {"cards": 3}, "C": {"cards": 4}, "D": {"cards": 5}}}
OK_PLACEMENT = {"finish": ["A", "B", "C", "D"], "hands": {"D": {"cards": 3}}}


def heo_chain(*steps):
    return [{"steps": list(steps)}]


# --- players


def test_it_refuses_an_unknown_player_everywhere_a_name_goes():
    record = four(
        finish=["A", "X"],
        hands={"B": {"cards": 3}, "C": {"cards": 4}, "D": {"cards": 5}, "Y": {"cards": 1}},
        cong=["Z"],
        chat=heo_chain(
            {"player": "W", "play": "heo", "cards": ["2H"]}, {"player": "B", "play": "3dt"}
        ),
        den="V",
    )
    assert sorted(problems("dem-la", record)) == [
        ("chat[0].steps[0].player", "unknown_player"),
        ("cong[0]", "unknown_player"),
        ("den", "unknown_player"),
        ("finish[1]", "unknown_player"),
        ("hands.Y", "unknown_player"),
    ]


def test_it_refuses_duplicate_players():
    assert problems(
        "dem-la", {"players": ["A", "B", "A"], "finish": ["A"], "hands": {"B": {"cards": 1}}}
    ) == [("players[2]", "duplicate_player")]


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E"]])
def test_it_refuses_fewer_than_2_or_more_than_4_players(players):
    record = {"players": players, "finish": ["A"], "hands": {p: {"cards": 1} for p in players[1:]}}
    assert problems("dem-la", record) == [("players", "player_count")]


def test_it_refuses_blank_or_non_text_names():
    record = {"players": ["A", " ", 3], "finish": ["A"]}
    assert problems("dem-la", record)[:2] == [
        ("players[1]", "bad_player_name"),
        ("players[2]", "bad_player_name"),
    ]


# --- finish and hands


def test_it_refuses_a_game_without_winner():
    assert problems("dem-la", four(hands={"B": {"cards": 1}})) == [("finish", "no_winner")]
    assert problems("dem-la", four(finish=[], hands={"B": {"cards": 1}}))[0] == (
        "finish",
        "no_winner",
    )


def test_it_refuses_a_placement_finish_that_is_not_a_permutation():
    assert problems("nhat-nhi-ba-bet", four(finish=["A", "B", "C"], hands={"C": {"cards": 1}})) == [
        ("finish", "finish_not_permutation")
    ]
    assert problems(
        "nhat-nhi-ba-bet", four(finish=["A", "B", "C", "C", "D"], hands={"D": {"cards": 1}})
    ) == [("finish[3]", "duplicate_in_list")]


def test_it_refuses_a_winner_holding_cards():
    record = four(
        finish=["A"],
        hands={"A": {"cards": 2}, "B": {"cards": 3}, "C": {"cards": 4}, "D": {"cards": 5}},
    )
    assert problems("dem-la", record) == [("hands.A.cards", "winner_holds_cards")]


def test_it_refuses_a_first_out_loser_with_no_cards():
    record = four(finish=["A"], hands={"B": {"cards": 3}, "C": {"cards": 0}})
    assert problems("dem-la", record) == [
        ("hands.C.cards", "loser_without_cards"),
        ("hands.D.cards", "loser_without_cards"),
    ]


def test_it_refuses_cards_held_by_a_placement_player_who_finished():
    record = four(finish=["A", "B", "C", "D"], hands={"B": {"cards": 2}, "D": {"cards": 3}})
    assert problems("nhat-nhi-ba-bet", record) == [("hands.B.cards", "finished_player_holds_cards")]


@pytest.mark.parametrize("cards", [-1, 14, 99])
def test_it_refuses_cards_outside_0_to_13(cards):
    record = two(finish=["A"], hands={"B": {"cards": cards}})
    assert problems("dem-la", record) == [("hands.B.cards", "count_out_of_range")]


@pytest.mark.parametrize("cards", ["3", 2.5, True, None, [1]])
def test_it_refuses_card_counts_that_are_not_whole_numbers(cards):
    record = two(finish=["A"], hands={"B": {"cards": cards}})
    assert problems("dem-la", record) == [("hands.B.cards", "not_an_int")]


def test_it_refuses_more_heo_and_hang_cards_than_cards_left():
    record = two(finish=["A"], hands={"B": {"cards": 7, "heo": ["2S", "2H"], "3dt": 1, "tq": 0}})
    assert problems("dem-la", record) == [("hands.B.cards", "special_exceeds_cards")]


def test_it_refuses_unknown_card_text_and_cards_that_are_not_heo():
    record = two(finish=["A"], hands={"B": {"cards": 5, "heo": ["2X", "KH", 2]}})
    assert problems("dem-la", record) == [
        ("hands.B.heo[0]", "unknown_card"),
        ("hands.B.heo[1]", "not_a_heo"),
        ("hands.B.heo[2]", "unknown_card"),
    ]


def test_it_refuses_the_same_2_in_two_hands():
    record = three(
        finish=["A"], hands={"B": {"cards": 2, "heo": ["2H"]}, "C": {"cards": 2, "heo": ["2♥"]}}
    )
    assert problems("dem-la", record) == [("hands.C.heo[0]", "duplicate_heo")]


def test_it_refuses_the_same_2_in_a_hand_and_a_chat_step():
    record = four(**OK_FIRST_OUT)
    record["hands"] = {"B": {"cards": 3, "heo": ["2D"]}, "C": {"cards": 4}, "D": {"cards": 5}}
    record["chat"] = heo_chain(
        {"player": "C", "play": "doi_heo", "cards": ["2S", "2D"]}, {"player": "D", "play": "tq"}
    )
    assert problems("dem-la", record) == [("chat[0].steps[0].cards[1]", "duplicate_heo")]


def test_a_2_written_twice_is_named_by_player_and_card_in_both_languages():
    """The message says where the first 2 is as a player would, never a field path."""
    record = four(**OK_FIRST_OUT)
    record["hands"] = {"B": {"cards": 3, "heo": ["2D"]}, "C": {"cards": 4}, "D": {"cards": 5}}
    record["chat"] = heo_chain(
        {"player": "C", "play": "heo", "cards": ["2H"]}, {"player": "D", "play": "tq"}
    )
    record["chat"].append(
        {
            "steps": [
                {"player": "B", "play": "doi_heo", "cards": ["2D", "2H"]},
                {"player": "C", "play": "4dt"},
            ]
        }
    )
    with pytest.raises(InvalidRecord) as error:
        parse_record(record, rules_of("dem-la"))
    said = {p.path: (p.message("vi"), p.message("en")) for p in error.value.problems}
    assert said["chat[1].steps[0].cards[0]"] == (
        "Chỉ có một lá 2♦ trong bộ bài, nhưng nó đã được ghi trên tay B; hãy xoá một chỗ.",
        "There is only one 2♦ in the deck and it is already recorded in B's hand; remove one.",
    )
    assert said["chat[1].steps[0].cards[1]"] == (
        "Chỉ có một lá 2♥ trong bộ bài, nhưng nó đã được ghi trong lần chặt 1 (C đánh); "
        "hãy xoá một chỗ.",
        "There is only one 2♥ in the deck and it is already recorded in chop 1 "
        "(played by C); remove one.",
    )
    for vi, en in said.values():
        assert "hands." not in vi + en and "chat[" not in vi + en and "[0]" not in vi + en


def test_it_refuses_the_same_2_twice_in_one_hand():
    record = two(finish=["A"], hands={"B": {"cards": 3, "heo": ["2S", "2s"]}})
    assert problems("dem-la", record) == [("hands.B.heo[1]", "duplicate_heo")]


# --- cóng


def test_it_refuses_a_cong_winner():
    record = four(**OK_FIRST_OUT, cong=["A"])
    assert problems("dem-la", record) == [("cong[0]", "cong_is_winner")]


def test_it_refuses_a_cong_player_with_fewer_than_13_cards():
    record = four(**OK_FIRST_OUT, cong=["C"])
    assert problems("dem-la", record) == [("hands.C.cards", "cong_needs_13")]


def test_it_refuses_a_placement_cong_player_ranked_above_a_non_cong_player():
    record = four(
        finish=["A", "C", "B", "D"], hands={"C": {"cards": 13}, "D": {"cards": 2}}, cong=["C"]
    )
    assert problems("nhat-nhi-ba-bet", record) == [("finish", "cong_ranked_above")]


def test_it_refuses_13_cards_in_placement_unless_marked_cong():
    record = four(finish=["A", "B", "C", "D"], hands={"D": {"cards": 13}})
    assert problems("nhat-nhi-ba-bet", record) == [("hands.D.cards", "thirteen_not_cong")]


# --- chặt


def test_it_refuses_a_chain_of_one_step():
    record = four(**OK_FIRST_OUT, chat=heo_chain({"player": "B", "play": "heo", "cards": ["2H"]}))
    assert problems("dem-la", record) == [("chat[0].steps", "chain_too_short")]


def test_it_refuses_a_cong_player_in_a_chain():
    record = four(
        finish=["A"],
        hands={"B": {"cards": 3}, "C": {"cards": 4}, "D": {"cards": 13}},
        chat=heo_chain(
            {"player": "D", "play": "heo", "cards": ["2H"]}, {"player": "B", "play": "3dt"}
        ),
    )
    assert problems("dem-la", record) == [("chat[0].steps[0].player", "cong_in_chain")]


def test_it_refuses_a_player_chopping_themself():
    record = four(
        **OK_FIRST_OUT,
        chat=heo_chain(
            {"player": "B", "play": "heo", "cards": ["2H"]}, {"player": "B", "play": "3dt"}
        ),
    )
    assert problems("dem-la", record) == [("chat[0].steps[1].player", "self_chop")]


def test_it_refuses_3_doi_thong_on_doi_heo():
    record = four(
        **OK_FIRST_OUT,
        chat=heo_chain(
            {"player": "B", "play": "doi_heo", "cards": ["2H", "2S"]},
            {"player": "C", "play": "3dt"},
        ),
    )
    assert problems("dem-la", record) == [("chat[0].steps[1].play", "illegal_chop")]


@pytest.mark.parametrize(
    ("chopped", "chopper"),
    [("tq", "3dt"), ("4dt", "tq"), ("4dt", "3dt"), ("heo", "heo"), ("3dt", "doi_heo")],
)
def test_it_refuses_every_chop_the_table_does_not_allow(chopped, chopper):
    first = {"player": "B", "play": chopped}
    if chopped == "heo":
        first["cards"] = ["2C"]
    second = {"player": "C", "play": chopper}
    if chopper == "heo":
        second["cards"] = ["2D"]
    if chopper == "doi_heo":
        second["cards"] = ["2D", "2H"]
    record = four(**OK_FIRST_OUT, chat=heo_chain(first, second))
    assert problems("dem-la", record) == [("chat[0].steps[1].play", "illegal_chop")]


@pytest.mark.parametrize(
    "first",
    [
        {"player": "B", "play": "doi_heo", "cards": ["2H", "2S", "2C"]},
        {"player": "B", "play": "heo", "cards": ["2H", "2S", "2C"]},
        {"player": "B", "play": "ba_heo"},
    ],
)
def test_it_refuses_anything_on_three_2s(first):
    record = four(**OK_FIRST_OUT, chat=heo_chain(first, {"player": "C", "play": "4dt"}))
    assert problems("dem-la", record) == [("chat[0].steps[1].play", "nothing_chops_three_heo")]


def test_it_refuses_a_smaller_hang_of_the_same_kind_when_top_says_so():
    record = four(
        **OK_FIRST_OUT,
        chat=heo_chain(
            {"player": "B", "play": "tq", "top": "9H"}, {"player": "C", "play": "tq", "top": "7H"}
        ),
    )
    assert problems("dem-la", record) == [("chat[0].steps[1].top", "chop_not_bigger")]


def test_it_orders_same_kind_hang_by_rank_then_suit():
    bigger_suit = four(
        **OK_FIRST_OUT,
        chat=heo_chain(
            {"player": "B", "play": "3dt", "top": "9D"}, {"player": "C", "play": "3dt", "top": "9H"}
        ),
    )
    score_game(PRESETS["dem-la"], bigger_suit, 1)
    smaller_suit = four(
        **OK_FIRST_OUT,
        chat=heo_chain(
            {"player": "B", "play": "3dt", "top": "9H"}, {"player": "C", "play": "3dt", "top": "9D"}
        ),
    )
    assert problems("dem-la", smaller_suit) == [("chat[0].steps[1].top", "chop_not_bigger")]


def test_it_accepts_a_same_kind_chop_without_top():
    record = four(
        **OK_FIRST_OUT,
        chat=heo_chain({"player": "B", "play": "tq", "top": "9H"}, {"player": "C", "play": "tq"}),
    )
    score_game(PRESETS["dem-la"], record, 1)


def test_it_refuses_badly_formed_chat_steps():
    record = four(
        **OK_FIRST_OUT,
        chat=[
            {"steps": [{"player": "B", "play": "heo"}, {"player": "C", "play": "bomb"}]},
            {
                "steps": [
                    {"player": "B", "play": "heo", "cards": ["2H", "2D"]},
                    {"player": "C", "play": "3dt", "cards": ["3S"], "top": "2S"},
                ]
            },
            {
                "steps": [
                    {"player": "B", "play": "heo", "cards": ["2C"], "top": "2C"},
                    {"player": "C", "play": "3dt"},
                ],
                "victim_out": "yes",
                "extra": 1,
            },
            "not a chain",
        ],
    )
    assert problems("dem-la", record) == [
        ("chat[0].steps[0].cards", "heo_step_needs_cards"),
        ("chat[0].steps[1].play", "unknown_play"),
        ("chat[1].steps[0].cards", "wrong_heo_count"),
        ("chat[1].steps[1].cards", "cards_only_for_heo"),
        ("chat[1].steps[1].top", "heo_in_run"),
        ("chat[2].extra", "unknown_field"),
        ("chat[2].victim_out", "not_a_bool"),
        ("chat[2].steps[0].top", "top_only_for_hang"),
        ("chat[3]", "not_an_object"),
    ]


def test_it_refuses_victim_out_for_a_player_who_did_not_go_out():
    record = four(
        **OK_FIRST_OUT,
        chat=[
            {
                "steps": [
                    {"player": "B", "play": "heo", "cards": ["2H"]},
                    {"player": "C", "play": "3dt"},
                ],
                "victim_out": True,
            }
        ],
    )
    assert problems("dem-la", record) == [("chat[0].victim_out", "victim_out_not_winner")]
    placement = four(
        **OK_PLACEMENT,
        chat=[
            {
                "steps": [
                    {"player": "D", "play": "heo", "cards": ["2H"]},
                    {"player": "C", "play": "3dt"},
                ],
                "victim_out": True,
            }
        ],
    )
    assert problems("nhat-nhi-ba-bet", placement) == [
        ("chat[0].victim_out", "victim_out_still_holding")
    ]


# --- tới trắng, đền, types


def test_it_refuses_an_unknown_toi_trang_hand_and_player():
    record = four(toi_trang={"player": "X", "hand": "royal_flush"})
    assert problems("dem-la", record) == [
        ("toi_trang.player", "unknown_player"),
        ("toi_trang.hand", "unknown_hand"),
    ]


def test_it_refuses_what_is_not_a_record():
    for data in (None, [], "game", 3):
        assert problems("dem-la", data) == [("", "not_an_object")]


def test_it_refuses_unknown_fields_and_wrong_types():
    record = four(**OK_FIRST_OUT, opening="no", ket_3_bich=1, color="red", version=2, cong="D")
    record["hands"] = {**record["hands"], "B": {"cards": 3, "jokers": 1, "heo": "2H", "tq": -1}}
    assert problems("dem-la", record) == [
        ("color", "unknown_field"),
        ("version", "unknown_version"),
        ("opening", "not_a_bool"),
        ("hands.B.jokers", "unknown_field"),
        ("hands.B.heo", "not_a_list"),
        ("hands.B.tq", "count_out_of_range"),
        ("cong", "not_a_list"),
        ("ket_3_bich", "not_a_bool"),
    ]


def test_it_reports_every_problem_of_a_record_at_once():
    record = {
        "players": ["A", "B", "C", "A"],
        "finish": ["A"],
        "hands": {"A": {"cards": 1}, "B": {"cards": 20}, "C": {"cards": 2, "heo": ["2H", "2H"]}},
        "den": "B",
    }
    with pytest.raises(InvalidRecord) as caught:
        score_game(PRESETS["dem-la"], record, 1000)
    assert [(p.path, p.code) for p in caught.value.problems] == [
        ("players[3]", "duplicate_player"),
        ("hands.B.cards", "count_out_of_range"),
        ("hands.C.heo[1]", "duplicate_heo"),
        ("hands.A.cards", "winner_holds_cards"),
        ("den", "den_needs_all_cong"),
    ]


def test_it_refuses_three_2s_chopping_anything():
    # Three 2s chop nothing; naming the chopper used to fail on a play with no name.
    record = four(**OK_FIRST_OUT, chat=heo_chain({"player": "B", "play": "3dt"},
                                                 {"player": "C", "play": "ba_heo"}))  # fmt: skip
    assert problems("dem-la", record) == [("chat[0].steps[1].play", "illegal_chop")]
