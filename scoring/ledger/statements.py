"""Statements: every đồng in and out behind one number, line by line with a running total.

A player's statement in a sitting adds up to their balance; a pair's adds up to what one owes
the other as played. Only current payments of active games and settlements not voided count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import attrgetter
from typing import Any

from django.db.models import Q

from scoring.ledger.balances import current_payments
from scoring.models import Game, Payment, Player, Seat, Settlement, Sitting


@dataclass
class Entry:
    """One line of a statement: money in (+) or out (−) for the player it is about."""

    at: datetime
    order: tuple[int, int, int]
    amount: int
    other: Player
    payment: Payment | None = None
    settlement: Settlement | None = None
    running: int = 0

    @property
    def game(self) -> Game | None:
        return self.payment.game if self.payment else None


def entries(
    payments: Iterable[Payment], settlements: Iterable[Settlement], me: Player
) -> list[Entry]:
    """Statement lines for ``me``, oldest first, each with the running balance after it."""
    out: list[Entry] = []
    for p in payments:
        incoming = p.payee_id == me.pk
        out.append(
            Entry(
                at=p.game.created_at,
                order=(0, p.game.number, p.pk),
                amount=p.amount if incoming else -p.amount,
                other=p.payer if incoming else p.payee,
                payment=p,
            )
        )
    for s in settlements:
        paid = s.payer_id == me.pk
        # Handing money over settles a debt: the payer's balance goes up, the payee's down.
        out.append(
            Entry(
                at=s.created_at,
                order=(1, 0, s.pk),
                amount=s.amount if paid else -s.amount,
                other=s.payee if paid else s.payer,
                settlement=s,
            )
        )
    out.sort(key=lambda e: (e.at, e.order))
    running = 0
    for entry in out:
        running += entry.amount
        entry.running = running
    return out


def game_revisions(game: Game) -> list[tuple[int, list[Payment]]]:
    """A game's payments of every revision, newest revision first: the audit of one game."""
    payments = game.payments.select_related("payer", "payee").order_by("-revision", "id")
    return [(revision, list(rows)) for revision, rows in groupby(payments, attrgetter("revision"))]


def player_statement(sitting: Sitting, player: Player) -> dict[str, Any]:
    """Every đồng in and out for one player in one sitting, adding up to their balance, with
    the voided games and settlements beside it: four queries."""
    mine = Q(payer=player) | Q(payee=player)
    payments = current_payments(sitting).filter(mine).select_related("game", "payer", "payee")
    settlements = list(sitting.settlements.filter(mine).select_related("payer", "payee"))
    lines = entries(payments, [s for s in settlements if not s.is_void], player)
    others: dict[int, dict[str, Any]] = {}
    for entry in lines:
        row = others.setdefault(entry.other.pk, {"player": entry.other, "net": 0})
        row["net"] += entry.amount
    void_games = (
        Seat.objects.filter(game__sitting=sitting, game__status=Game.Status.VOID, player=player)
        .select_related("game")
        .order_by("game__number")
    )
    return {
        "entries": lines,
        "balance": lines[-1].running if lines else 0,
        "games_total": sum(e.amount for e in lines if e.payment),
        "settled_total": sum(e.amount for e in lines if e.settlement),
        # The two sides of it, never netted: paying raises one's balance, receiving lowers it.
        "paid_total": sum(e.amount for e in lines if e.settlement and e.amount > 0),
        "received_total": -sum(e.amount for e in lines if e.settlement and e.amount < 0),
        "others": sorted(others.values(), key=lambda r: r["player"].name),
        "void_games": void_games,
        "void_settlements": [s for s in settlements if s.is_void],
    }


def pair_statement(sitting: Sitting, first: Player, second: Player) -> dict[str, Any]:
    """Every game payment and settlement between two players, adding up to what one owes
    the other (the "as played" view of the pair)."""
    between = Q(payer=first, payee=second) | Q(payer=second, payee=first)
    payments = current_payments(sitting).filter(between).select_related("game", "payer", "payee")
    settlements = sitting.settlements.standing().filter(between).select_related("payer", "payee")
    lines = entries(payments, settlements, first)
    net = lines[-1].running if lines else 0
    return {
        "entries": lines,
        "net": net,
        "debtor": second if net > 0 else first,
        "creditor": first if net > 0 else second,
        "owed": abs(net),
    }
