"""The "Luật" summary of a sitting: one line for each choice of its rule set that is not the
default, so the table can check what it agreed before the first game."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.cards import DEFAULT_CHOPS
from scoring.engine.rules import CHOPPERS, PenaltyTable, format_amount
from scoring.text.typed import engine_language
from scoring.text.wording import CHOPPER_LABELS, PENALTY_LABELS, preset_unit


def mode_line(rules: engine.RuleSet) -> str:
    if rules.mode == "first_out":
        return _("Đếm lá: dừng khi có người tới")
    return _("Nhất nhì ba bét: chơi đến hết")


def rule_choices(rules: engine.RuleSet) -> list[str]:
    """Every choice of ``rules`` that differs from the default, as a sentence."""
    lines: list[str] = []
    unit = rules.unit  # a preset's unit (lá, cược, điểm): ``preset_unit`` says it for an amount
    if not rules.count_special_cards and rules.mode == "first_out":
        lines.append(_("Heo và hàng không tính là lá rác, chỉ tính theo bảng thối"))
    if rules.thoi_to == "above":
        lines.append(_("Thối trả cho người về ngay trên"))
    if rules.cong_thoi_to == "above":
        lines.append(_("Thối của người cóng trả cho người về ngay trên người cóng"))
    if rules.chat_penalties is not None:
        lines.append(_("Tiền chặt theo bảng riêng"))
    if rules.cong_ca_lang is not None:
        lines.append(
            _("Cóng cả làng: người cóng trả mỗi người %(v)s %(unit)s")
            % {
                "v": format_amount(rules.cong_ca_lang),
                "unit": preset_unit(unit, rules.cong_ca_lang),
            }
        )
    if rules.ket_3_bich is not None:
        lines.append(
            _("Kết 3 bích: mỗi người thua trả %(v)s %(unit)s")
            % {"v": format_amount(rules.ket_3_bich), "unit": preset_unit(unit, rules.ket_3_bich)}
        )
    if rules.ket_3_bich is not None and rules.ket_3_bich_mode == "plus":
        lines.append(_("Kết 3 bích cộng thêm vào tiền lá và thối"))
    if rules.ket_3_bich is not None and rules.chan_ket_keeps_cards:
        lines.append(_("Chặn kết 3 bích: người thua vẫn trả tiền lá và thối cho người nhất"))
    if rules.two_out == "bet":
        if rules.mode == "first_out" and rules.two_out_cards is not None:
            lines.append(
                _("Về bằng heo là về bét, tính như còn %(n)d lá") % {"n": rules.two_out_cards}
            )
        else:
            lines.append(_("Về bằng heo là về bét"))
    if rules.toi_trang_outside_opening:
        lines.append(_("Ván khởi đầu chỉ tính các bài tới trắng của ván khởi đầu"))
    den = {
        "any_cong": _("Đền bài khi có ít nhất một người cóng"),
        "always": _("Đền bài cả khi không ai cóng (vd người để lộ bài)"),
        "never": _("Không chơi đền bài"),
    }
    if rules.den_when in den:
        lines.append(den[rules.den_when])
    counts = rules.toi_trang_counts_thoi
    if counts is True:
        lines.append(_("Tới trắng có đếm heo (mọi bài)"))
    elif isinstance(counts, tuple) and counts:
        lang = engine_language()
        names = ", ".join(engine.hand_label(hand, lang) for hand in counts)
        lines.append(_("Tới trắng có đếm heo chỉ với: %(hands)s") % {"hands": names})
    default_rows = dict(DEFAULT_CHOPS)
    rows = dict(rules.chops)
    for hang, label in CHOPPER_LABELS.items():
        plays = rows.get(hang, ())
        if set(plays) == set(default_rows[hang]):
            continue
        what = ", ".join(name for p, name in engine.PLAYS.items() if p in plays)
        lines.append(f"{label}: {what or _('không gì')}")
    return lines


def _amount(value: Fraction) -> str:
    """An amount as the table says it: ``5``, ``½``, ``1½``, ``−3`` (a true minus sign)."""
    return format_amount(value).replace("-", "−")


def _table(items: list[tuple[str, Fraction]]) -> str:
    return " · ".join(f"{label} {_amount(value)}" for label, value in items)


def _heo(table: PenaltyTable) -> str:
    return _table([(str(PENALTY_LABELS[key]), table[key]) for key in ("2S", "2C", "2D", "2H")])


def _hang(table: PenaltyTable) -> str:
    return _table([(str(PENALTY_LABELS[key]).lower(), table[key]) for key in CHOPPERS])


def price_lines(rules: engine.RuleSet) -> list[str]:
    """What each thing costs at this table, in the rule set's unit: cards (or places), cóng,
    the thối of each heo and hàng, chặt, tới trắng. Every rule set has all of these."""
    unit = rules.unit
    values = {"unit": preset_unit(unit, 1)}  # the unit naming a list of prices: "(card)"
    lines: list[str] = []
    if rules.mode == "first_out":
        lines.append(
            _("Mỗi lá còn lại: %(v)s %(unit)s")
            % {"v": _amount(rules.card_value), "unit": preset_unit(unit, rules.card_value)}
        )
        lines.append(
            _("Cóng: tiền lá × %(m)s") % {"m": _amount(rules.cong_multiplier)},
        )
    else:
        for players in (4, 3, 2):
            ranks = " · ".join(_amount(v) for v in rules.placement(players))
            lines.append(
                _("%(n)d người: %(ranks)s %(unit)s") % {**values, "n": players, "ranks": ranks}
            )
        lines.append(
            _("Cóng: %(v)s %(unit)s")
            % {"v": _amount(rules.cong_score), "unit": preset_unit(unit, rules.cong_score)}
        )
    lines.append(_("Thối heo (%(unit)s): %(prices)s") % {**values, "prices": _heo(rules.penalties)})
    lines.append(
        _("Thối hàng (%(unit)s): %(prices)s") % {**values, "prices": _hang(rules.penalties)}
    )
    chat = rules.chat_penalties
    if chat is None:
        lines.append(_("Chặt: phạt như thối"))
    else:
        lines.append(
            _("Chặt (%(unit)s): %(prices)s") % {**values, "prices": f"{_heo(chat)} · {_hang(chat)}"}
        )
    if rules.toi_trang_hand_values:
        lang = engine_language()
        hands = _table(
            [(engine.hand_label(hand, lang), value) for hand, value in rules.toi_trang_hand_values]
        )
        lines.append(_("Tới trắng (%(unit)s): %(prices)s") % {**values, "prices": hands})
    if rules.toi_trang_value is not None:
        lines.append(
            _("Tới trắng: mỗi người thua trả %(v)s %(unit)s")
            % {
                "v": _amount(rules.toi_trang_value),
                "unit": preset_unit(unit, rules.toi_trang_value),
            }
        )
    return lines


def penalty_summary(rules: engine.RuleSet) -> str:
    """The thối/chặt prices on one line (the rule-set list): heo by suit, then the hàng."""
    return f"{_heo(rules.penalties)} · {_hang(rules.penalties)}"
