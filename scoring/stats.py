"""Per-player statistics, each a constant number of aggregate queries (a player's money per
sitting is ``scoring.ledger.player_lines``).

Only active games and the current revision of their payments count, as in the totals.
The game's terms (cóng, thối, chặt…) are those of the rules book's glossary (docs/rules.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from scoring import charts
from scoring.ledger.players import SittingLine
from scoring.models import Group, Membership, Payment, Player, Seat

PLACES = (1, 2, 3, 4)


@dataclass
class PlayerStats:
    games: int = 0
    net: int = 0
    places: dict[int, int] = field(default_factory=dict)  # place -> games
    toi_trang: int = 0  # games won by tới trắng (nobody gets a place in those)
    cong: int = 0
    thoi_games: int = 0  # games lost holding heo or hàng (thối)
    thoi_paid: int = 0
    chat_won_count: int = 0
    chat_won: int = 0
    chat_lost_count: int = 0
    chat_lost: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)  # reason -> received − paid

    @property
    def wins(self) -> int:
        return self.places.get(1, 0) + self.toi_trang

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def player_stats(player: Player) -> PlayerStats:
    """Games, places, cóng, thối and chặt of one player over every sitting: four queries."""
    seats = (
        Seat.objects.counted()
        .filter(player=player)
        .aggregate(
            games=Count("id"),
            net=Coalesce(Sum("net"), 0),
            cong=Count("id", filter=Q(is_cong=True)),
            **{f"place{p}": Count("id", filter=Q(place=p)) for p in PLACES},
        )
    )
    stats = PlayerStats(
        games=seats["games"],
        net=seats["net"],
        cong=seats["cong"],
        places={p: seats[f"place{p}"] for p in PLACES},
    )
    paid, got = Q(payer=player), Q(payee=player)
    rows = (
        Payment.objects.counted()
        .filter(paid | got)
        .values("reason")
        .annotate(
            paid=Coalesce(Sum("amount", filter=paid), 0),
            got=Coalesce(Sum("amount", filter=got), 0),
            paid_count=Count("id", filter=paid),
            got_count=Count("id", filter=got),
            paid_games=Count("game", filter=paid, distinct=True),
            got_games=Count("game", filter=got, distinct=True),
        )
        .order_by("reason")
    )
    for row in rows:
        reason = row["reason"]
        stats.by_reason[reason] = row["got"] - row["paid"]
        if reason == "chat":
            stats.chat_won_count, stats.chat_won = row["got_count"], row["got"]
            stats.chat_lost_count, stats.chat_lost = row["paid_count"], row["paid"]
        elif reason == "toi_trang":
            stats.toi_trang = row["got_games"]
    stats.thoi_games, stats.thoi_paid = _thoi(player)
    return stats


def _thoi(player: Player) -> tuple[int, int]:
    """Games the player's hand was charged thối in, and what that cost, as the engine said
    when the game was recorded (under đền another player paid it; it is still this hand's)."""
    charged = (
        Seat.objects.counted()
        .filter(player=player, thoi__gt=0)
        .aggregate(games=Count("id"), amount=Sum("thoi"))
    )
    return charged["games"], charged["amount"] or 0


def money_over_time(statement: list[SittingLine]) -> tuple[list[str], list[int]]:
    """Cumulative winnings after each sitting, oldest first, labelled by date."""
    days, values, running = [], [], 0
    for line in sorted(statement, key=lambda line: (line.date, line.sitting_id)):
        if not line.games:
            continue
        running += line.net
        days.append(line.date)
        values.append(running)
    return charts.date_labels(days), values


# --- Everyone of one scorekeeper -----------------------------------------------------------


@dataclass
class PlayerLine:
    player: Player
    sittings: int = 0
    games: int = 0
    net: int = 0


def players_summary(owner: User) -> list[PlayerLine]:
    """The players of every group the user owns or keeps score for (merged records left out)
    with sittings, games and net: 3 queries."""
    groups = Group.objects.for_user(owner).values("pk")
    players = Player.objects.filter(group__in=groups, merged_into=None)
    lines = {p.pk: PlayerLine(p) for p in players}
    seat_rows = (
        Seat.objects.counted()
        .filter(player__group__in=groups)
        .values("player_id")
        .annotate(games=Count("id"), net=Sum("net"))
        .order_by()
    )
    for row in seat_rows:
        if row["player_id"] in lines:
            lines[row["player_id"]].games = row["games"]
            lines[row["player_id"]].net = row["net"]
    counts: dict[int, int] = defaultdict(int)
    membership_rows = (
        Membership.objects.filter(player__group__in=groups)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for membership in membership_rows:
        counts[membership["player_id"]] = membership["n"]
    for player_id, line in lines.items():
        line.sittings = counts[player_id]
    return list(lines.values())
