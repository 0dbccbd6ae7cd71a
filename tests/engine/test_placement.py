"""placement (nhất nhì ba bét): rank values, cóng balanced by the nhất, thối, settlement."""

from __future__ import annotations

from .helpers import four, net, three, transfers, two


def test_it_scores_the_nhat_nhi_ba_bet_worked_example():
    # Order B, A, D, C; C ends holding 2♦ and 2♠: 3 phần thối to B.
    record = four(finish=["B", "A", "D", "C"], hands={"C": {"cards": 2, "heo": ["2D", "2S"]}})
    assert net("nhat-nhi-ba-bet", record) == {"B": 6, "A": 1, "D": -1, "C": -6}


def test_it_lets_the_nhat_balance_one_cong():
    record = four(
        finish=["A", "B", "C", "D"], hands={"C": {"cards": 3}, "D": {"cards": 13}}, cong=["D"]
    )
    assert net("nhat-nhi-ba-bet", record) == {"A": 6, "B": 1, "C": -1, "D": -6}


def test_it_lets_the_nhat_balance_two_cong_with_the_remaining_player_nhi():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"B": {"cards": 4}, "C": {"cards": 13}, "D": {"cards": 13}},
        cong=["C", "D"],
    )
    assert net("nhat-nhi-ba-bet", record) == {"A": 11, "B": 1, "C": -6, "D": -6}


def test_it_settles_lowest_ranked_debtor_to_highest_ranked_creditor_first():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"B": {"cards": 4}, "C": {"cards": 13}, "D": {"cards": 13}},
        cong=["C", "D"],
    )
    assert transfers("nhat-nhi-ba-bet", record) == [
        ("D", "A", 6, "cong", "cóng → nhất"),
        ("C", "A", 5, "cong", "cóng → nhất"),
        ("C", "B", 1, "cong", "cóng → nhì"),
    ]


def test_it_settles_plain_ranks_bet_to_nhat_then_ba_to_nhi():
    record = four(finish=["D", "C", "B", "A"], hands={"A": {"cards": 1}})
    assert transfers("nhat-nhi-ba-bet", record, 1000) == [
        ("A", "D", 3000, "placement", "bét → nhất"),
        ("B", "C", 1000, "placement", "ba → nhì"),
    ]


def test_it_pays_thoi_to_the_player_just_above_in_cuoc():
    # cuoc: bét pays ba. C is bét holding 2♥ (1 cược), D is ba.
    record = four(finish=["A", "B", "D", "C"], hands={"C": {"cards": 2, "heo": ["2H"]}})
    assert transfers("cuoc", record, 2) == [
        ("C", "A", 2, "placement", "bét → nhất"),
        ("D", "B", 1, "placement", "ba → nhì"),
        ("C", "D", 2, "thoi", "thối 2♥"),
    ]


def test_it_makes_a_cong_player_pay_thoi_to_the_nhat_even_when_thoi_goes_above():
    record = four(
        finish=["A", "B", "C", "D"],
        hands={"C": {"cards": 1, "heo": ["2S"]}, "D": {"cards": 13, "tq": 1}},
        cong=["D"],
    )
    result = transfers("diem", record)
    assert ("C", "B", 1, "thoi", "thối 2♠") in result  # bét-ranked non-cóng pays the one above
    assert ("D", "A", 4, "thoi", "thối tứ quý") in result  # cóng pays the nhất


def test_it_scores_three_players():
    record = three(finish=["C", "A", "B"], hands={"B": {"cards": 5}})
    assert net("nhat-nhi-ba-bet", record) == {"C": 3, "A": 0, "B": -3}
    assert net("cuoc", record, 2) == {"C": 2, "A": 0, "B": -2}


def test_it_scores_two_players():
    record = two(finish=["B", "A"], hands={"A": {"cards": 5}})
    assert net("diem", record) == {"B": 3, "A": -3}


def test_it_scores_half_values_exactly():
    record = four(finish=["A", "B", "C", "D"], hands={"D": {"cards": 1}})
    assert net("cuoc", record, 5000) == {"A": 5000, "B": 2500, "C": -2500, "D": -5000}


def test_it_uses_the_cong_score_of_the_rule_set():
    record = four(
        finish=["A", "B", "C", "D"], hands={"C": {"cards": 3}, "D": {"cards": 13}}, cong=["D"]
    )
    # cuoc: cóng −2; B +½, C −½, so A +2.
    assert net("cuoc", record, 2) == {"A": 4, "B": 1, "C": -1, "D": -4}
