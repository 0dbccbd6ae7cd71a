"""The five schemes of docs/rules.md#presets, as shipped (a scorekeeper clones and edits them).

Fields a preset's mode does not use keep the RuleSet defaults, so a clone can switch mode.
"""

from __future__ import annotations

from fractions import Fraction

from .cards import HANDS_A, HANDS_B, HANDS_B_OPENING_ONLY, HANDS_C
from .rules import PenaltyTable, RuleSet

HALF = Fraction(1, 2)


def _f(*values: int | Fraction) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


DEM_LA = RuleSet(
    id="dem-la",
    name="Đếm lá",
    mode="first_out",
    unit="lá",
    card_value=Fraction(1),
    count_special_cards=True,
    cong_multiplier=Fraction(2),
    penalties=PenaltyTable.of(5, 5, 10, 10, 10, 15, 20),
    thoi_to="winner",
    toi_trang_value=Fraction(13),
    toi_trang_hands=HANDS_A,
)

NHAT_NHI_BA_BET = RuleSet(
    id="nhat-nhi-ba-bet",
    name="Nhất nhì ba bét",
    mode="placement",
    unit="phần",
    cong_score=Fraction(-6),
    placement_2=_f(3, -3),
    placement_3=_f(3, 0, -3),
    placement_4=_f(3, 1, -1, -3),
    penalties=PenaltyTable.of(1, 1, 2, 2, 3, 4, 6),
    thoi_to="winner",
    toi_trang_value=Fraction(3),
    toi_trang_hands=HANDS_A,
)

CUOC = RuleSet(
    id="cuoc",
    name="Cược",
    mode="placement",
    unit="cược",
    cong_score=Fraction(-2),
    placement_2=_f(1, -1),
    placement_3=_f(1, 0, -1),
    placement_4=_f(1, HALF, -HALF, -1),
    penalties=PenaltyTable.of(HALF, HALF, 1, 1, 1 + HALF, 2, 2 + HALF),
    thoi_to="above",
    toi_trang_value=Fraction(2),
    toi_trang_hands=HANDS_B,
    toi_trang_opening_only=HANDS_B_OPENING_ONLY,
)

DIEM = RuleSet(
    id="diem",
    name="Điểm",
    mode="placement",
    unit="điểm",
    cong_score=Fraction(-6),
    placement_2=_f(3, -3),
    placement_3=_f(3, 0, -3),
    placement_4=_f(3, 1, -1, -3),
    penalties=PenaltyTable.of(1, 2, 3, 4, 4, 4, 4),
    thoi_to="above",
    toi_trang_value=Fraction(6),
    toi_trang_hands=HANDS_B,
    toi_trang_opening_only=HANDS_B_OPENING_ONLY,
)

DEM_LA_26 = RuleSet(
    id="dem-la-26",
    name="Đếm lá 26 (kết 3 bích)",
    mode="first_out",
    unit="cược",
    card_value=Fraction(1),
    count_special_cards=False,
    cong_multiplier=Fraction(2),
    penalties=PenaltyTable.of(3, 3, 6, 6, 6, 8, 12),
    thoi_to="winner",
    toi_trang_value=None,
    toi_trang_hands=tuple(h for h, _ in HANDS_C),
    toi_trang_hand_values=tuple((h, Fraction(v)) for h, v in HANDS_C),
    ket_3_bich=Fraction(26),
)

#: The shipped presets by id, in the order of the table in docs/rules.md#presets.
PRESETS: dict[str, RuleSet] = {
    rules.id: rules for rules in (DEM_LA, NHAT_NHI_BA_BET, CUOC, DIEM, DEM_LA_26)
}
