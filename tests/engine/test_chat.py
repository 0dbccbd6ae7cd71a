"""Chặt: the last chopped player pays the last chopper every combo chopped in the chain."""

from __future__ import annotations

from dataclasses import replace

from scoring.engine import PRESETS, PenaltyTable, legal_chops

from .helpers import four, net, transfers

PLAIN_END = {"finish": ["A"], "hands": {"B": {"cards": 1}, "C": {"cards": 1}, "D": {"cards": 1}}}


def chain(*steps, victim_out=False):
    return {"steps": list(steps), "victim_out": victim_out}


def test_it_scores_the_chat_chong_example():
    # A plays 2♥, C chops with 3 đôi thông, D chops C with tứ quý: C pays D 10 + 10.
    record = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "A", "play": "heo", "cards": ["2H"]},
                {"player": "C", "play": "3dt"},
                {"player": "D", "play": "tq", "top": "9H"},
            )
        ],
    )
    chat = [t for t in transfers("dem-la", record) if t[3] == "chat"]
    assert chat == [("C", "D", 20, "chat", "chặt chồng: 2♥ + 3 đôi thông")]


def test_it_makes_the_chopped_player_pay_the_chopper():
    record = four(
        **PLAIN_END,
        chat=[
            chain({"player": "B", "play": "heo", "cards": ["2S"]}, {"player": "C", "play": "3dt"})
        ],
    )
    assert ("B", "C", 5, "chat", "chặt: 2♠") in transfers("dem-la", record)


def test_it_prices_doi_heo_as_its_two_heo():
    record = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "B", "play": "doi_heo", "cards": ["2C", "2D"]},
                {"player": "C", "play": "tq"},
            )
        ],
    )
    assert ("B", "C", 15, "chat", "chặt: đôi heo 2♣ 2♦") in transfers("dem-la", record)


def test_it_charges_nothing_when_the_chopped_player_went_out_with_it():
    record = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "B", "play": "heo", "cards": ["2S"]},
                {"player": "A", "play": "3dt"},
                {"player": "B", "play": "tq"},
                {"player": "A", "play": "4dt"},
                victim_out=False,
            )
        ],
    )
    assert ("B", "A", 5 + 10 + 15, "chat", "chặt chồng: 2♠ + 3 đôi thông + tứ quý") in transfers(
        "dem-la", record
    )
    out = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "C", "play": "heo", "cards": ["2S"]},
                {"player": "A", "play": "tq"},
                {"player": "B", "play": "4dt"},
                victim_out=True,  # A went out with the tứ quý that B chopped
            )
        ],
    )
    assert [t for t in transfers("dem-la", out) if t[3] == "chat"] == []


def test_it_moves_chain_money_only_between_the_last_two_players():
    base = four(**PLAIN_END)
    with_chain = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "A", "play": "heo", "cards": ["2H"]},
                {"player": "C", "play": "3dt"},
                {"player": "D", "play": "tq"},
            )
        ],
    )
    before, after = net("dem-la", base), net("dem-la", with_chain)
    assert {p: after[p] - before[p] for p in before} == {"A": 0, "B": 0, "C": -20, "D": 20}


def test_it_uses_a_separate_chat_table_when_the_rule_set_has_one():
    rules = replace(PRESETS["dem-la"], id="x", chat_penalties=PenaltyTable.of(1, 2, 3, 4, 5, 6, 7))
    record = four(
        **PLAIN_END,
        chat=[
            chain(
                {"player": "B", "play": "heo", "cards": ["2H"]},
                {"player": "C", "play": "3dt"},
                {"player": "D", "play": "4dt"},
            )
        ],
    )
    assert ("C", "D", 4 + 5, "chat", "chặt chồng: 2♥ + 3 đôi thông") in transfers(rules, record)
    # thối still uses the thối table
    thoi = four(
        finish=["A"], hands={"B": {"cards": 1, "heo": ["2H"]}, "C": {"cards": 1}, "D": {"cards": 1}}
    )
    assert ("B", "A", 11, "cards", "1 lá + thối 2♥") in transfers(rules, thoi)


def test_it_pays_chat_in_placement_too():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"D": {"cards": 2}},
        chat=[
            chain(
                {"player": "D", "play": "tq", "top": "5H"},
                {"player": "B", "play": "tq", "top": "KH"},
            )
        ],
    )
    assert ("D", "B", 4, "chat", "chặt: tứ quý") in transfers("nhat-nhi-ba-bet", record)


def test_it_knows_which_plays_chop_which():
    assert legal_chops("heo") == {"3dt", "tq", "4dt"}
    assert legal_chops("doi_heo") == {"tq", "4dt"}
    assert legal_chops("3dt") == {"3dt", "tq", "4dt"}
    assert legal_chops("tq") == {"tq", "4dt"}
    assert legal_chops("4dt") == {"4dt"}
    assert legal_chops("ba_heo") == set()
