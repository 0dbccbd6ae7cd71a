"""The night as plain text, for the "Chia sẻ" button of the settle-up pages.

What a table pastes into Zalo or Messenger at the end of a sitting (or of a group's period):
a title line, each player's total, the payments already made (and whether the payee has said
"đã nhận"), the payments still to make and the live link. Plain text
only (a chat shows no markup): one line per item, amounts written by ``scoring.text.money.vnd``,
names as typed. Written in the active language, like the page the button is on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.ledger.balances import Suggestion
from scoring.models import Settlement
from scoring.text.money import vnd


def signed(amount: int) -> str:
    """245000 -> "+245.000 ₫"; a loss keeps vnd's minus sign; nothing is "0 ₫"."""
    return f"+{vnd(amount)}" if amount > 0 else vnd(amount)


def night_text(
    title: str,
    totals_heading: str,
    totals: Iterable[tuple[str, int]],
    plan: Sequence[Suggestion],
    live_url: str | None,
    paid: Sequence[Settlement] = (),
) -> str:
    """The text shared: ``title``, then ``totals`` (name, amount) under ``totals_heading``,
    then the payments already made (``paid``, standing ones, oldest first) and whether each
    was confirmed, then what is left to pay (``plan``) or that nobody owes anybody, then the
    live link when there is one."""
    left = _("Còn cần chuyển:") if paid else _("Cần chuyển:")
    settled = _("Đã trả xong: không ai còn nợ ai.") if paid else _("Không ai còn nợ ai.")
    lines = _results(title, totals_heading, totals)
    return "\n".join(lines + _payments(paid, plan, left, settled, live_url))


def _ranked(totals: Iterable[tuple[str, int]]) -> list[str]:
    """One line per (name, amount), largest first, as a table reads a result."""
    ranked = sorted(totals, key=lambda item: (-item[1], item[0]))
    return [f"• {name}: {signed(amount)}" for name, amount in ranked]


def _results(title: str, heading: str, totals: Iterable[tuple[str, int]]) -> list[str]:
    return [title, "", heading, *(_ranked(totals) or ["• " + _("Chưa có ai chơi.")]), ""]


def _payments(
    paid: Sequence[Settlement],
    plan: Sequence[Suggestion],
    left: str,
    settled: str,
    live_url: str | None,
) -> list[str]:
    """The payments made, then what is left under ``left`` (or ``settled``), then the link."""
    lines = [_("Đã trả:"), *map(paid_line, paid), ""] if paid else []
    if plan:
        lines += [left, *(f"• {s.payer.name} → {s.payee.name}: {vnd(s.amount)}" for s in plan)]
    else:
        lines.append(settled)
    if live_url:
        lines += ["", _("Xem trực tiếp: %(url)s") % {"url": live_url}]
    return lines


def _sitting_title(sitting: Any) -> str:
    return _("Sổ Tiến Lên · %(name)s · %(day)s") % {
        "name": sitting.name,
        "day": date_format(sitting.date, "SHORT_DATE_FORMAT"),
    }


def paid_line(settlement: Settlement) -> str:
    """One payment made: who handed whom how much, and whether the payee said "đã nhận"."""
    line = f"• {settlement.payer.name} → {settlement.payee.name}: {vnd(settlement.amount)}"
    if settlement.confirmed_at is not None:
        return line + " · " + _("%(name)s đã nhận") % {"name": settlement.payee.name}
    return line + " · " + _("%(name)s chưa xác nhận") % {"name": settlement.payee.name}


def sitting_text(
    sitting: Any,
    rows: Iterable[Any],
    plan: Sequence[Suggestion],
    live_url: str | None,
    paid: Sequence[Settlement] = (),
) -> str:
    """A sitting's night: what each player's games came to, what was paid, what is left."""
    totals = [(row.player.name, row.games) for row in rows]
    return night_text(_sitting_title(sitting), _("Kết quả các ván:"), totals, plan, live_url, paid)


def group_text(
    group: Any,
    rows: Iterable[Any],
    plan: Sequence[Suggestion],
    live_url: str | None,
    paid: Sequence[Settlement] = (),
    *,
    earlier: bool = False,
) -> str:
    """A group's standing: each player's result before the payments of the open period
    (what was carried in included), those payments, and the plan for what is left. With
    ``earlier`` (older payments of the period stand than the ``paid`` named), the results
    are before the payments named, the older ones counted in them."""
    title = _("Sổ Tiến Lên · %(name)s") % {"name": group.label}
    if paid:
        moved: dict[int, int] = defaultdict(int)
        for settlement in paid:  # handing money over moves the payer's balance up
            moved[settlement.payer_id] += settlement.amount
            moved[settlement.payee_id] -= settlement.amount
        totals = [(row.player.name, row.balance - moved[row.player.pk]) for row in rows]
        heading = _("Kết quả (chưa trừ các khoản đã trả):")
        if earlier:
            heading = ngettext(
                "Kết quả, trước %(n)d khoản trả gần nhất (các khoản trước đó đã tính vào):",
                "Kết quả, trước %(n)d khoản trả gần nhất (các khoản trước đó đã tính vào):",
                len(paid),
            ) % {"n": len(paid)}
        return night_text(title, heading, totals, plan, live_url, paid)
    totals = [(row.player.name, row.balance) for row in rows]
    return night_text(title, _("Số dư cả nhóm:"), totals, plan, live_url)


def table_in_group_text(
    sitting: Any,
    table_rows: Iterable[Any],
    group_rows: Iterable[Any],
    plan: Sequence[Suggestion],
    live_url: str | None,
    paid: Sequence[Settlement] = (),
    *,
    carried_through: date | None = None,
) -> str:
    """A table of a group: what each player's games came to tonight, the balances carried
    into the group's open period (from the close through ``carried_through``), the payments
    made and what is left to pay in the group: the table's settle-up is the group's."""
    totals = [(row.player.name, row.games) for row in table_rows]
    lines = _results(_sitting_title(sitting), _("Kết quả các ván:"), totals)
    if carried_through is not None:
        lines.append(
            _("Số dư mang sang (chốt sổ đến hết ngày %(d)s):")
            % {"d": date_format(carried_through, "SHORT_DATE_FORMAT")}
        )
        lines += [*_ranked((row.player.name, row.opening) for row in group_rows if row.opening), ""]
    group = {"group": sitting.group.label}
    left = _("Còn cần chuyển trong nhóm %(group)s:") % group
    settled = _("Cả nhóm %(group)s: không ai còn nợ ai.") % group
    return "\n".join(lines + _payments(paid, plan, left, settled, live_url))
