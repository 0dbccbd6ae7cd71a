"""A group's standing ledger: balances across its sittings, the closes they start from.

A player's group balance is the sum over the group's sittings of their totals (active games,
current revisions, as ``ledger.game_totals``) minus the settlements that stand: those of
each sitting and those recorded for the group as a whole. Positive means they are owed.
Dates: a sitting and its own settlements count on the sitting's date, a group-wide settlement
on its ``date``.

A closed period (``PeriodClose``) changes no amount: it only says where the current period
starts, so its opening balance is everything before the close, carried and shown as such.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from scoring.engine import settle
from scoring.ledger.balances import (
    BANKER,
    METHODS,
    MIN,
    BalanceRow,
    Ledger,
    Suggestion,
    suggestions,
)
from scoring.models import (
    Group,
    PeriodClose,
    Player,
    Settlement,
    SettlementQuerySet,
    Sitting,
    SittingFlow,
    SittingTotal,
    settlements_in_period,
    sittings_in_period,
)


class TooManyToMinimise(ValueError):
    """The exact fewest payments were asked for more people than ``settle.MAX_EXACT_PEOPLE``
    (a read refused, nothing to write); ``message`` says so, for the page."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- Closes -----------------------------------------------------------------------------


def last_close(group: Group) -> PeriodClose | None:
    """The latest period close not undone: where the open period starts."""
    return PeriodClose.objects.standing().filter(group=group).first()


def close_covering(sitting: Sitting) -> PeriodClose | None:
    """The standing close a sitting is dated inside of (it is read-only: the writes
    ``services.common.refuse_if_frozen`` refuses), or None. For a page to leave those writes out."""
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


def ledger_version(group: Group) -> str:
    """A stamp that changes with every change to the group or any of its sittings (what a
    group settlement's ``expected_version`` and a live page's ETag compare), in one query."""
    row = Sitting.objects.filter(group=group).aggregate(
        total=Coalesce(Sum("version"), 0), n=Count("id"), last=Coalesce(Max("id"), 0)
    )
    version = Group.objects.filter(pk=group.pk).values_list("version", flat=True).first() or 0
    return version_stamp(version, row["total"], row["n"], row["last"])


def version_stamp(group_version: int, total: int, count: int, last: int) -> str:
    """``ledger_version``'s stamp from its parts: the group's version, and its sittings'
    versions summed, counted and the newest id (a sitting added, moved away or deleted moves
    it too). Also read in one query by a player's page poll (``player_page.link_version``)."""
    return f"{group_version}.{total}.{count}.{last}"


# --- Raw rows (each one query) ----------------------------------------------------------


# What is kept in the cache of a sitting (a what-if's priced parts, a statement's games) is
# filed under its id and state (``sitting_stamp``). Every write to a sitting moves its version
# on in the same transaction (a game, an edit, a void, a merge, a move to another group), so a
# kept value is never out of date, only unused; the creation time tells apart two sittings
# that were given the same id one after the other. The cache is best-effort
# (``tienlen_site.plumbing.cache_backend``): without it everything is read afresh.
PART_SECONDS = 14 * 24 * 3600


def keep_once_committed(parts: Mapping[str, object]) -> None:
    """Keep what was read once the transaction it was read in has committed: a write that
    rolls back gives its version number to the next write, which must not find these. The
    versions are read before what they key, so a kept value is never older than its key."""
    transaction.on_commit(lambda: cache.set_many(dict(parts), PART_SECONDS))


def sitting_stamp(created: Any, version: int) -> str:
    """What tells one state of a sitting from every other: its creation time and version."""
    return f"{created.timestamp():.6f}:{version}"


def opens_on(close: PeriodClose) -> date:
    """The first day of the period after ``close``, for what reads by days (the stats): the
    day after its last. (A table opened on its last day after it is in that period too, which
    only what reads sittings, ``PeriodClose.sittings_after``, can say.)"""
    return close.closes_through + timedelta(days=1)


def _before(field_name: str, opening: Q | None) -> Any:
    """The part of a sum in the opening balance (``opening``; nothing when it is None)."""
    if opening is None:
        return Value(0)
    return Coalesce(Sum(field_name, filter=opening), 0)


def _opening(close: PeriodClose | None, start: date | None, *, wide: bool = False) -> Q | None:
    """What of a sitting's rows (``wide``: of the group-wide settlements) goes into the
    opening balance: what ``close`` covers, or what is dated before ``start``. A group-wide
    settlement is covered when it does not come after the close
    (``PeriodClose.wide_settlements_after``, the SQL of ``covers_settlement``)."""
    if close is not None:
        return ~close.wide_settlements_after() if wide else close.sittings_covered("sitting__")
    if start is None or start == date.min:
        return None
    return Q(date__lt=start) if wide else Q(sitting__date__lt=start)


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
        SittingResult(pk, name, day, totals[pk], played[pk], sitting_stamp(created, version))
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
    stamp: str = ""  # the sitting's state (``sitting_stamp``)


