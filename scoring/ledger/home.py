"""The home page's "what needs me": tonight's open sittings, each group's open balances, the
payments waiting for "đã nhận" that the user can confirm (as a scorekeeper of the payee's
sitting or group). Invitations are ``services.pending_for``.

A bounded number of queries: one for the sittings, one for the payments, and four per group
(``GroupLedger.load``) for at most ``MAX_GROUPS`` groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from scoring.access import groups_for, sittings_for
from scoring.ledger.periods import tonight_since
from scoring.ledger.standing import GroupLedger
from scoring.models import Group, Player, Settlement, Sitting

MAX_GROUPS = 10
MAX_WAITING = 20


@dataclass(frozen=True)
class OpenBalances:
    """A group with people still owing or owed: each such person and their balance, the
    biggest first, and the total still to hand over."""

    group: Group
    rows: list[tuple[Player, int]]
    outstanding: int


def tonight(user: Any, *, now: datetime | None = None) -> list[Sitting]:
    """Tonight's sittings (``periods.tonight_since``: an evening runs past midnight, not
    into the next evening), newest first."""
    return list(
        sittings_for(user)
        .filter(date__gte=tonight_since(now))
        .select_related("owner")
        .order_by("-date", "-id")[:10]
    )


def open_balances(user: Any) -> list[OpenBalances]:
    out = []
    for group in groups_for(user).select_related("owner")[:MAX_GROUPS]:
        ledger = GroupLedger.load(group)
        rows = sorted(
            ((row.player, row.balance) for row in ledger.rows() if row.balance),
            key=lambda item: (-abs(item[1]), item[0].name),
        )
        if rows:
            out.append(OpenBalances(group, rows, sum(b for _p, b in rows if b > 0)))
    return out


def waiting_for(user: Any) -> list[Settlement]:
    """Payments recorded as paid, not yet confirmed, that ``user`` may confirm."""
    mine = Q(sitting__in=sittings_for(user).values("pk")) | Q(
        group__in=groups_for(user).values("pk")
    )
    return list(
        Settlement.objects.awaiting()
        .filter(mine)
        .select_related("payer", "payee", "sitting", "group__owner")
        .order_by("-created_at", "-id")[:MAX_WAITING]
    )
