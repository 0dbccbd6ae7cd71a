"""Reading a group's standing ledger: balances across its sittings, settle-up, statements.

A player's group balance is the sum over the group's sittings of their totals (active games,
current revisions, as ``ledger.game_totals``) minus the settlements that stand: those of
each sitting and those recorded for the group as a whole. Positive means they are owed.

Everything is aggregated in SQL: loading a group's ledger costs the same handful of queries
whether it has 5 sittings or 500 (see ``GroupLedger.load``). Dates: a sitting and its own
settlements count on the sitting's date, a group-wide settlement on its ``date``.

A closed period (``PeriodClose``) changes no amount: it only says where the current period
starts, so its opening balance is everything before the close, carried and shown as such.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Max, Min, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, TruncMonth, TruncQuarter, TruncWeek, TruncYear
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import charts, csvfile, settle, vietqr
from scoring.ledger.balances import BANKER, MIN, Suggestion, suggestions
from scoring.ledger.balances import METHODS as METHODS  # the same plans as a sitting's
from scoring.ledger.balances import PLAYED as PLAYED  # the same plans as a sitting's
from scoring.models import (
    Group,
    GroupHistoryEntry,
    Payment,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    SettlementQuerySet,
    Sitting,
    SittingFlow,
    SittingTotal,
    settlements_in_period,
    sittings_in_period,
)
from scoring.stats import export_stats


class TooManyToMinimise(ValueError):
    """The exact fewest payments were asked for more people than ``settle.MAX_EXACT_PEOPLE``
    (a read refused, nothing to write); ``message`` says so, for the page."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- Periods ----------------------------------------------------------------------------


def standing_closes(group: Group) -> QuerySet[PeriodClose]:
    """The period closes not undone, newest first."""
    return PeriodClose.objects.filter(group=group, undone_at__isnull=True).order_by(
        "-closes_through", "-id"
    )


def last_close(group: Group) -> PeriodClose | None:
    return standing_closes(group).first()


def close_covering(sitting: Sitting) -> PeriodClose | None:
    """The standing close a sitting is dated inside of (it is read-only: the writes
    ``services.refuse_if_frozen`` refuses), or None. For a page to leave those writes out."""
    close = last_close(Group(pk=sitting.group_id))
    return close if close is not None and close.covers_sitting(sitting.date, sitting.pk) else None


def settlement_closed(close: PeriodClose | None, settlement: Settlement) -> bool:
    """Whether a settlement counts inside the closed period: a sitting's own as its sitting
    does, a group-wide one by its date (on the last day, if recorded before the close)."""
    if close is None:
        return False
    if settlement.sitting_id is not None:
        sitting = settlement.sitting
        assert sitting is not None
        return close.covers_sitting(sitting.date, sitting.pk)
    assert settlement.date is not None
    return close.covers_settlement(settlement.date, settlement.created_at)


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
    key = asked or "open"
    return key if key in PERIODS else "open"


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
    shown = ledger.start if ledger.start != date.min else None
    after = ledger.close.closes_through if start is None and ledger.close is not None else None
    return ledger, Period(key, shown, end, after, ledger.cut)


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


def tonight(group: Group, today: date | None = None) -> Sitting | None:
    """Tonight's sitting (or last night's, for an evening past midnight): the newest one dated
    today or yesterday."""
    yesterday = (today or timezone.localdate()) - timedelta(days=1)
    return group.sittings.filter(date__gte=yesterday).order_by("-date", "-id").first()


