"""A player across sittings: their result in each sitting, computed once for every page.

The player's page lists every sitting they sat in; the "every sitting" ledger lists those the
reader can see, between two dates, for the player and the records merged into them. Both are
the same lines: games played, what the games gave, what was handed over at settle-up, and
what is left.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Q, Sum

from scoring.models import Membership, Seat, Settlement, Sitting


@dataclass
class SittingLine:
    """One sitting of a player: what they won there and what is left."""

    sitting_id: int
    name: str
    date: date
    member: int  # the player's record that sits in this sitting (a merged one may)
    games: int = 0  # games played (active ones)
    net: int = 0  # from the games
    settled: int = 0  # paid out (+) or received (−) at settle-up
    paid: int = 0  # handed over at settle-up, kept apart from ...
    received: int = 0  # ... what was handed to them (never netted on a page)

    @property
    def balance(self) -> int:
        """Still owed to them (+) or by them (−) after what was handed over."""
        return self.net + self.settled


def player_lines(
    player_ids: Sequence[int], sittings: Sequence[Sitting] | None = None
) -> list[SittingLine]:
    """The player's line for each sitting, newest first, in three queries.

    ``player_ids`` is the player and the records merged into them (the first one names the
    player). Without ``sittings``: every sitting one of them belongs to or played in; with it,
    exactly those sittings.
    """
    ids = list(player_ids)
    seats = Seat.objects.counted().filter(player__in=ids)
    paid = Settlement.objects.standing().filter(Q(payer__in=ids) | Q(payee__in=ids))
    memberships = Membership.objects.filter(player__in=ids)
    lines: dict[int, SittingLine] = {}
    if sittings is not None:
        pks = [s.pk for s in sittings]
        seats, paid = seats.filter(game__sitting__in=pks), paid.filter(sitting__in=pks)
        memberships = memberships.filter(sitting__in=pks)
        for s in sittings:
            lines[s.pk] = SittingLine(s.pk, s.name, s.date, ids[0])
    for sitting_id, name, day, player_id in memberships.values_list(
        "sitting_id", "sitting__name", "sitting__date", "player_id"
    ):
        line = lines.setdefault(sitting_id, SittingLine(sitting_id, name, day, player_id))
        line.member = player_id
    for sitting_id, name, day, games, net in (
        seats.values_list("game__sitting_id", "game__sitting__name", "game__sitting__date")
        .annotate(games=Count("id"), net=Sum("net"))
        .order_by()
    ):
        line = lines.setdefault(sitting_id, SittingLine(sitting_id, name, day, ids[0]))
        line.games, line.net = games, net
    paid_out: dict[int, int] = defaultdict(int)
    paid_in: dict[int, int] = defaultdict(int)
    for sitting_id, payer_id, payee_id, total in (
        paid.values_list("sitting_id", "payer_id", "payee_id")
        .annotate(total=Sum("amount"))
        .order_by()
    ):
        if payer_id in ids:
            paid_out[sitting_id] += total
        if payee_id in ids:
            paid_in[sitting_id] += total
    for sitting_id in paid_out.keys() | paid_in.keys():
        if sitting_id in lines:
            line = lines[sitting_id]
            line.paid, line.received = paid_out[sitting_id], paid_in[sitting_id]
            line.settled = line.paid - line.received
    return sorted(lines.values(), key=lambda line: (line.date, line.sitting_id), reverse=True)


@dataclass(frozen=True)
class LineTotals:
    """A player's lines added up: the games' result and how many games, and what is left
    after the payments."""

    games_total: int
    played_total: int
    balance_total: int


def line_totals(lines: Sequence[SittingLine]) -> LineTotals:
    return LineTotals(
        sum(line.net for line in lines),
        sum(line.games for line in lines),
        sum(line.balance for line in lines),
    )
