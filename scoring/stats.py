"""Per-player and per-sitting statistics, each a constant number of aggregate queries.

Only active games and the current revision of their payments count, as in the totals.
Vietnamese terms: cóng (a player who had not played a card when someone went out), thối
(paying for 2s and bombs still in hand), chặt (chopping a 2 or a bomb; the chopped pays).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from scoring.models import Game, Group, Membership, Payment, Player, Seat, Settlement, Sitting

ACTIVE = Game.Status.ACTIVE


def _current_payments() -> Q:
    return Q(game__status=ACTIVE, revision=F("game__revision"))


# --- A sitting ---------------------------------------------------------------------------


def running_balances(sitting: Sitting) -> tuple[list[str], dict[str, list[int]]]:
    """Each player's running total after every active game: ``(game numbers, {name: values})``.

    Two queries whatever the number of games: the members, then every seat of the sitting's
    active games in game order. A member who sat a game out keeps their total for it.
    """
    names = {m.player_id: m.player.name for m in sitting.memberships.select_related("player")}
    rows = (
        Seat.objects.filter(game__sitting=sitting, game__status=ACTIVE)
        .order_by("game__number", "position")
        .values_list("game__number", "player_id", "player__name", "net")
    )
    numbers: list[int] = []
    nets: list[dict[int, int]] = []
    for number, player_id, name, net in rows:
        if not numbers or numbers[-1] != number:
            numbers.append(number)
            nets.append({})
        nets[-1][player_id] = net
        names.setdefault(player_id, name)
    series: dict[str, list[int]] = {}
    for player_id, name in names.items():
        running, values = 0, []
        for game in nets:
            running += game.get(player_id, 0)
            values.append(running)
        series[name] = values
    return [str(n) for n in numbers], series


# --- A player ----------------------------------------------------------------------------

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
    seats = Seat.objects.filter(player=player, game__status=ACTIVE).aggregate(
        games=Count("id"),
        net=Coalesce(Sum("net"), 0),
        cong=Count("id", filter=Q(is_cong=True)),
        **{f"place{p}": Count("id", filter=Q(place=p)) for p in PLACES},
    )
    stats = PlayerStats(
        games=seats["games"],
        net=seats["net"],
        cong=seats["cong"],
        places={p: seats[f"place{p}"] for p in PLACES},
    )
    paid, got = Q(payer=player), Q(payee=player)
    rows = (
        Payment.objects.filter(_current_payments())
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
    charged = Seat.objects.filter(player=player, game__status=ACTIVE, thoi__gt=0).aggregate(
        games=Count("id"), amount=Sum("thoi")
    )
    return charged["games"], charged["amount"] or 0


@dataclass
class SittingLine:
    """One line of a player's statement: a sitting, what they won there, what is left."""

    sitting_id: int
    name: str
    date: date
    games: int = 0
    net: int = 0  # from the games
    settled: int = 0  # paid out (+) or received (−) at settle-up

    @property
    def balance(self) -> int:
        """Still owed to them (+) or by them (−) after what was handed over."""
        return self.net + self.settled


def player_statement(player: Player) -> list[SittingLine]:
    """Every sitting the player belongs to or played in, newest first: three queries."""
    lines: dict[int, SittingLine] = {}
    for sitting_id, name, day in Membership.objects.filter(player=player).values_list(
        "sitting_id", "sitting__name", "sitting__date"
    ):
        lines[sitting_id] = SittingLine(sitting_id, name, day)
    seat_rows = (
        Seat.objects.filter(player=player, game__status=ACTIVE)
        .values("game__sitting_id", "game__sitting__name", "game__sitting__date")
        .annotate(games=Count("id"), net=Sum("net"))
        .order_by()
    )
    for row in seat_rows:
        line = lines.setdefault(
            row["game__sitting_id"],
            SittingLine(
                row["game__sitting_id"], row["game__sitting__name"], row["game__sitting__date"]
            ),
        )
        line.games, line.net = row["games"], row["net"]
    paid, got = Q(payer=player), Q(payee=player)
    settlement_rows = (
        Settlement.objects.filter(is_void=False)
        .filter(paid | got)
        .values("sitting_id")
        .annotate(
            out=Coalesce(Sum("amount", filter=paid), 0), into=Coalesce(Sum("amount", filter=got), 0)
        )
        .order_by()
    )
    for row in settlement_rows:
        if row["sitting_id"] in lines:
            lines[row["sitting_id"]].settled = row["out"] - row["into"]
    return sorted(lines.values(), key=lambda line: (line.date, line.sitting_id), reverse=True)


def money_over_time(statement: list[SittingLine]) -> tuple[list[str], list[int]]:
    """Cumulative winnings after each sitting, oldest first, labelled by date."""
    labels, values, running = [], [], 0
    for line in sorted(statement, key=lambda line: (line.date, line.sitting_id)):
        if not line.games:
            continue
        running += line.net
        labels.append(line.date.strftime("%d/%m/%y"))
        values.append(running)
    return labels, values


# --- Everyone of one scorekeeper -----------------------------------------------------------


@dataclass
class PlayerLine:
    player: Player
    sittings: int = 0
    games: int = 0
    net: int = 0


def players_summary(owner: AbstractBaseUser) -> list[PlayerLine]:
    """The players of every group the user owns or keeps score for (merged records left out)
    with sittings, games and net: 3 queries."""
    groups = Group.objects.for_user(owner).values("pk")
    players = Player.objects.filter(group__in=groups, merged_into=None)
    lines = {p.pk: PlayerLine(p) for p in players}
    seat_rows = (
        Seat.objects.filter(player__group__in=groups, game__status=ACTIVE)
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
    for row in membership_rows:
        counts[row["player_id"]] = row["n"]
    for player_id, line in lines.items():
        line.sittings = counts[player_id]
    return list(lines.values())
