"""A group's page: its standing over the period asked for, the latest sittings of that period,
tonight's table, the closes and the balance chart, in one page model (``group_page``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import User

from scoring.ledger.balance_chart import chart_svg
from scoring.ledger.balances import BalanceRow
from scoring.ledger.checks import group_disagreeing
from scoring.ledger.periods import (
    Period,
    close_label,
    latest_open_sitting,
    load_period,
    more_query,
    period_choices,
    period_count,
    period_query,
    period_sittings,
    tonight,
)
from scoring.ledger.shown import MOST_SHOWN
from scoring.models import BookCheck, Group, PeriodClose, Player, Sitting


@dataclass(frozen=True)
class GroupPage:
    """Everything a group's page shows (``groups/group.html``, which gets it as
    ``page``): the balances over the period asked for, that period's latest sittings (those
    a close locked marked), tonight's table unless a close locked it, what "close tonight"
    offers, the closes, the scorekeepers and the chart."""

    group: Group
    is_owner: bool
    tonight: Sitting | None
    close_label: str
    disagrees: BookCheck | None
    closed_last_day: list[Sitting]
    closed_earlier: int
    locked_ids: set[int]
    rows: list[BalanceRow]
    period: Period
    period_query: str
    period_choices: list[tuple[str, str]]
    show_opening: bool
    closed: PeriodClose | None
    sittings: list[Sitting]
    sittings_in_period: int
    older_sittings: int
    more_sittings_query: str
    sitting_count: int
    players: list[Player]
    scorekeepers: list[User]
    chart: str
    closes: list[PeriodClose]  # the latest ten, undone ones too
    undoable: PeriodClose | None  # the one close "Huỷ chốt" can undo: the latest standing


def group_page(
    group: Group,
    *,
    user_id: int,
    key: str,
    start: date | None,
    end: date | None,
    today: date,
    shown: int,
    step: int,
) -> GroupPage:
    """The page of ``group`` for the account ``user_id`` over the period ``key`` from
    ``start`` to ``end`` (``forms.pages.period_asked``) on ``today``, with its latest
    ``shown`` sittings (``step`` more on request)."""
    ledger, period = load_period(group, key, start, end)
    sittings = period_sittings(group, period, limit=shown)
    in_period = len(sittings) if len(sittings) < shown else period_count(group, period)
    close = ledger.close

    def locked(sitting: Sitting) -> bool:
        return close is not None and close.covers_sitting(sitting.date, sitting.pk)

    tonights = tonight(group)
    closable = latest_open_sitting(group)
    closed_last_day: list[Sitting] = []
    closed_earlier = 0
    if close is not None:
        covered = group.sittings.filter(close.sittings_covered())
        closed_last_day = list(covered.filter(date=close.closes_through).order_by("id"))
        closed_earlier = covered.count() - len(closed_last_day)
    more = in_period > len(sittings) and shown < MOST_SHOWN
    closes = list(group.period_closes.select_related("created_by", "through_sitting")[:10])
    return GroupPage(
        group=group,
        is_owner=group.owner_id == user_id,
        # Tonight's sitting (or last night's, for an evening past midnight), one tap away;
        # a locked one is not being played: it is listed under the close instead.
        tonight=tonights if tonights is not None and not locked(tonights) else None,
        close_label=close_label(closable.date, closable, today) if closable else "",
        disagrees=group_disagreeing(group),
        closed_last_day=closed_last_day,
        closed_earlier=closed_earlier,
        locked_ids={s.pk for s in sittings if locked(s)},
        rows=ledger.rows(),
        period=period,
        period_query=period_query(period),
        period_choices=period_choices(),
        show_opening=period.start is not None,
        closed=close,
        sittings=sittings,
        sittings_in_period=in_period,
        older_sittings=in_period - len(sittings),
        more_sittings_query=more_query(period, "sittings", shown, step) if more else "",
        sitting_count=group.sittings.count(),
        players=ledger.unmerged,
        scorekeepers=list(group.scorekeepers.order_by("username")),
        chart=chart_svg(ledger),
        closes=closes,
        undoable=next((c for c in closes if c.undone_at is None), None),
    )
