"""Reading a sitting's ledger: balances, what each pair owes, and settle-up plans.

The money was computed by the engine when each game was recorded; this only adds up stored
payments and settlements and asks ``scoring.settle`` for a plan. The settle-up page, the
exports and the live page share it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet, Sum

from scoring import services, settle
from scoring.models import Payment, Player, Sitting

MIN, PLAYED, BANKER = "min", "played", "banker"
METHODS = (MIN, PLAYED, BANKER)


def current_payments(sitting: Sitting) -> QuerySet[Payment]:
    """The payments that count: the current revision of each active game."""
    return Payment.objects.counted().filter(game__sitting=sitting)


@dataclass(frozen=True)
class Suggestion:
    payer: Player
    payee: Player
    amount: int
    clears: list[Player]


@dataclass
class Ledger:
    """A sitting's players, balances and settlements, loaded once for a page."""

    sitting: Sitting
    players: list[Player]
    balances: dict[int, int]
    games: dict[int, int]
    by_id: dict[int, Player] = field(init=False)

    def __post_init__(self) -> None:
        self.by_id = {p.pk: p for p in self.players}

    @classmethod
    def load(cls, sitting: Sitting) -> Ledger:
        players = [m.player for m in sitting.memberships.select_related("player")]
        balances = services.balances(sitting)
        extra = [pk for pk in balances if pk not in {p.pk for p in players}]
        if extra:  # someone in the ledger who is no longer a member
            players += list(Player.objects.filter(pk__in=extra))
        return cls(sitting, players, balances, services.game_totals(sitting))

    @property
    def by_name(self) -> dict[str, int]:
        """Balances by name, what ``scoring.settle`` works on (names are unique in a sitting)."""
        return {p.name: self.balances.get(p.pk, 0) for p in self.players}

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "player": p,
                "games": self.games.get(p.pk, 0),
                "settled": self.balances.get(p.pk, 0) - self.games.get(p.pk, 0),
                "settled_abs": abs(self.balances.get(p.pk, 0) - self.games.get(p.pk, 0)),
                "balance": self.balances.get(p.pk, 0),
            }
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
        named = self.by_name
        if method == PLAYED:
            plan = settle.as_played(self.pair_nets())
        elif method == BANKER and banker is not None:
            plan = settle.through_banker(named, banker.name)
        else:
            plan = settle.min_payments(named)
        cleared = settle.clears(named, plan)
        return [
            Suggestion(
                self.player(p.payer),
                self.player(p.payee),
                p.amount,
                [self.player(n) for n in cleared[p]],
            )
            for p in plan
        ]

    def default_banker(self) -> Player | None:
        """Whoever is owed the most: making them the banker saves one transfer."""
        if not self.players:
            return None
        return max(self.players, key=lambda p: self.balances.get(p.pk, 0))
