"""Why a suggestion of a group's settle-up says who pays whom (its "Vì sao?"): the two
balances per sitting, every game between the two and the payments made."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet, Sum

from scoring.ledger.balances import Suggestion
from scoring.ledger.standing import GroupLedger
from scoring.models import Group, Payment, Player, Settlement


def _group_payments(group: Group) -> QuerySet[Payment]:
    return Payment.objects.counted().filter(game__sitting__group=group)


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
