"""first_out (đếm lá): cards, cóng ×2, thối, all paid to the winner."""

from __future__ import annotations

from .helpers import four, net, transfers, two


def test_it_scores_the_dem_la_worked_example():
    # B goes out; A holds 5 cards with 2♥, C 8 plain cards, D never played (cóng).
    record = four(
        finish=["B"],
        hands={"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
    )
    assert net("dem-la", record, 5000) == {"A": -75000, "B": 245000, "C": -40000, "D": -130000}
    assert transfers("dem-la", record, 5000) == [
        ("A", "B", 75000, "cards", "5 lá + thối 2♥"),
        ("C", "B", 40000, "cards", "8 lá"),
        ("D", "B", 130000, "cong", "cóng: 13 lá ×2"),
    ]


def test_it_accepts_the_full_finish_order_of_the_rules_example():
    record = {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "opening": False,
        "finish": ["Bình", "An", "Chi", "Dũng"],
        "hands": {
            "An": {"cards": 5, "heo": ["2H"], "3dt": 0, "tq": 0, "4dt": 0},
            "Chi": {"cards": 8},
            "Dũng": {"cards": 13},
        },
        "cong": ["Dũng"],
        "chat": [],
        "toi_trang": None,
        "den": None,
        "ket_3_bich": False,
        "chan_ket_3_bich": None,
    }
    assert net("dem-la", record) == {"An": -15, "Bình": 49, "Chi": -8, "Dũng": -26}


def test_it_makes_a_loser_with_13_cards_cong_without_being_told():
    listed = four(finish=["A"], hands={p: {"cards": 13} for p in "BCD"}, cong=["B", "C", "D"])
    unlisted = four(finish=["A"], hands={p: {"cards": 13} for p in "BCD"})
    assert (
        net("dem-la", listed) == net("dem-la", unlisted) == {"A": 78, "B": -26, "C": -26, "D": -26}
    )


def test_it_makes_a_cong_player_pay_thoi_too():
    record = two(finish=["A"], hands={"B": {"cards": 13, "heo": ["2S", "2D"], "tq": 1}})
    # 13 cards ×2 = 26, plus 2♠ 5 + 2♦ 10 + tứ quý 15.
    assert transfers("dem-la", record) == [
        ("B", "A", 56, "cong", "cóng: 13 lá ×2 + thối 2♠ + 2♦ + tứ quý")
    ]


def test_it_counts_heo_and_hang_cards_as_cards_in_dem_la():
    record = two(finish=["A"], hands={"B": {"cards": 7, "3dt": 1}})
    assert net("dem-la", record) == {"A": 17, "B": -17}  # 7 lá + 10


def test_it_does_not_count_heo_and_hang_cards_as_cards_in_dem_la_26():
    # 9 cards: a 2♥ and a tứ quý (5 cards) priced by the table, 4 plain cards.
    record = two(finish=["A"], hands={"B": {"cards": 9, "heo": ["2H"], "tq": 1}})
    assert transfers("dem-la-26", record) == [
        ("B", "A", 4 + 6 + 8, "cards", "4 lá + thối 2♥ + tứ quý")
    ]


def test_it_calls_a_payment_of_only_thoi_thoi():
    record = two(finish=["A"], hands={"B": {"cards": 2, "heo": ["2C", "2H"]}})
    assert transfers("dem-la-26", record) == [("B", "A", 9, "thoi", "thối 2♣ + 2♥")]


def test_it_doubles_what_a_cong_player_pays_for_plain_cards_in_dem_la_26():
    record = two(finish=["A"], hands={"B": {"cards": 13, "heo": ["2S"]}})
    # 12 plain cards ×2 = 24, plus 2♠ 3.
    assert net("dem-la-26", record) == {"A": 27, "B": -27}


def test_it_counts_every_hang_of_a_hand():
    record = two(finish=["A"], hands={"B": {"cards": 12, "3dt": 2}})
    assert transfers("dem-la", record) == [("B", "A", 32, "cards", "12 lá + thối 2 bộ 3 đôi thông")]