def seating_names(group: Group, last: Sitting | None, *, limit: int = 40) -> list[str]:
    """The names a new table of the group offers: ``last``'s players in their seating order,
    then the group's other players by name (merged records left out), at most ``limit``."""
    seated: list[str] = []
    if last is not None:
        seated = list(
            last.memberships.filter(player__merged_into=None)
            .order_by("position")
            .values_list("player__name", flat=True)
        )
    others = (
        Player.objects.filter(group=group, merged_into=None)
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
    carried = [(p, ledger.opening.get(p.pk, 0)) for p in ledger.players if p.merged_into_id is None]
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


def ledger_version(group: Group) -> str:
    """A stamp that changes with every change to the group or any of its sittings (what a
    group settlement's ``expected_version`` and a live page's ETag compare), in one query."""
    row = Sitting.objects.filter(group=group).aggregate(
        total=Coalesce(Sum("version"), 0), n=Count("id"), last=Coalesce(Max("id"), 0)
    )
    version = Group.objects.filter(pk=group.pk).values_list("version", flat=True).first() or 0
    return f"{version}.{row['total']}.{row['n']}.{row['last']}"


# --- Raw rows (each one query) ----------------------------------------------------------


def _keep(parts: Mapping[str, object]) -> None:
    """Keep what was read once the transaction it was read in has committed: a write that
    rolls back gives its version number to the next write, which must not find these. The
    versions are read before what they key, so a kept value is never older than its key."""
    transaction.on_commit(lambda: cache.set_many(dict(parts), PART_SECONDS))


# What ``sitting_games`` keeps in the cache (best-effort, ``scoring.cache_backend``) is filed
# under the sitting's id, creation time and version: every write to a sitting's games moves
# its version, so a kept value is never out of date, only unused.
PART_SECONDS = 14 * 24 * 3600


def _stamp(created: Any, version: int) -> str:
    """What tells one state of a sitting from every other: its creation time and version."""
    return f"{created.timestamp():.6f}:{version}"


def _before(field_name: str, opening: Q | None) -> Any:
    """The part of a sum in the opening balance (``opening``; nothing when it is None)."""
    if opening is None:
        return Value(0)
    return Coalesce(Sum(field_name, filter=opening), 0)


def _opening(close: PeriodClose | None, start: date | None) -> Q | None:
    """What of a sitting's rows goes into the opening balance: what ``close`` covers, or
    what is dated before ``start``."""
    if close is not None:
        return close.sittings_covered("sitting__")
    if start is None or start == date.min:
        return None
    return Q(sitting__date__lt=start)


def _opening_wide(close: PeriodClose | None, start: date | None) -> Q | None:
    """The same for group-wide settlements (``PeriodClose.covers_settlement``)."""
    if close is not None:
        covered = Q(date__lt=close.closes_through)
        if close.created_at is not None:
            covered |= Q(date=close.closes_through, created_at__lte=close.created_at)
        return covered
    if start is None or start == date.min:
        return None
    return Q(date__lt=start)


def _nonzero(amounts: Mapping[int, int]) -> dict[int, int]:
    return {pk: amount for pk, amount in amounts.items() if amount}


def group_settlements(group: Group) -> SettlementQuerySet:
    """Every settlement that counts in the group (standing or not): its sittings' own and the
    group-wide ones, each annotated with ``day`` (the date it counts on)."""
    return (
        Settlement.objects.filter(Q(group=group) | Q(sitting__group=group))
        .annotate(day=Coalesce("date", "sitting__date"))
        .select_related("payer", "payee", "sitting")
        .order_by("day", "created_at", "id")
    )


def _sitting_results(
    group: Group, start: date | None, end: date | None, cut: PeriodClose | None = None
) -> list[SittingResult]:
    """The group's sittings of the range, oldest first, each with its players' stored totals
    (those who played a counted game there): two queries. With ``cut`` (the open period),
    the sittings the close does not cover (``sittings_in_period``)."""
    found = Sitting.objects.filter(sittings_in_period(start, end, cut), group=group)
    rows = SittingTotal.objects.filter(
        sittings_in_period(start, end, cut, via="sitting__"), sitting__group=group, games__gt=0
    )
    sittings = list(
        found.order_by("date", "id").values_list("id", "name", "date", "created_at", "version")
    )
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    played: dict[int, dict[int, int]] = defaultdict(dict)
    for sitting_id, player_id, net, games in rows.values_list(
        "sitting_id", "player_id", "net", "games"
    ):
        totals[sitting_id][player_id] = net
        played[sitting_id][player_id] = games
    return [
        SittingResult(pk, name, day, totals[pk], played[pk], _stamp(created, version))
        for pk, name, day, created, version in sittings
    ]


# --- The ledger -------------------------------------------------------------------------


@dataclass(frozen=True)
class SittingResult:
    """One sitting of the group with each player's total in it."""

    sitting_id: int
    name: str
    date: date
    totals: dict[int, int]
    played: dict[int, int] = field(default_factory=dict)  # player id -> counted games
    stamp: str = ""  # the sitting's state (``_stamp``)


@dataclass
class GroupLedger:
    """A group's players, balances and settlements, loaded once for a page.

    ``opening`` is what was carried in from before ``start`` (from the last period close when
    no ``start`` is given), ``games`` and ``settled`` what happened inside the range, and
    ``balances`` = opening + games + settled. With ``end`` set, later rows are left out.

    Every figure is a sum of the sittings' stored totals (``SittingTotal``) and of the
    group-wide settlements, added up in SQL: a load costs the same few queries and reads one
    row per player, whatever the number of sittings. The sittings and settlements of the
    range themselves (``sittings``, ``settlements``) are read only when asked for.
    """

    group: Group
    players: list[Player]
    opening: dict[int, int]
    games: dict[int, int]
    settled: dict[int, int]
    start: date | None
    end: date | None
    close: PeriodClose | None
    # Inside the range, what each player handed over and what each was handed, never netted:
    # paid 40 000 and received 30 000 is not "paid 10 000".
    paid: dict[int, int] = field(default_factory=dict)
    received: dict[int, int] = field(default_factory=dict)
    # The open period's close when the ledger is of the open period: its last day is shared
    # with the new period (a table opened after the close counts in the new one).
    cut: PeriodClose | None = None
    balances: dict[int, int] = field(init=False)
    by_id: dict[int, Player] = field(init=False)
    _sittings: list[SittingResult] | None = field(default=None, init=False, repr=False)
    _settlements: list[Settlement] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {p.pk: p for p in self.players}
        self.balances = {
            p.pk: self.opening.get(p.pk, 0) + self.games.get(p.pk, 0) + self.settled.get(p.pk, 0)
            for p in self.players
        }

    @classmethod
    def load(
        cls,
        group: Group,
        *,
        start: date | None = None,
        end: date | None = None,
        closing: PeriodClose | None = None,
    ) -> GroupLedger:
        """Four queries, however many sittings: the last period close, the players, the
        sittings' stored totals summed per player (before the range and inside it), and the
        group-wide settlements summed per pair. ``closing``: a close not made yet, to see what
        it would carry.

        With no ``start``, the open period is what the last close does not cover (a table
        opened on the close's last day after it included); ``start`` is then the first day
        after the close's, for what reads by days."""
        close = closing or last_close(group)
        cut = close if start is None else None
        if cut is not None:
            start = cut.closes_through + timedelta(days=1)
        sittings_before = _opening(cut, start)
        wide_before = _opening_wide(cut, start)
        players = list(group.players.all().order_by("name", "id"))
        known = {p.pk for p in players}
        opening: dict[int, int] = defaultdict(int)
        games: dict[int, int] = defaultdict(int)
        settled: dict[int, int] = defaultdict(int)
        paid: dict[int, int] = defaultdict(int)
        received: dict[int, int] = defaultdict(int)
        totals = SittingTotal.objects.filter(sitting__group=group)
        if end is not None:
            totals = totals.filter(sitting__date__lte=end)
        for player_id, net, net0, gave, gave0, got, got0 in (
            totals.values_list("player_id")
            .annotate(
                net_all=Sum("net"),
                net0=_before("net", sittings_before),
                gave=Sum("paid"),
                gave0=_before("paid", sittings_before),
                got=Sum("received"),
                got0=_before("received", sittings_before),
            )
            .order_by()
        ):
            opening[player_id] += net0 + gave0 - got0
            games[player_id] += net - net0
            # Handing money over settles a debt: the payer's balance goes up, the payee's down.
            settled[player_id] += (gave - gave0) - (got - got0)
            paid[player_id] += gave - gave0
            received[player_id] += got - got0
        wide = Settlement.objects.standing().filter(group=group)
        if end is not None:
            wide = wide.filter(date__lte=end)
        for payer_id, payee_id, amount, amount0 in (
            wide.values_list("payer_id", "payee_id")
            .annotate(amount_all=Sum("amount"), amount0=_before("amount", wide_before))
            .order_by()
        ):
            opening[payer_id] += amount0
            opening[payee_id] -= amount0
            settled[payer_id] += amount - amount0
            settled[payee_id] -= amount - amount0
            paid[payer_id] += amount - amount0
            received[payee_id] += amount - amount0
        stray = (set(opening) | set(games) | set(settled)) - known
        if stray:  # a player of another group in one of ours (should not happen): show them
            players += list(Player.objects.filter(pk__in=stray))
        return cls(
            group, players, dict(opening), dict(games), dict(settled),
            start, end, close, _nonzero(paid), _nonzero(received), cut,
        )  # fmt: skip

    @property
    def sittings(self) -> list[SittingResult]:
        """The sittings of the range, oldest first, with each player's total (read once, on
        first use: two queries, one row per sitting and player)."""
        if self._sittings is None:
            self._sittings = _sitting_results(self.group, self.start, self.end, self.cut)
        return self._sittings

    @property
    def settlements(self) -> list[Settlement]:
        """The settlements standing inside the range, by the day they count on (read once,
        on first use)."""
        if self._settlements is None:
            inside = settlements_in_period(self.start, self.end, self.cut)
            self._settlements = list(group_settlements(self.group).standing().filter(inside))
        return self._settlements

    @property
    def by_name(self) -> dict[str, int]:
        """Balances by name, what ``scoring.settle`` works on (names are unique in a group)."""
        return {
            p.name: self.balances.get(p.pk, 0) for p in self.players if p.merged_into_id is None
        }

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name and p.merged_into_id is None)

    def rows(self) -> list[dict[str, Any]]:
        """One row per player who has anything in the group (merged records left out)."""
        return [
            {
                "player": p,
                "opening": self.opening.get(p.pk, 0),
                "games": self.games.get(p.pk, 0),
                "settled": self.settled.get(p.pk, 0),
                "paid": self.paid.get(p.pk, 0),
                "received": self.received.get(p.pk, 0),
                "balance": self.balances.get(p.pk, 0),
            }
            for p in self.players
            if p.merged_into_id is None
        ]

    def pair_nets(self) -> dict[tuple[str, str], int]:
        """What each person owes each other person across the group's sittings (game payments,
        less settlements between the two), for the "as played" plan. Covers the same range as
        the balances (opening included). Two queries, one row per pair: the sittings' stored
        flows and the settlements, summed."""
        names = {p.pk: p.name for p in self.players}
        nets: dict[tuple[str, str], int] = defaultdict(int)
        flows = SittingFlow.objects.filter(sitting__group=self.group)
        settlements = group_settlements(self.group).standing()
        if self.end is not None:
            flows = flows.filter(sitting__date__lte=self.end)
            settlements = settlements.filter(
                Q(date__lte=self.end) | Q(date__isnull=True, sitting__date__lte=self.end)
            )
        for payer_id, payee_id, total in (
            flows.values_list("payer_id", "payee_id").annotate(total=Sum("amount")).order_by()
        ):
            nets[names[payer_id], names[payee_id]] += total
        for payer_id, payee_id, total in (
            settlements.values_list("payer_id", "payee_id").annotate(total=Sum("amount")).order_by()
        ):
            nets[names[payee_id], names[payer_id]] += total
        return dict(nets)

    def plan(self, method: str = MIN, banker: Player | None = None) -> list[Suggestion]:
        """The settle-up plan over the balances: ``MIN`` the exact fewest payments (the
        sitting's algorithm, ``settle.min_payments``), ``PLAYED`` one payment per pair who
        played each other, ``BANKER`` everyone through ``banker``."""
        named = self.by_name
        if method == MIN and not self.can_minimise:
            raise TooManyToMinimise(
                _(
                    "%(n)d người còn nợ hoặc được nợ: quá nhiều để tính số lần trả ít nhất "
                    "(tối đa %(max)d). Hãy thanh toán qua một người giữ tiền."
                )
                % {"n": self.people_to_settle, "max": settle.MAX_EXACT_PEOPLE}
            )
        return suggestions(named, method, banker, self.pair_nets, self.player)

    @property
    def people_to_settle(self) -> int:
        return sum(1 for amount in self.by_name.values() if amount)

    @property
    def can_minimise(self) -> bool:
        """Whether the exact minimum can be computed (``settle.MAX_EXACT_PEOPLE``): a group
        may gather more people than one table; past that, offer the banker's plan."""
        return self.people_to_settle <= settle.MAX_EXACT_PEOPLE

    def suggested(self) -> list[Suggestion]:
        """The exact minimum when it can be computed, otherwise through the default banker."""
        if self.can_minimise:
            return self.plan(MIN)
        return self.plan(BANKER, self.default_banker())

    def default_banker(self) -> Player | None:
        """Whoever is owed the most: making them the banker saves one transfer."""
        candidates = [p for p in self.players if p.merged_into_id is None]
        if not candidates:
            return None
        return max(candidates, key=lambda p: (self.balances.get(p.pk, 0), -p.pk))