@dataclass
class GroupLedger:
    """A group's players, balances and settlements, loaded once for a page.

    ``opening`` is what was carried in from before ``start`` (from the last period close when
    no ``start`` is given), ``games`` and ``settled`` what happened inside the range, and
    ``balances`` = opening + games + settled. With ``end`` set, later rows are left out.
    Every figure is a sum of the sittings' stored totals (``SittingTotal``) and of the
    group-wide settlements, added up in SQL (``load``).
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
    unmerged: list[Player] = field(init=False)  # the players but the merged records

    def __post_init__(self) -> None:
        self.by_id = {p.pk: p for p in self.players}
        self.unmerged = [p for p in self.players if p.merged_into_id is None]
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
            start = opens_on(cut)
        sittings_before = _opening(cut, start)
        wide_before = _opening(cut, start, wide=True)
        players = list(group.players.all().order_by("name", "id"))
        known = {p.pk for p in players}
        opening: dict[int, int] = defaultdict(int)
        games: dict[int, int] = defaultdict(int)
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
            paid[payer_id] += amount - amount0
            received[payee_id] += amount - amount0
        # Handing money over settles a debt: the payer's balance goes up, the payee's down.
        settled = {pk: paid[pk] - received[pk] for pk in paid.keys() | received.keys()}
        stray = (set(opening) | set(games) | set(settled)) - known
        if stray:  # a player of another group in one of ours (should not happen): show them
            players += list(Player.objects.filter(pk__in=stray))
        return cls(
            group, players, dict(opening), dict(games), settled,
            start, end, close, _nonzero(paid), _nonzero(received), cut,
        )  # fmt: skip

    @cached_property
    def sittings(self) -> list[SittingResult]:
        """The sittings of the range, oldest first, with each player's total (read on first
        use: two queries, one row per sitting and player)."""
        return _sitting_results(self.group, self.start, self.end, self.cut)

    def _standing_inside(self) -> SettlementQuerySet:
        inside = settlements_in_period(self.start, self.end, self.cut)
        return group_settlements(self.group).standing().filter(inside)

    @cached_property
    def settlements(self) -> list[Settlement]:
        """The settlements standing inside the range, by the day they count on (read on
        first use)."""
        return list(self._standing_inside())

    def latest_settlements(self, limit: int) -> tuple[list[Settlement], bool]:
        """The ``limit`` settlements standing inside the range that were recorded last, oldest
        of them first, and whether older ones stand too: one query of at most ``limit + 1``
        rows, however many the period holds."""
        found = list(self._standing_inside().order_by("-created_at", "-id")[: limit + 1])
        return found[:limit][::-1], len(found) > limit

    @property
    def by_name(self) -> dict[str, int]:
        """Balances by name, what ``scoring.engine.settle`` works on (names are unique in a
        group)."""
        return {p.name: self.balances.get(p.pk, 0) for p in self.unmerged}

    def rows(self) -> list[BalanceRow]:
        """One row per player who has anything in the group (merged records left out)."""
        return [
            BalanceRow(
                p,
                self.games.get(p.pk, 0),
                self.paid.get(p.pk, 0),
                self.received.get(p.pk, 0),
                self.balances.get(p.pk, 0),
                opening=self.opening.get(p.pk, 0),
            )
            for p in self.unmerged
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
        # Names are unique among the group's players not merged: the plan's names are theirs.
        unmerged = {p.name: p for p in self.unmerged}
        return suggestions(named, method, banker, self.pair_nets, unmerged.__getitem__)

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
        if not self.unmerged:
            return None
        return max(self.unmerged, key=lambda p: (self.balances.get(p.pk, 0), -p.pk))


def plan_choice(
    method: str, banker_id: int | None, ledger: Ledger | GroupLedger
) -> tuple[str, Player | None]:
    """The settle-up plan a page asks for (``method``, the fewest payments when unknown), and
    its banker (``banker_id`` if one of the ledger's players, not a merged record; whoever is
    owed the most when none is named)."""
    if method not in METHODS:
        method = MIN
    banker = None
    if method == BANKER:
        if banker_id is not None:
            banker = ledger.by_id.get(banker_id)
        if banker is None or banker.merged_into_id is not None:
            banker = ledger.default_banker()
    return method, banker


def plan_offered(
    ledger: GroupLedger, method: str, banker: Player | None
) -> tuple[list[Suggestion], bool]:
    """The plan a settle-up page offers, and whether the exact minimum was given up for too
    many people (``TooManyToMinimise``): then it is the plan through the default banker."""
    try:
        return ledger.plan(method, banker), False
    except ValueError:  # too many people for the exact minimum
        return ledger.plan(BANKER, ledger.default_banker()), True


def closed_ids(settlements: Iterable[Settlement], close: PeriodClose | None) -> set[int]:
    """Those of the group-wide ``settlements`` dated inside the closed period (no void)."""
    return {s.pk for s in settlements if s.date and settlement_closed(close, s)}


def balances(group: Group, *, start: date | None = None, end: date | None = None) -> dict[int, int]:
    """Each player's group balance (player id -> đồng, + is owed) over the range."""
    return GroupLedger.load(group, start=start, end=end).balances
