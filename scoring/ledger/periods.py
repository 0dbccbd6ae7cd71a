"""The periods a group's pages show (``?period=``) and closing one: which sittings fall in a
period, tonight's sitting, the names a new table offers, and what a close would carry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from scoring.ledger.shown import MOST_SHOWN
from scoring.ledger.standing import GroupLedger, close_covering, last_close, opens_on
from scoring.models import Group, PeriodClose, Player, Sitting, sittings_in_period

# A page's period (``?period=``): the open period (since the last close, its opening balance
# carried), this week, this month, every day, or a range of the page's own.
PERIODS = ("open", "week", "month", "all", "custom")


@dataclass(frozen=True)
class Period:
    """The period a page shows: its key (one of ``PERIODS``) and its first and last day as
    shown (None: open-ended on that side; ``start`` None also for every day)."""

    key: str
    start: date | None
    end: date | None
    # The open period after a close: the close's last day (its first day may be that same
    # day, for a table opened after the close), what the page says instead of a first day.
    after_close: date | None = None
    # That close: which sittings of its last day are in the period (``sittings_in_period``).
    cut: PeriodClose | None = field(default=None, compare=False)

    def query(self) -> dict[str, str]:
        """The period as a page's query string holds it (``?period=``, and the days of a
        range of its own)."""
        params = {"period": self.key}
        if self.key == "custom":
            if self.start:
                params["start"] = self.start.isoformat()
            if self.end:
                params["end"] = self.end.isoformat()
        return params


def period_key(asked: str | None) -> str:
    """The period a page asks for, the open period when it asks for none or for no known one."""
    return asked if asked and asked in PERIODS else "open"


def period_range(
    key: str, today: date, custom: tuple[date | None, date | None] | None = None
) -> tuple[date | None, date | None]:
    """The first and last day of the period ``key`` on ``today``: ``start`` None for the open
    period (since the last close, which the ledger reads) and ``date.min`` for every day.
    ``custom`` is a range of the page's own, None when what was typed is not a range (every
    day is shown then)."""
    if key == "week":
        return today - timedelta(days=today.weekday()), None
    if key == "month":
        return today.replace(day=1), None
    if key == "all":
        return date.min, None
    if key == "custom":
        if custom is None:
            return date.min, None
        return custom[0] or date.min, custom[1]
    return None, None


def load_period(
    group: Group, key: str, start: date | None, end: date | None
) -> tuple[GroupLedger, Period]:
    """The group's ledger over a period (``period_range``), and the period as the page shows
    it: the open period starts at the last close, every day has no start."""
    ledger = GroupLedger.load(group, start=start, end=end)
    return ledger, shown_period(key, start, end, ledger.close)


def shown_period(
    key: str, start: date | None, end: date | None, close: PeriodClose | None
) -> Period:
    """The period as pages show it, from what was asked (``period_range``) and the group's
    last close (``last_close``): the open period (``start`` None) begins the day after the
    close's last, every day (``date.min``) has no first day."""
    if start is None and close is not None:
        return Period(key, opens_on(close), end, close.closes_through, close)
    return Period(key, start if start != date.min else None, end)


def _period_query(group: Group, period: Period) -> QuerySet[Sitting]:
    """The group's sittings inside ``period`` (the open period after a close: those the
    close does not cover)."""
    return group.sittings.filter(sittings_in_period(period.start, period.end, period.cut))


def period_sittings(group: Group, period: Period, *, limit: int) -> list[Sitting]:
    """The group's sittings dated inside ``period``, newest first, at most ``limit``."""
    return list(_period_query(group, period).order_by("-date", "-id")[:limit])


def period_count(group: Group, period: Period) -> int:
    """How many of the group's sittings are dated inside ``period`` (one query)."""
    return int(_period_query(group, period).count())


# An evening runs past midnight: until this hour (local time), last night's tables are still
# tonight's; from it on, tonight is today's tables only (at 19:35 yesterday's are not).
NIGHT_ENDS_HOUR = 6


def tonight_since(now: datetime | None = None) -> date:
    """The first day whose tables are tonight's at ``now`` (local time, now when None):
    yesterday before ``NIGHT_ENDS_HOUR``, today from it on. The one rule for "Tối nay" (the
    home page, a group's page and live link, the close's words)."""
    local = timezone.localtime(now)
    day = local.date()
    return day - timedelta(days=1) if local.hour < NIGHT_ENDS_HOUR else day