def plan_offered(
    ledger: GroupLedger, method: str, banker: Player | None
) -> tuple[list[Suggestion], bool]:
    """The plan a settle-up page offers, and whether the exact minimum was given up for too
    many people (``TooManyToMinimise``): then it is the plan through the default banker."""
    try:
        return ledger.plan(method, banker), False
    except ValueError:  # too many people for the exact minimum
        return ledger.plan(BANKER, ledger.default_banker()), True


def recent_settlements(group: Group, *, limit: int) -> list[Settlement]:
    """The group-wide settlements, voided ones included, newest first, at most ``limit``."""
    return list(
        group.settlements.select_related("payer", "payee", "created_by").order_by(
            "-created_at", "-id"
        )[:limit]
    )


def closed_ids(settlements: Iterable[Settlement], close: PeriodClose | None) -> set[int]:
    """Those of the group-wide ``settlements`` dated inside the closed period (no void)."""
    return {s.pk for s in settlements if s.date and settlement_closed(close, s)}


def has_bank(player: Player) -> bool:
    """Whether a VietQR code can be made for paying ``player`` (a known bank and an account)."""
    return bool(player.bank_account) and vietqr.bank_by_bin(player.bank_bin or "") is not None


def _group_payments(group: Group) -> QuerySet[Payment]:
    return Payment.objects.counted().filter(game__sitting__group=group)


