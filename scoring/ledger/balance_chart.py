"""A group's balances drawn over time: each player's balance after each sitting of a range,
or after each week, month, quarter or year of a long one."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime

from django.db.models import Count, F, Max, Min, Q, Sum
from django.db.models.functions import TruncMonth, TruncQuarter, TruncWeek, TruncYear
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.ledger import charts
from scoring.ledger.standing import GroupLedger
from scoring.models import (
    Player,
    Settlement,
    Sitting,
    SittingTotal,
    settlements_in_period,
    sittings_in_period,
)

# --- Chart ------------------------------------------------------------------------------


# Past this many sittings in the range, the balance chart sums them by week, or by month,
# quarter or year, whichever first gives at most this many points: a chart over five years of
# weekly play stays as light as one over a month.
CHART_POINTS = 24


def balance_series(
    ledger: GroupLedger, player_ids: Iterable[int] | None = None
) -> tuple[list[str], dict[str, list[int]]]:
    """Each player's group balance after each sitting of the range (settlements counted on
    their day), oldest first, for ``charts.line_chart``: x labels and one series per player
    (only ``player_ids`` when given), starting from the opening balance. Past
    ``CHART_POINTS`` sittings, after each week or month instead (``_bucket_series``)."""
    wanted = None if player_ids is None else set(player_ids)
    players = [p for p in ledger.unmerged if wanted is None or p.pk in wanted]
    span = Sitting.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut), group=ledger.group
    ).aggregate(n=Count("id"), first=Min("date"), last=Max("date"))
    if span["n"] > CHART_POINTS:
        bucket = _bucket(span["first"], span["last"])
        return _bucket_series(ledger, players, bucket, only=wanted is not None)
    running = {p.pk: ledger.opening.get(p.pk, 0) for p in players}
    pending = list(ledger.settlements)
    days: list[date] = []
    series: dict[str, list[int]] = {p.name: [] for p in players}
    for s in ledger.sittings:
        while pending and pending[0].day <= s.date:  # type: ignore[attr-defined]
            _apply_settlement(running, pending.pop(0))
        for player_id, total in s.totals.items():
            running[player_id] = running.get(player_id, 0) + total
        days.append(s.date)
        for p in players:
            series[p.name].append(running.get(p.pk, 0))
    if pending and days:
        for settlement in pending:
            _apply_settlement(running, settlement)
        days.append(pending[-1].day)  # type: ignore[attr-defined]
        for p in players:
            series[p.name].append(running.get(p.pk, 0))
    return charts.date_labels(days), series


Bucket = type[TruncWeek] | type[TruncMonth] | type[TruncQuarter] | type[TruncYear]


def _bucket(first: date, last: date) -> Bucket:
    """The shortest of a week, a month, a quarter and a year that cuts ``first`` to ``last``
    into at most ``CHART_POINTS`` pieces."""
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    if (last - first).days // 7 + 1 <= CHART_POINTS:
        return TruncWeek
    if months <= CHART_POINTS:
        return TruncMonth
    if months // 3 + 1 <= CHART_POINTS:
        return TruncQuarter
    return TruncYear


def _bucket_series(
    ledger: GroupLedger, players: list[Player], trunc: Bucket, *, only: bool = False
) -> tuple[list[str], dict[str, list[int]]]:
    """Each player's balance at the end of each week (or month) of the range that holds a
    sitting or a settlement (``trunc``: its first day), from the stored totals and the
    group-wide settlements summed in SQL by week: two queries, one row per week (or month…)
    and player. ``only``: of ``players`` alone (a statement's chart sums one player's rows,
    not the whole group's)."""
    moves: dict[date, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    totals = SittingTotal.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut, via="sitting__"),
        sitting__group=ledger.group,
    )
    ids = [p.pk for p in players]
    if only:
        totals = totals.filter(player_id__in=ids)
    for bucket, player_id, amount in (
        totals.annotate(bucket=trunc("sitting__date"))
        .values_list("bucket", "player_id")
        .annotate(amount=Sum(F("net") + F("paid") - F("received")))
        .order_by()
    ):
        moves[_day(bucket)][player_id] += amount
    wide = Settlement.objects.standing().filter(
        settlements_in_period(ledger.start, ledger.end, ledger.cut), group=ledger.group
    )
    if only:
        wide = wide.filter(Q(payer_id__in=ids) | Q(payee_id__in=ids))
    for bucket, payer_id, payee_id, amount in (
        wide.annotate(bucket=trunc("date"))
        .values_list("bucket", "payer_id", "payee_id")
        .annotate(amount=Sum("amount"))
        .order_by()
    ):
        moves[_day(bucket)][payer_id] += amount
        moves[_day(bucket)][payee_id] -= amount
    running = {p.pk: ledger.opening.get(p.pk, 0) for p in players}
    series: dict[str, list[int]] = {p.name: [] for p in players}
    days = sorted(moves)
    for day in days:
        for p in players:
            running[p.pk] += moves[day].get(p.pk, 0)
            series[p.name].append(running[p.pk])
    if trunc is TruncWeek:
        return charts.date_labels(days), series
    return charts.month_labels(days, "Y" if trunc is TruncYear else "m/Y"), series


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _apply_settlement(running: dict[int, int], settlement: Settlement) -> None:
    running[settlement.payer_id] = running.get(settlement.payer_id, 0) + settlement.amount
    running[settlement.payee_id] = running.get(settlement.payee_id, 0) - settlement.amount


def chart_svg(ledger: GroupLedger, player: Player | None = None) -> str:
    """The balances over the ledger's range drawn (``charts.line_chart``): of everyone whose
    balance moved, or of ``player`` alone."""
    if player is None:
        labels, series = balance_series(ledger)
        series = {name: values for name, values in series.items() if any(values)}
    else:
        labels, everyone = balance_series(ledger, [player.pk])
        mine = everyone.get(player.name, [])
        series = {player.name: mine} if mine else {}
    svg = charts.line_chart(
        series if labels else {},
        x_labels=labels if labels and series else None,
        title=_("Số dư qua các bàn"),
        empty_text=_("Chưa có bàn nào"),
    )
    return mark_safe(svg)  # charts.py escapes every name and label it draws