def tonight(group: Group, now: datetime | None = None) -> Sitting | None:
    """Tonight's sitting (``tonight_since``): the newest one dated since."""
    since = tonight_since(now)
    return group.sittings.filter(date__gte=since).order_by("-date", "-id").first()


def seating_names(group: Group, last: Sitting | None, *, limit: int = 40) -> list[str]:
    """The names a new table of the group offers: ``last``'s players in their seating order,
    then the group's other players by name (merged records left out), at most ``limit``."""
    seated: list[str] = []
    if last is not None:
        seated = list(
            last.memberships.filter(player__in=Player.objects.unmerged())
            .order_by("position")
            .values_list("player__name", flat=True)
        )
    others = (
        Player.objects.unmerged()
        .filter(group=group)
        .exclude(name__in=seated)
        .order_by("name", "id")
        .values_list("name", flat=True)
    )
    return (seated + list(others))[:limit]


def sitting_counts(groups: Iterable[Group]) -> dict[int, int]:
    """How many sittings each of ``groups`` holds, by group id (one query)."""
    return dict(
        Sitting.objects.filter(group__in=list(groups))
        .values("group_id")
        .annotate(n=Count("id"))
        .values_list("group_id", "n")
    )


def latest_open_sitting(group: Group) -> Sitting | None:
    """The group's latest sitting (by date, then as opened) if no close covers it yet: what
    "close tonight" offers to close through."""
    latest = group.sittings.order_by("-date", "-id").first()
    if latest is None or close_covering(latest) is not None:
        return None
    return latest


@dataclass(frozen=True)
class ClosePreview:
    """What closing the period through ``day`` (through ``sitting`` on it, or its last
    sitting as it stands) would do: each player's balance carried into the new period, the
    sittings it would lock that are not locked yet (newest first) and how many there are."""

    day: date
    sitting: Sitting | None
    carried: list[tuple[Player, int]]
    locks: list[Sitting]
    frozen: int
    closed: PeriodClose | None


def close_preview(
    group: Group, day: date, sitting: Sitting | None = None, *, listed: int = 20
) -> ClosePreview:
    if sitting is not None:
        day = sitting.date
        last_id: int | None = sitting.pk
    else:
        last_id = (
            group.sittings.filter(date=day).order_by("-id").values_list("id", flat=True).first()
        )
    closed = last_close(group)
    closing = PeriodClose(
        group=group, closes_through=day, through_sitting_id=last_id, created_at=timezone.now()
    )
    ledger = GroupLedger.load(group, closing=closing)
    carried = [(p, ledger.opening.get(p.pk, 0)) for p in ledger.unmerged]
    locks = group.sittings.filter(closing.sittings_covered()).order_by("-date", "-id")
    if closed is not None:
        locks = locks.filter(closed.sittings_after())
    return ClosePreview(
        day=day,
        sitting=sitting,
        carried=carried,
        locks=list(locks[:listed]),
        frozen=locks.count(),
        closed=closed,
    )


# --- How a page names and links a period ------------------------------------------------


def period_choices() -> list[tuple[str, str]]:
    """The periods a page offers (``_periods.html``), with their names."""
    return [
        ("open", _("Kỳ đang mở")),
        ("week", _("Tuần này")),
        ("month", _("Tháng này")),
        ("all", _("Mọi lúc")),
    ]


def period_query(period: Period) -> str:
    return urlencode(period.query())


def more_query(period: Period, key: str, shown: int, step: int) -> str:
    """The query string of the same page showing ``step`` more of its ``key`` list (the
    period kept)."""
    query: dict[str, str | int] = {**period.query(), key: min(shown + step, MOST_SHOWN)}
    return urlencode(query)


def close_label(day: date, sitting: Sitting | None, today: date) -> str:
    """What the close button says: tonight's close names its table."""
    d = date_format(day, "SHORT_DATE_FORMAT")
    if sitting is None:
        return _("Chốt sổ đến hết ngày %(d)s") % {"d": d}
    if tonight_since() <= day <= today:
        return _("Chốt sổ đến hết tối nay (bàn %(s)s)") % {"s": sitting.name}
    return _("Chốt sổ đến hết ngày %(d)s (bàn %(s)s)") % {"d": d, "s": sitting.name}