def balances(group: Group, *, start: date | None = None, end: date | None = None) -> dict[int, int]:
    """Each player's group balance (player id -> đồng, + is owed) over the range."""
    return GroupLedger.load(group, start=start, end=end).balances


# --- Explaining a suggestion ------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One game's part in a number: the sitting, the game and the revision that counts."""

    sitting_id: int
    sitting_name: str
    date: date
    number: int
    revision: int
    amount: int  # + means towards the payee of the suggestion


@dataclass(frozen=True)
class SittingLine:
    sitting_id: int
    name: str
    date: date
    payer_total: int
    payee_total: int
    between: int  # what the payer owes the payee from this sitting's games (+) or the reverse
    games: list[GameLine]


@dataclass(frozen=True)
class Explanation:
    """Why ``payer`` pays ``payee``: each one's balance down to sittings and settlements, and
    every game in which the two paid each other."""

    payer: Player
    payee: Player
    payer_balance: int
    payee_balance: int
    opening: tuple[int, int]
    sittings: list[SittingLine]
    settlements: list[Settlement]


def explain(
    group: Group,
    payer: Player,
    payee: Player,
    *,
    start: date | None = None,
    end: date | None = None,
    ledger: GroupLedger | None = None,
) -> Explanation:
    """A suggested payment explained, as the sitting's pair page does, across sittings: the
    two balances per sitting and every game between the two (one query besides the
    ledger's)."""
    ledger = ledger or GroupLedger.load(group, start=start, end=end)
    between = Q(payer=payer, payee=payee) | Q(payer=payee, payee=payer)
    rows = (
        _group_payments(group)
        .filter(between)
        .values(
            "game__sitting_id", "game__number", "game__revision", "payer_id"
        )
        .annotate(total=Sum("amount"))
        .order_by("game__sitting_id", "game__number")
    )  # fmt: skip
    by_sitting: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for row in rows:
        sign = 1 if row["payer_id"] == payer.pk else -1
        by_sitting[row["game__sitting_id"]].append(
            (row["game__number"], row["game__revision"], sign * row["total"])
        )
    lines = []
    for s in ledger.sittings:
        games = [
            GameLine(s.sitting_id, s.name, s.date, number, revision, amount)
            for number, revision, amount in _merge_games(by_sitting.get(s.sitting_id, []))
        ]
        p, q = s.totals.get(payer.pk, 0), s.totals.get(payee.pk, 0)
        if not (p or q or games):
            continue
        lines.append(
            SittingLine(s.sitting_id, s.name, s.date, p, q, sum(g.amount for g in games), games)
        )
    touching = [s for s in ledger.settlements if {s.payer_id, s.payee_id} & {payer.pk, payee.pk}]
    return Explanation(
        payer=payer,
        payee=payee,
        payer_balance=ledger.balances.get(payer.pk, 0),
        payee_balance=ledger.balances.get(payee.pk, 0),
        opening=(ledger.opening.get(payer.pk, 0), ledger.opening.get(payee.pk, 0)),
        sittings=lines,
        settlements=touching,
    )


