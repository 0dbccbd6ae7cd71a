"""Reading a sitting's ledger: totals, balances, what each pair owes, and settle-up plans.

The money was computed by the engine when each game was recorded; this only adds up stored
payments and settlements and asks ``scoring.engine.settle`` for a plan. The settle-up page, the
exports and the live page share it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import QuerySet, Sum

from scoring.engine import settle
from scoring.models import Payment, Player, Seat, Settlement, Sitting, SittingTotal

MIN, PLAYED, BANKER = "min", "played", "banker"
METHODS = (MIN, PLAYED, BANKER)


def current_payments(sitting: Sitting) -> QuerySet[Payment]:
    """The payments that count: the current revision of each active game."""
    return Payment.objects.counted().filter(game__sitting=sitting)


def game_totals(sitting: Sitting) -> dict[int, int]:
    """Net đồng per player id from the sitting's active games, in one aggregate query."""
    rows = (
        Seat.objects.counted()
        .filter(game__sitting=sitting)
        .values("player_id")
        .annotate(total=Sum("net"))
    )
    return {row["player_id"]: row["total"] for row in rows}


def stored_balances(
    sitting: Sitting, member_ids: Sequence[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """``game_totals`` and ``balances`` at once, from the sitting's stored totals (one query,
    one row per player; the writes keep them, ``scoring.services.totals``)."""
    won: dict[int, int] = {}
    owed = dict.fromkeys(member_ids, 0)
    rows = SittingTotal.objects.filter(sitting=sitting).values_list(
        "player_id", "net", "games", "paid", "received"
    )
    for player_id, net, games, paid, received in rows:
        if games:
            won[player_id] = net
        owed[player_id] = owed.get(player_id, 0) + net + paid - received
    return won, owed


def balances(
    sitting: Sitting,
    *,
    member_ids: Sequence[int] | None = None,
    totals: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """What each member is owed (+) or owes (−) now: games, then settlements paid.

    A caller that already holds the member ids or ``game_totals`` passes them in, so the
    sitting page does not ask the database twice.
    """
    if member_ids is None:
        member_ids = list(sitting.memberships.values_list("player_id", flat=True))
    won = game_totals(sitting) if totals is None else totals
    return _owed(member_ids, won, *handed_over(sitting))


def _owed(
    member_ids: Sequence[int],
    won: Mapping[int, int],
    paid: Mapping[int, int],
    received: Mapping[int, int],
) -> dict[int, int]:
    """Games won, plus what was paid, less what was received: the members in their order,
    then anyone else the rows name."""
    owed = Counter(dict.fromkeys(member_ids, 0))
    owed.update(won)
    owed.update(paid)
    owed.subtract(received)
    return dict(owed)


def handed_over(sitting: Sitting) -> tuple[dict[int, int], dict[int, int]]:
    """What each player paid and what each received at settle-up (not voided), kept apart:
    paid 40 000 and received 30 000 is not "paid 10 000". One query."""
    paid: dict[int, int] = {}
    received: dict[int, int] = {}
    rows = (
        Settlement.objects.standing()
        .filter(sitting=sitting)
        .values("payer_id", "payee_id")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        paid[row["payer_id"]] = paid.get(row["payer_id"], 0) + row["total"]
        received[row["payee_id"]] = received.get(row["payee_id"], 0) + row["total"]
    return paid, received


@dataclass(frozen=True)
class Suggestion:
    payer: Player
    payee: Player
    amount: int
    clears: list[Player]


def suggestions(
    named: Mapping[str, int],
    method: str,
    banker: Player | None,
    pair_nets: Callable[[], Mapping[tuple[str, str], int]],
    player: Callable[[str], Player],
) -> list[Suggestion]:
    """The settle-up plan over balances by name (a sitting's or a group's), each payment with
    the people it clears: ``PLAYED`` one payment per pair who played each other (the only
    plan that asks for ``pair_nets``), ``BANKER`` everyone through ``banker``, otherwise the
    exact fewest payments."""
    if method == PLAYED:
        plan = settle.as_played(pair_nets())
    elif method == BANKER and banker is not None:
        plan = settle.through_banker(named, banker.name)
    else:
        plan = settle.min_payments(named)
    cleared = settle.clears(named, plan)
    return [
        Suggestion(player(p.payer), player(p.payee), p.amount, [player(n) for n in cleared[p]])
        for p in plan
    ]


@dataclass(frozen=True)
class BalanceRow:
    """One player's line of a settle-up's balances: what was carried in (``opening``, a
    group's), the games' result, what was handed over and the balance left (+ is owed)."""

    player: Player
    games: int
    paid: int
    received: int
    balance: int
    opening: int = 0

    @property
    def settled(self) -> int:
        return self.paid - self.received


@dataclass
class Ledger:
    """A sitting's players, balances and settlements, loaded once for a page."""

    sitting: Sitting
    players: list[Player]
    balances: dict[int, int]
    games: dict[int, int]
    paid: dict[int, int] = field(default_factory=dict)
    received: dict[int, int] = field(default_factory=dict)
    by_id: dict[int, Player] = field(init=False)

    def __post_init__(self) -> None:
        self.by_id = {p.pk: p for p in self.players}

    @classmethod
    def load(cls, sitting: Sitting) -> Ledger:
        players = [m.player for m in sitting.memberships.select_related("player")]
        won = game_totals(sitting)
        paid, received = handed_over(sitting)
        owed = _owed([p.pk for p in players], won, paid, received)
        extra = [pk for pk in owed if pk not in {p.pk for p in players}]
        if extra:  # someone in the ledger who is no longer a member
            players += list(Player.objects.filter(pk__in=extra))
        return cls(sitting, players, owed, won, paid, received)

    @property
    def by_name(self) -> dict[str, int]:
        """Balances by name, what ``scoring.engine.settle`` works on (names are unique in a
        sitting)."""
        return {p.name: self.balances.get(p.pk, 0) for p in self.players}

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def rows(self) -> list[BalanceRow]:
        return [
            BalanceRow(
                p,
                self.games.get(p.pk, 0),
                self.paid.get(p.pk, 0),
                self.received.get(p.pk, 0),
                self.balances.get(p.pk, 0),
            )
            for p in self.players
        ]

    def pair_nets(self) -> dict[tuple[str, str], int]:
        """What each person owes each other person: game payments, less settlements between
        the two (a settlement A paid B counts as B now owing A back)."""
        names = {p.pk: p.name for p in self.players}
        nets: dict[tuple[str, str], int] = defaultdict(int)
        rows = current_payments(self.sitting).values("payer_id", "payee_id")
        for row in rows.annotate(total=Sum("amount")):
            nets[names[row["payer_id"]], names[row["payee_id"]]] += row["total"]
        paid = self.sitting.settlements.standing().values("payer_id", "payee_id")
        for row in paid.annotate(total=Sum("amount")):
            nets[names[row["payee_id"]], names[row["payer_id"]]] += row["total"]
        return nets

    def plan(self, method: str, banker: Player | None) -> list[Suggestion]:
        return suggestions(self.by_name, method, banker, self.pair_nets, self.player)

    def default_banker(self) -> Player | None:
        """Whoever is owed the most: making them the banker saves one transfer."""
        if not self.players:
            return None
        return max(self.players, key=lambda p: self.balances.get(p.pk, 0))
