"""A group's read-only live link (balances, tonight's sitting, who pays whom) and its history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from scoring.ledger.balances import BalanceRow, Suggestion
from scoring.ledger.periods import tonight
from scoring.ledger.standing import GroupLedger, ledger_version
from scoring.models import Group, GroupHistoryEntry, Sitting

# --- The group's live link and history --------------------------------------------------


def group_for_live_token(token: str) -> Group | None:
    """The group whose read-only link this is (None: no such link, or it was revoked)."""
    if not token:
        return None
    return Group.objects.filter(live_token=token).first()


@dataclass(frozen=True)
class LiveGroup:
    """What a player checks on the way home: current balances, the sitting being played (if
    any) and the suggested payments. ``version`` is the ETag (``ledger_version``)."""

    group: Group
    version: str
    rows: list[BalanceRow]
    suggestions: list[Suggestion]
    open_sitting: Sitting | None


def live_view(group: Group, *, now: datetime | None = None) -> LiveGroup:
    """The group's live page data in a constant number of queries. The open sitting is
    tonight's (``periods.tonight``)."""
    ledger = GroupLedger.load(group)
    return LiveGroup(
        group=group,
        version=ledger_version(group),
        rows=ledger.rows(),
        suggestions=ledger.suggested(),
        open_sitting=tonight(group, now),
    )


def history(group: Group, *, limit: int = 200) -> QuerySet[GroupHistoryEntry]:
    """The group's audit trail, newest first."""
    return group.history.select_related("user", "sitting", "settlement", "period")[:limit]
