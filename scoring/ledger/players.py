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
    seat_rows = (
        seats.values("game__sitting_id", "game__sitting__name", "game__sitting__date")
        .annotate(games=Count("id"), net=Sum("net"))
        .order_by()
    )
    for row in seat_rows:
        sitting_id = row["game__sitting_id"]
        line = lines.setdefault(
            sitting_id,
            SittingLine(sitting_id, row["game__sitting__name"], row["game__sitting__date"], ids[0]),
        )
        line.games, line.net = row["games"], row["net"]
    settled: dict[int, int] = defaultdict(int)
    paid_out: dict[int, int] = defaultdict(int)
    paid_in: dict[int, int] = defaultdict(int)
    paid_rows = paid.values("sitting_id", "payer_id", "payee_id").annotate(total=Sum("amount"))
    for paid_row in paid_rows.order_by():
        if paid_row["payer_id"] in ids:
            settled[paid_row["sitting_id"]] += paid_row["total"]
            paid_out[paid_row["sitting_id"]] += paid_row["total"]
        if paid_row["payee_id"] in ids:
            settled[paid_row["sitting_id"]] -= paid_row["total"]
            paid_in[paid_row["sitting_id"]] += paid_row["total"]
    for sitting_id, amount in settled.items():
        if sitting_id in lines:
            lines[sitting_id].settled = amount
            lines[sitting_id].paid = paid_out[sitting_id]
            lines[sitting_id].received = paid_in[sitting_id]
    return sorted(lines.values(), key=lambda line: (line.date, line.sitting_id), reverse=True)