@dataclass(frozen=True)
class Explained(Suggestion):
    """A suggested payment with its explanation down to sittings and games."""

    why: Explanation

    @property
    def paid(self) -> list[tuple[Settlement, int | None, int | None]]:
        """The settlements in the explanation, with what each did to the payer's and the
        payee's balance (paying raises one's balance, receiving lowers it)."""

        def effect(settlement: Settlement, player: Player) -> int | None:
            if settlement.payer_id == player.pk:
                return int(settlement.amount)
            if settlement.payee_id == player.pk:
                return -int(settlement.amount)
            return None

        return [(st, effect(st, self.payer), effect(st, self.payee)) for st in self.why.settlements]


def explained(group: Group, payer: Player, payee: Player) -> Explained:
    """Why the standing ledger has ``payer`` pay ``payee`` (the settle-up's "Vì sao?")."""
    why = explain(group, payer, payee, ledger=GroupLedger.load(group))
    return Explained(payer, payee, 0, [], why)


def _merge_games(rows: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    merged: dict[tuple[int, int], int] = defaultdict(int)
    for number, revision, amount in rows:
        merged[number, revision] += amount
    return [(n, r, a) for (n, r), a in sorted(merged.items()) if a]


# --- Statements -------------------------------------------------------------------------


OPENING, SITTING, SETTLEMENT = "opening", "sitting", "settlement"


@dataclass(frozen=True)
class StatementGame:
    number: int
    revision: int
    net: int


@dataclass
class StatementRow:
    """One line of a player's statement: the opening balance carried in, a sitting's result
    or a settlement."""

    kind: str
    date: date | None
    amount: int
    running: int = 0
    sitting_id: int | None = None
    sitting_name: str = ""
    game_count: int = 0  # every counted game of the player in the sitting
    settlement: Settlement | None = None
    other: Player | None = None  # the other side of a settlement

    @property
    def label(self) -> str:
        if self.kind == SITTING:
            return self.sitting_name
        if self.kind == SETTLEMENT and self.settlement is not None:
            return f"{self.settlement.payer} → {self.settlement.payee}"
        return ""


def sitting_games(
    group: Group, player: Player, sitting: Sitting, first: int
) -> tuple[list[StatementGame], int]:
    """The player's first ``first`` counted games of ``sitting`` (one of ``group``'s), by
    number, and how many counted games they have there (its stored total): what a statement's
    "Từng ván" opens. The games are kept in the cache under the sitting's state and the
    player; ``sitting`` must be freshly read, its version first."""
    stamp = _stamp(sitting.created_at, sitting.version)
    count = (
        SittingTotal.objects.filter(sitting=sitting, player=player)
        .values_list("games", flat=True)
        .first()
    )
    key = f"group-games:{sitting.pk}:{stamp}:{player.pk}:{first}"
    games: list[tuple[int, int, int]] | None = cache.get(key)
    if games is None:
        seats = Seat.objects.counted().filter(game__sitting=sitting, player=player)
        games = list(
            seats.order_by("game__number").values_list("game__number", "game__revision", "net")[
                :first
            ]
        )
        _keep({key: games})
    return [StatementGame(*g) for g in games], count or 0


def statement(
    group: Group,
    player: Player,
    *,
    start: date | None = None,
    end: date | None = None,
    ledger: GroupLedger | None = None,
    limit: int | None = None,
) -> list[StatementRow]:
    """The player's statement in the group: the opening balance (when anything came before
    the range), then each sitting's result (with how many games the player has there; the
    games themselves are ``sitting_games``) and each settlement by date, with the running
    balance; the last row's running balance is the group balance.

    With ``limit``, only the latest ``limit`` lines (no opening row), their running balances
    counted back from the balance: what a page shows first (``statement_summary``). Two
    queries besides the ledger's, each reading at most ``limit`` rows."""
    ledger = ledger or GroupLedger.load(group, start=start, end=end)
    mine, paid = _statement_rows(group, player, ledger)
    mine = mine.order_by("-sitting__date", "-sitting_id")
    paid = paid.order_by("-day", "-created_at", "-id")
    sittings = mine.values_list("sitting_id", "sitting__name", "sitting__date", "net", "games")
    settlements = list(paid if limit is None else paid[:limit])
    dated: list[tuple[tuple[Any, ...], StatementRow]] = []
    for sitting_id, name, day, net, games in sittings if limit is None else sittings[:limit]:
        row = StatementRow(
            SITTING, day, net, sitting_id=sitting_id, sitting_name=name, game_count=games
        )
        dated.append(((day, 0, sitting_id), row))
    for settlement in settlements:
        gave = settlement.payer_id == player.pk
        day = settlement.day
        row = StatementRow(
            SETTLEMENT,
            day,
            settlement.amount if gave else -settlement.amount,
            sitting_id=settlement.sitting_id,
            sitting_name=settlement.sitting.name if settlement.sitting else "",
            settlement=settlement,
            other=settlement.payee if gave else settlement.payer,
        )
        dated.append(((day, 1, settlement.created_at, settlement.pk), row))
    dated.sort(key=lambda item: item[0])
    rows = [row for _key, row in dated]
    if limit is not None:
        rows = rows[-limit:] if limit > 0 else []
        running = ledger.balances.get(player.pk, 0)
        for row in reversed(rows):
            row.running = running
            running -= row.amount
        return rows
    opening = ledger.opening.get(player.pk, 0)
    if ledger.start is not None:
        rows.insert(0, StatementRow(OPENING, ledger.start, opening))
    running = 0
    for row in rows:
        running += row.amount
        row.running = running
    return rows


@dataclass(frozen=True)
class StatementSummary:
    """A player's statement over the period a page shows (``start``, None when it has no
    start): the opening balance carried in, the lines of the period (the latest ones, with
    ``older`` more before them when the page shows only some) and their totals, from the
    stored totals whatever the lines shown."""

    player: Player
    start: date | None
    opening: int
    lines: list[StatementRow]
    closing: int
    games_total: int
    settled_total: int
    older: int = 0

    @property
    def before_shown(self) -> int:
        """The balance before the first line shown."""
        if not self.lines:
            return self.closing
        return self.lines[0].running - self.lines[0].amount

    def download_rows(self) -> list[dict[str, Any]]:
        """The statement as the CSV and JSON downloads hold it (``statement_line``), the
        opening balance first when the period has a start."""
        lines = list(self.lines)
        if self.start:
            lines.insert(0, StatementRow(OPENING, self.start, self.opening, self.opening))
        return [statement_line(self.player, line) for line in lines]


def statement_summary(
    group: Group,
    player: Player,
    ledger: GroupLedger,
    period: Period,
    *,
    limit: int | None = None,
) -> StatementSummary:
    """The player's statement over ``ledger``'s range (``statement``), its opening balance
    apart from its lines, for a page showing ``period``: every line, or the latest ``limit``
    (two more queries count the rest)."""
    opening = ledger.opening.get(player.pk, 0) if ledger.start is not None else 0
    lines = statement(group, player, ledger=ledger, limit=limit)
    if lines and lines[0].kind == OPENING:
        opening = lines.pop(0).amount
    older = 0
    if limit is not None and len(lines) == limit:
        older = _statement_lines(group, player, ledger) - len(lines)
    return StatementSummary(
        player,
        period.start,
        opening,
        lines,
        closing=ledger.balances.get(player.pk, 0),
        games_total=ledger.games.get(player.pk, 0),
        settled_total=ledger.settled.get(player.pk, 0),
        older=older,
    )


def _statement_rows(
    group: Group, player: Player, ledger: GroupLedger
) -> tuple[QuerySet[SittingTotal], Any]:
    """The rows of the player's statement over ``ledger``'s range: their totals in the
    sittings of the range they played in, and the settlements of the range they are in
    (each with its ``day``, ``group_settlements``)."""
    mine = SittingTotal.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut, via="sitting__"),
        sitting__group=group,
        player=player,
        games__gt=0,
    )
    paid = (
        group_settlements(group)
        .standing()
        .filter(
            settlements_in_period(ledger.start, ledger.end, ledger.cut),
            Q(payer=player) | Q(payee=player),
        )
    )
    return mine, paid


