"""The night as plain text, for the "Chia sẻ" button of the settle-up pages.

What a table pastes into Zalo or Messenger at the end of a sitting (or of a group's period):
a title line, each player's total, the payments still to make and the live link. Plain text
only (a chat shows no markup): one line per item, amounts written by ``scoring.moneytext.vnd``,
names as typed. Written in the active language, like the page the button is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.ledger.balances import Suggestion
from scoring.moneytext import vnd


def signed(amount: int) -> str:
    """245000 -> "+245.000 ₫"; a loss keeps vnd's minus sign; nothing is "0 ₫"."""
    return f"+{vnd(amount)}" if amount > 0 else vnd(amount)


def night_text(
    title: str,
    totals_heading: str,
    totals: Iterable[tuple[str, int]],
    plan: Sequence[Suggestion],
    live_url: str | None,
) -> str:
    """The text shared: ``title``, then ``totals`` (name, amount) under ``totals_heading``
    (largest first, as a table reads a result), then the payments of ``plan`` or that nobody
    owes anybody, then the live link when there is one."""
    lines = [title, "", totals_heading]
    ranked = sorted(totals, key=lambda item: (-item[1], item[0]))
    lines += [f"• {name}: {signed(amount)}" for name, amount in ranked]
    if not ranked:
        lines.append("• " + _("Chưa có ai chơi."))
    lines.append("")
    if plan:
        lines.append(_("Cần chuyển:"))
        lines += [f"• {s.payer.name} → {s.payee.name}: {vnd(s.amount)}" for s in plan]
    else:
        lines.append(_("Không ai còn nợ ai."))
    if live_url:
        lines += ["", _("Xem trực tiếp: %(url)s") % {"url": live_url}]
    return "\n".join(lines)


def sitting_text(
    sitting: Any, rows: Iterable[dict[str, Any]], plan: Sequence[Suggestion], live_url: str | None
) -> str:
    """A sitting's night: what each player's games came to, and what is left to pay."""
    title = _("Sổ Tiến Lên · %(name)s · %(day)s") % {
        "name": sitting.name,
        "day": date_format(sitting.date, "SHORT_DATE_FORMAT"),
    }
    totals = [(row["player"].name, row["games"]) for row in rows]
    return night_text(title, _("Kết quả các ván:"), totals, plan, live_url)


def group_text(
    group: Any, rows: Iterable[dict[str, Any]], plan: Sequence[Suggestion], live_url: str | None
) -> str:
    """A group's standing: each player's balance (payments made taken off), and the plan."""
    title = _("Sổ Tiến Lên · %(name)s") % {"name": group.label}
    totals = [(row["player"].name, row["balance"]) for row in rows]
    return night_text(title, _("Số dư cả nhóm:"), totals, plan, live_url)
