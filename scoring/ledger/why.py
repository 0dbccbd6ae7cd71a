"""Why a suggestion of a group's settle-up says who pays whom (its "Vì sao?"): the two
balances per sitting, what the two paid each other there and the payments made.

It reads what it shows, not the period's history: each sitting's figures are its stored
totals and flows (``SittingTotal``, ``SittingFlow``, kept with every write), only the latest
sittings and payments are shown (older ones on request, their sum in one line), and the
games between the two of one sitting are read when that sitting is opened (``pair_games``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, F, OuterRef, Q, Sum
from django.db.models.functions import Coalesce

from scoring.ledger.balances import Suggestion
from scoring.ledger.shown import WHY_SHOWN
from scoring.ledger.standing import GroupLedger, group_settlements, last_close
from scoring.models import (
    Group,
    Payment,
    Player,
    Settlement,
    Sitting,
    SittingFlow,
    SittingTotal,
    settlements_in_period,
    sittings_in_period,
)


def _between(payer: Player, payee: Player) -> Q:
    """Rows from one of the two to the other (a payment's or a flow's ``payer``/``payee``)."""
    return Q(payer=payer, payee=payee) | Q(payer=payee, payee=payer)


# --- Explaining a suggestion ------------------------------------------------------------


@dataclass(frozen=True)
class SittingLine:
    """One sitting in which either of the two won or lost, or the two paid each other."""

    sitting_id: int
    name: str
    date: date
    payer_total: int
    payee_total: int
    between: int  # what the payer owes the payee from this sitting's games (+) or the reverse
    met: bool = False  # whether the two paid each other in any game there (its games to open)


@dataclass(frozen=True)
class Explanation:
    """Why ``payer`` pays ``payee``: each one's balance down to sittings and settlements.

    ``sittings`` and ``settlements`` are the latest of the range, oldest first; what came
    before them (``older_sittings`` sittings and ``older_settlements`` settlements, the opening
    balance included) is summed up in ``before``, each one's balance before the first line
    shown (the opening balance when every line is shown)."""

    payer: Player
    payee: Player
    payer_balance: int
    payee_balance: int
    opening: tuple[int, int]
    sittings: list[SittingLine]
    settlements: list[Settlement]
    older_sittings: int = 0
    older_settlements: int = 0
    before: tuple[int, int] = (0, 0)

    @property
    def older(self) -> int:
        """How many lines (sittings and settlements) are not shown."""
        return self.older_sittings + self.older_settlements


def _effect(settlement: Settlement, player: Player) -> int | None:
    """What a settlement did to a player's balance (paying raises it, receiving lowers it),
    None when they are not in it."""
    if settlement.payer_id == player.pk:
        return int(settlement.amount)
    if settlement.payee_id == player.pk:
        return -int(settlement.amount)
    return None


def explain(
    group: Group,
    payer: Player,
    payee: Player,
    *,
    start: date | None = None,
    end: date | None = None,
    ledger: GroupLedger | None = None,
    shown: int | None = WHY_SHOWN,
) -> Explanation:
    """A suggested payment explained, as the sitting's pair page does, across sittings: the
    two balances per sitting and what the two paid each other there, from the stored totals
    and flows; the latest ``shown`` sittings and settlements (None: every one). Seven queries
    besides the ledger's, each reading at most ``shown`` rows (two per sitting for the totals
    and the flows), whatever the number of sittings and games."""
    ledger = ledger or GroupLedger.load(group, start=start, end=end)
    pair = (payer.pk, payee.pk)
    between = _between(payer, payee)
    played = SittingTotal.objects.filter(sitting=OuterRef("pk"), player__in=pair).exclude(net=0)
    met = SittingFlow.objects.filter(between, sitting=OuterRef("pk"))
    found = Sitting.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut), group=group
    ).filter(Exists(played) | Exists(met))
    latest = found.order_by("-date", "-id").values_list("id", "name", "date")
    sittings = list(reversed(latest if shown is None else latest[:shown]))
    ids = [pk for pk, _name, _day in sittings]
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for sitting_id, player_id, net in SittingTotal.objects.filter(
        sitting_id__in=ids, player__in=pair
    ).values_list("sitting_id", "player_id", "net"):
        totals[sitting_id][player_id] = net
    flows: dict[int, int] = defaultdict(int)
    for sitting_id, from_id, amount in (
        SittingFlow.objects.filter(between, sitting_id__in=ids)
        .values_list("sitting_id", "payer_id", "amount")
        .order_by()
    ):
        flows[sitting_id] += amount if from_id == payer.pk else -amount
    lines = [
        SittingLine(
            pk, name, day, totals[pk].get(payer.pk, 0), totals[pk].get(payee.pk, 0),
            flows.get(pk, 0), pk in flows,
        )
        for pk, name, day in sittings
    ]  # fmt: skip
    touching = Q(payer__in=pair) | Q(payee__in=pair)
    paid = (
        group_settlements(group)
        .standing()
        .filter(settlements_in_period(ledger.start, ledger.end, ledger.cut), touching)
        .order_by(F("day").desc(), "-created_at", "-id")
    )
    settlements = list(reversed(paid if shown is None else paid[:shown]))
    older_sittings = older_settlements = 0
    if shown is not None:  # counted whatever the number shown, so the queries are the same
        older_sittings = found.count() - len(lines)
        older_settlements = paid.count() - len(settlements)
    balances = (ledger.balances.get(payer.pk, 0), ledger.balances.get(payee.pk, 0))
    before = (
        balances[0]
        - sum(line.payer_total for line in lines)
        - sum(_effect(st, payer) or 0 for st in settlements),
        balances[1]
        - sum(line.payee_total for line in lines)
        - sum(_effect(st, payee) or 0 for st in settlements),
    )
    return Explanation(
        payer=payer,
        payee=payee,
        payer_balance=balances[0],
        payee_balance=balances[1],
        opening=(ledger.opening.get(payer.pk, 0), ledger.opening.get(payee.pk, 0)),
        sittings=lines,
        settlements=settlements,
        older_sittings=older_sittings,
        older_settlements=older_settlements,
        before=before,
    )


@dataclass(frozen=True)
class Explained(Suggestion):
    """A suggested payment with its explanation down to sittings."""

    why: Explanation

    @property
    def paid(self) -> list[tuple[Settlement, int | None, int | None]]:
        """The settlements in the explanation, with what each did to the payer's and the
        payee's balance (paying raises one's balance, receiving lowers it)."""
        return [
            (st, _effect(st, self.payer), _effect(st, self.payee)) for st in self.why.settlements
        ]


def explained(
    group: Group, payer: Player, payee: Player, *, shown: int | None = WHY_SHOWN
) -> Explained:
    """Why the standing ledger has ``payer`` pay ``payee`` (the settle-up's "Vì sao?"): its
    latest ``shown`` sittings and settlements."""
    why = explain(group, payer, payee, ledger=GroupLedger.load(group), shown=shown)
    return Explained(payer, payee, 0, [], why)


# --- One sitting's games between the two, on request ---------------------------------------


@dataclass(frozen=True)
class PairGame:
    """One game in which the two paid each other: the revision that counts and the net."""

    number: int
    revision: int
    amount: int  # + means towards the payee of the suggestion


@dataclass(frozen=True)
class PairGames:
    """The first games between the two in one sitting, and how many there are."""

    sitting: Sitting
    games: list[PairGame]
    count: int

    @property
    def more(self) -> int:
        return self.count - len(self.games)


def explained_sitting(group: Group, sitting_id: int) -> Sitting | None:
    """The sitting of the standing ledger's period (the one the "Vì sao?" explains), or None:
    one of another group, or of a closed period, is not part of the explanation."""
    found = Sitting.objects.filter(
        sittings_in_period(None, None, last_close(group)), group=group, pk=sitting_id
    )
    return found.first()


def pair_games(sitting: Sitting, payer: Player, payee: Player, first: int) -> PairGames:
    """The first ``first`` games of ``sitting`` in which the two paid each other (net of the
    game, + towards the payee), by number, and how many such games there are: what a sitting
    line of the "Vì sao?" opens. Two queries over that sitting's payments between the two."""
    rows = (
        Payment.objects.counted()
        .filter(_between(payer, payee), game__sitting=sitting)
        .values("game__number", "game__revision")
        .annotate(
            total=Coalesce(Sum("amount", filter=Q(payer=payer)), 0)
            - Coalesce(Sum("amount", filter=Q(payer=payee)), 0)
        )
        .exclude(total=0)
        .order_by("game__number", "game__revision")
    )
    games = [
        PairGame(row["game__number"], row["game__revision"], int(row["total"]))
        for row in rows[:first]
    ]
    count = len(games) if len(games) < first else int(rows.count())
    return PairGames(sitting, games, count)