def _statement_lines(group: Group, player: Player, ledger: GroupLedger) -> int:
    """How many lines the player's statement over ``ledger``'s range has: two counts."""
    mine, paid = _statement_rows(group, player, ledger)
    return int(mine.count()) + int(paid.count())


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
    players = [
        p for p in ledger.players if p.merged_into_id is None and (wanted is None or p.pk in wanted)
    ]
    span = Sitting.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut), group=ledger.group
    ).aggregate(n=Count("id"), first=Min("date"), last=Max("date"))
    if span["n"] > CHART_POINTS:
        return _bucket_series(ledger, players, _bucket(span["first"], span["last"]))
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
    ledger: GroupLedger, players: list[Player], trunc: Bucket
) -> tuple[list[str], dict[str, list[int]]]:
    """Each player's balance at the end of each week (or month) of the range that holds a
    sitting or a settlement (``trunc``: its first day), from the stored totals and the
    group-wide settlements summed in SQL by week: two queries, one row per week (or month…)
    and player."""
    moves: dict[date, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    totals = SittingTotal.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut, via="sitting__"),
        sitting__group=ledger.group,
    )
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


# --- Export -----------------------------------------------------------------------------

EXPORT_VERSION = 1


def export_dict(group: Group) -> dict[str, Any]:
    """The group as ``export_group --format json`` prints it (the whole history, no range):
    ``{"version", "name", "players", "sittings", "settlements", "balances", "settle_up",
    "stats"}`` (``stats``: ``scoring.stats.export_stats``, games, wins, net, cóng and tới trắng
    per player and the head-to-head flows)."""

    ledger = GroupLedger.load(group, start=date.min)
    names = {p.pk: p.name for p in ledger.players}
    return {
        "version": EXPORT_VERSION,
        "name": group.name,
        "players": [p.name for p in ledger.players if p.merged_into_id is None],
        "sittings": [
            {
                "name": s.name,
                "date": s.date.isoformat(),
                "totals": {names[pk]: total for pk, total in _by_name_order(s.totals, names)},
            }
            for s in ledger.sittings
        ],
        "settlements": [
            {
                "from": names[s.payer_id],
                "to": names[s.payee_id],
                "amount": s.amount,
                "sitting": s.sitting.name if s.sitting else None,
            }
            for s in ledger.settlements
        ],
        "balances": {name: amount for name, amount in ledger.by_name.items()},
        "settle_up": [
            {"from": p.payer.name, "to": p.payee.name, "amount": p.amount}
            for p in ledger.suggested()
        ],
        "stats": export_stats(group),
    }


