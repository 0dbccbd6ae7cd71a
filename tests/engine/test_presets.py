"""Every row of the preset table (docs/rules.md#presets), as shipped and as paid."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import PRESETS, check_rules

from .helpers import net, transfers, two

H = Fraction(1, 2)
# The table of docs/rules.md#presets, column by column.
TABLE = {
    "dem-la": dict(mode="first_out", unit="lá", card=1, counts=True, cong=2,
                   p4=None, p3=None, p2=None, pen=(5, 5, 10, 10, 10, 15, 20),
                   thoi_to="winner", toi=13, ket=None),
    "nhat-nhi-ba-bet": dict(mode="placement", unit="phần", cong=-6, p4=(3, 1, -1, -3),
                            p3=(3, 0, -3), p2=(3, -3), pen=(1, 1, 2, 2, 3, 4, 6),
                            thoi_to="winner", toi=3, ket=None),
    "cuoc": dict(mode="placement", unit="cược", cong=-2, p4=(1, H, -H, -1), p3=(1, 0, -1),
                 p2=(1, -1), pen=(H, H, 1, 1, 1 + H, 2, 2 + H), thoi_to="above", toi=2,
                 ket=None),
    "diem": dict(mode="placement", unit="điểm", cong=-6, p4=(3, 1, -1, -3), p3=(3, 0, -3),
                 p2=(3, -3), pen=(1, 2, 3, 4, 4, 4, 4), thoi_to="above", toi=6, ket=None),
    "dem-la-26": dict(mode="first_out", unit="cược", card=1, counts=False, cong=2,
                      pen=(3, 3, 6, 6, 6, 8, 12), thoi_to="winner", toi=None, ket=26),
}  # fmt: skip
KEYS = ("2S", "2C", "2D", "2H", "3dt", "tq", "4dt")
ITEM = {  # a hand holding just that item, and how many cards it takes
    "2S": {"heo": ["2S"]},
    "2C": {"heo": ["2C"]},
    "2D": {"heo": ["2D"]},
    "2H": {"heo": ["2H"]},
    "3dt": {"3dt": 1},
    "tq": {"tq": 1},
    "4dt": {"4dt": 1},
}
SIZE = {"2S": 1, "2C": 1, "2D": 1, "2H": 1, "3dt": 6, "tq": 4, "4dt": 8}
STAKE = 2  # whole đồng for every ½ value


def test_it_ships_the_five_presets_with_vietnamese_names():
    assert list(PRESETS) == ["dem-la", "nhat-nhi-ba-bet", "cuoc", "diem", "dem-la-26"]
    assert [p.name for p in PRESETS.values()] == [
        "Đếm lá",
        "Nhất nhì ba bét",
        "Cược",
        "Điểm",
        "Đếm lá 26 (kết 3 bích)",
    ]
    for preset_id, rules in PRESETS.items():
        assert rules.id == preset_id
        assert check_rules(rules) == []
        hash(rules)


@pytest.mark.parametrize("preset", TABLE)
def test_it_holds_the_table_values(preset):
    rules, row = PRESETS[preset], TABLE[preset]
    assert rules.mode == row["mode"]
    assert rules.unit == row["unit"]
    assert tuple(rules.penalties[k] for k in KEYS) == row["pen"]
    assert rules.chat_penalties is None  # chặt: same as thối
    assert rules.thoi_to == row["thoi_to"]
    assert rules.toi_trang_value == row["toi"]
    assert rules.ket_3_bich == row["ket"]
    assert rules.cong_ca_lang is None
    if row["mode"] == "first_out":
        assert rules.card_value == row["card"]
        assert rules.count_special_cards is row["counts"]
        assert rules.cong_multiplier == row["cong"]
    else:
        assert rules.cong_score == row["cong"]
        assert (rules.placement_4, rules.placement_3, rules.placement_2) == (
            row["p4"],
            row["p3"],
            row["p2"],
        )


@pytest.mark.parametrize("preset", TABLE)
@pytest.mark.parametrize("key", KEYS)
def test_it_charges_each_thoi_value_of_the_table(preset, key):
    row = TABLE[preset]
    cards = SIZE[key] + 1  # one plain card as well
    record = two(finish=["A", "B"], hands={"B": {"cards": cards, **ITEM[key]}})
    thoi = [t for t in transfers(preset, record, STAKE) if "thối" in t[4]]
    assert len(thoi) == 1
    payer, payee, amount, _reason, _detail = thoi[0]
    assert (payer, payee) == ("B", "A")  # bét pays nhất, who is also the one just above
    plain = (cards if row.get("counts") else 1) if row["mode"] == "first_out" else 0
    assert amount == (plain + row["pen"][KEYS.index(key)]) * STAKE


@pytest.mark.parametrize("preset", TABLE)
@pytest.mark.parametrize("key", ["2S", "2C", "2D", "2H", "3dt", "tq"])
def test_it_charges_each_chat_value_of_the_table(preset, key):
    first = (
        {"player": "B", "play": "heo", "cards": [key]}
        if key.startswith("2")
        else {"player": "B", "play": key}
    )
    record = two(
        finish=["A", "B"],
        hands={"B": {"cards": 1}},
        chat=[{"steps": [first, {"player": "A", "play": "4dt"}]}],
    )
    chat = [t for t in transfers(preset, record, STAKE) if t[3] == "chat"]
    assert [(t[0], t[1], t[2]) for t in chat] == [
        ("B", "A", TABLE[preset]["pen"][KEYS.index(key)] * STAKE)
    ]


def test_it_charges_the_4dt_chat_value_of_the_table():
    for preset, row in TABLE.items():
        record = two(
            finish=["A", "B"],
            hands={"B": {"cards": 1}},
            chat=[
                {
                    "steps": [
                        {"player": "B", "play": "4dt", "top": "7H"},
                        {"player": "A", "play": "4dt", "top": "9H"},
                    ]
                }
            ],
        )
        assert net(preset, record, STAKE)["A"] - net(preset, {**record, "chat": []}, STAKE)[
            "A"
        ] == (row["pen"][6] * STAKE)


@pytest.mark.parametrize("preset", ["nhat-nhi-ba-bet", "cuoc", "diem"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_pays_each_placement_value_of_the_table(preset, players):
    names = ["A", "B", "C", "D"][:players]
    record = {"players": names, "finish": names, "hands": {names[-1]: {"cards": 1}}}
    values = TABLE[preset][f"p{players}"]
    assert net(preset, record, STAKE) == {p: v * STAKE for p, v in zip(names, values, strict=True)}


@pytest.mark.parametrize("preset", ["nhat-nhi-ba-bet", "cuoc", "diem"])
def test_it_pays_the_cong_score_of_the_table(preset):
    record = two(finish=["A", "B"], hands={"B": {"cards": 13}}, cong=["B"])
    assert net(preset, record, STAKE) == {
        "A": -TABLE[preset]["cong"] * STAKE,
        "B": TABLE[preset]["cong"] * STAKE,
    }


@pytest.mark.parametrize("preset", ["dem-la", "dem-la-26"])
def test_it_doubles_the_cards_of_a_cong_player(preset):
    record = two(finish=["A"], hands={"B": {"cards": 13}})
    assert net(preset, record) == {"A": 26, "B": -26}


def test_it_pays_26_for_ket_3_bich_only_in_dem_la_26():
    record = two(finish=["A"], hands={"B": {"cards": 4}}, ket_3_bich=True)
    assert net("dem-la-26", record) == {"A": 26, "B": -26}
