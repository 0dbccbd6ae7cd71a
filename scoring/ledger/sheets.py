"""A sitting's ledger as spreadsheet rows: the payments CSV and the totals CSV.

Both are written by ``scoring.text.csvfile`` (a byte-order mark for spreadsheets, text that would
start a formula escaped). The payments CSV has one row per current payment of *every* game,
voided ones too, flagged ``void`` in the status column: the file is an audit trail, and
summing the ``active`` rows gives exactly the games column of the totals CSV.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.ledger.balances import balances, game_totals, handed_over
from scoring.models import Payment, Player, Sitting
from scoring.text.csvfile import csv_text
from scoring.text.wording import payment_words

PAYMENTS_HEADER = ("game", "revision", "status", "payer", "payee", "amount", "reason", "detail")
TOTALS_HEADER = ("player", "games_net", "settlements", "balance", "paid", "received")


def _names(balance: Mapping[int, int], members: list[Player]) -> dict[int, str]:
    """Player id -> name, for members and anyone else the ledger mentions (one query at most)."""
    names = {p.pk: p.name for p in members}
    missing = [pk for pk in balance if pk not in names]
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return names


def seated_balances(
    sitting: Sitting,
) -> tuple[list[Player], dict[int, str], list[tuple[int, int]]]:
    """The members in seating order, every name the ledger mentions by player id, and each
    (player id, balance) with the members first in seating order, then anyone else by id."""
    members = [m.player for m in sitting.memberships.select_related("player")]
    balance = balances(sitting)
    names = _names(balance, members)
    order = {p.pk: i for i, p in enumerate(members)}
    seated = sorted(balance.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))
    return members, names, seated


def payments_csv(sitting: Sitting) -> str:
    """One row per current payment of every game (voided games flagged ``void``), one query;
    the explanation in the active language."""
    payments = (
        Payment.objects.current()
        .filter(game__sitting=sitting)
        .order_by("game__number", "id")
        # Plain tuples: a model row per payment would also decode its game's record JSON.
        .values_list(
            "game__number",
            "revision",
            "game__status",
            "payer__name",
            "payee__name",
            "amount",
            "reason",
            "detail_code",
            "detail_params",
        )
    )
    rows = ((*row[:-2], payment_words(row[-2], row[-1])) for row in payments)
    return csv_text(PAYMENTS_HEADER, rows)


def totals_rows(sitting: Sitting) -> list[tuple[str, int, int, int, int, int]]:
    """(player, games net, settlements, balance, paid, received) per player, members in
    seating order.

    ``settlements`` is what settling has moved the balance by: paid out counts up (a debt
    shrinks), received counts down, so ``games net + settlements = balance``; ``paid`` and
    ``received`` are the two sides of it, never netted (``settlements = paid - received``).
    """
    _members, names, seated = seated_balances(sitting)
    games = game_totals(sitting)
    paid, received = handed_over(sitting)
    rows: list[tuple[str, int, int, int, int, int]] = []
    for pk, balance in seated:
        won = games.get(pk, 0)
        rows.append((names[pk], won, balance - won, balance, paid.get(pk, 0), received.get(pk, 0)))
    return rows


def totals_csv(sitting: Sitting) -> str:
    return csv_text(TOTALS_HEADER, totals_rows(sitting))