def _by_name_order(totals: Mapping[int, int], names: Mapping[int, str]) -> list[tuple[int, int]]:
    return sorted(totals.items(), key=lambda item: names[item[0]])


# One column set for a statement wherever it is downloaded: a player's page (one player, one
# period, the opening balance first) and ``export_group --format csv`` (every player, the
# whole history). ``balance`` is the running balance after the row.
STATEMENT_COLUMNS = (
    "player",
    "date",
    "kind",
    "sitting",
    "sitting_id",
    "games",
    "from",
    "to",
    "amount",
    "balance",
)


def statement_line(player: Player, row: StatementRow) -> dict[str, Any]:
    """A statement row as the downloads hold it, keyed by ``STATEMENT_COLUMNS``: amounts in
    whole đồng, "" where a column does not apply to the row's kind."""
    settlement = row.settlement
    return {
        "player": player.name,
        "date": row.date.isoformat() if row.date else "",
        "kind": row.kind,
        "sitting": row.sitting_name,
        "sitting_id": row.sitting_id or "",
        "games": row.game_count if row.kind == SITTING else "",
        "from": settlement.payer.name if settlement else "",
        "to": settlement.payee.name if settlement else "",
        "amount": row.amount,
        "balance": row.running,
    }


def statement_csv(summary: StatementSummary) -> str:
    """A player's statement as its ``statement.csv`` download (``scoring.csvfile``)."""
    rows = summary.download_rows()
    return csvfile.csv_text(
        STATEMENT_COLUMNS, [[row[column] for column in STATEMENT_COLUMNS] for row in rows]
    )


