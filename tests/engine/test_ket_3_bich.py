"""Kết 3 bích and chặn kết 3 bích (preset dem-la-26)."""

from __future__ import annotations

from scoring.engine import PRESETS, score_game

from .helpers import four, net, problems, transfers

PLAYED = {
    "finish": ["A"],
    "hands": {"B": {"cards": 4, "heo": ["2H"]}, "C": {"cards": 13}, "D": {"cards": 1}},
}


def test_it_makes_every_loser_pay_26_instead_of_cards_and_thoi():
    record = four(**PLAYED, ket_3_bich=True)
    assert transfers("dem-la-26", record) == [
        (p, "A", 26, "ket_3_bich", "kết 3 bích") for p in "BCD"
    ]


def test_it_makes_the_stopped_player_pay_26_to_each_player_of_the_last_round():
    record = four(**PLAYED, chan_ket_3_bich={"player": "B", "last_round": ["B", "A", "D"]})
    assert transfers("dem-la-26", record) == [
        ("B", "A", 26, "chan_ket_3_bich", "chặn kết 3 bích"),
        ("B", "D", 26, "chan_ket_3_bich", "chặn kết 3 bích"),
    ]
    # C was outside the round: pays nothing, gets nothing; no card or thối amounts at all.
    assert net("dem-la-26", record) == {"A": 26, "B": -52, "C": 0, "D": 26}


def test_it_still_pays_chat_in_a_ket_3_bich_game():
    record = four(
        **PLAYED,
        ket_3_bich=True,
        chat=[
            {
                "steps": [
                    {"player": "D", "play": "heo", "cards": ["2S"]},
                    {"player": "B", "play": "3dt"},
                ]
            }
        ],
    )
    assert ("D", "B", 3, "chat", "chặt: 2♠") in transfers("dem-la-26", record)


def test_where_the_rule_set_does_not_play_it_the_game_is_priced_as_any_other():
    # Records are facts: the 3♠ finish is accepted, and the rule set prices the game without it.
    plain = four(**PLAYED)
    for preset in ("dem-la", "nhat-nhi-ba-bet", "cuoc", "diem"):
        placed = four(finish=["A", "D", "B", "C"], cong=["C"],
                      hands={"B": {"cards": 4, "heo": ["2H"]}, "C": {"cards": 13}})  # fmt: skip
        record = plain if preset == "dem-la" else placed
        assert net(preset, {**record, "ket_3_bich": True}, 2) == net(preset, record, 2)
        result = score_game(PRESETS[preset], {**record, "ket_3_bich": True}, 2)
        assert [(n.path, n.code) for n in result.notes] == [("ket_3_bich", "ket_3_bich_set_aside")]
    # Then every loser's cards are needed, as in any game.
    no_cards = four(finish=["A"], ket_3_bich=True)
    assert ("hands.B.cards", "loser_without_cards") in problems("dem-la", no_cards)
    assert net("dem-la-26", no_cards) == {"A": 78, "B": -26, "C": -26, "D": -26}


def test_it_refuses_ket_and_chan_in_one_game():
    record = four(**PLAYED, ket_3_bich=True, chan_ket_3_bich={"player": "B", "last_round": ["A"]})
    assert problems("dem-la-26", record) == [("chan_ket_3_bich", "ket_and_chan")]


def test_it_refuses_a_chan_without_anyone_else_in_the_last_round():
    record = four(**PLAYED, chan_ket_3_bich={"player": "B", "last_round": ["B"]})
    assert problems("dem-la-26", record) == [("chan_ket_3_bich.last_round", "chan_round_empty")]


def test_it_refuses_a_cong_player_in_the_last_round():
    record = four(**PLAYED, chan_ket_3_bich={"player": "B", "last_round": ["A", "C"]})
    assert problems("dem-la-26", record) == [
        ("chan_ket_3_bich.last_round[1]", "cong_in_last_round")
    ]