def statement_json(group: Group, summary: StatementSummary, period: Period) -> dict[str, Any]:
    """A player's statement as its ``statement.json`` download holds it."""
    return {
        "version": 1,
        "group": group.name,
        "player": summary.player.name,
        "start": period.start.isoformat() if period.start else None,
        "end": period.end.isoformat() if period.end else None,
        "opening": summary.opening,
        "closing": summary.closing,
        "lines": summary.download_rows(),
    }


def statement_csv_rows(group: Group) -> list[list[Any]]:
    """Every player's statement rows (whole history), for ``export_group --format csv``."""
    ledger = GroupLedger.load(group, start=date.min)
    out: list[list[Any]] = []
    for player in [p for p in ledger.players if p.merged_into_id is None]:
        for row in statement(group, player, ledger=ledger):
            if row.kind != OPENING:  # nothing comes before the whole history
                line = statement_line(player, row)
                out.append([line[column] for column in STATEMENT_COLUMNS])
    return out


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
    rows: list[dict[str, Any]]
    suggestions: list[Suggestion]
    open_sitting: Sitting | None


def live_view(group: Group, *, today: date | None = None) -> LiveGroup:
    """The group's live page data in a constant number of queries. The open sitting is the
    newest one dated today or yesterday (an evening runs past midnight)."""
    ledger = GroupLedger.load(group)
    return LiveGroup(
        group=group,
        version=ledger_version(group),
        rows=ledger.rows(),
        suggestions=ledger.suggested(),
        open_sitting=tonight(group, today),
    )


def history(group: Group, *, limit: int = 200) -> QuerySet[GroupHistoryEntry]:
    """The group's audit trail, newest first."""
    return group.history.select_related("user", "sitting", "settlement", "period")[:limit]
