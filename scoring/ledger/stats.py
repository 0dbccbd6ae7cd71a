"""Per-player statistics, each a constant number of aggregate queries (a player's money per
sitting is ``scoring.ledger.player_lines``).

Only active games and the current revision of their payments count, as in the totals.
The game's terms (cóng, thối, chặt…) are those of the rules book's glossary (docs/rules.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from itertools import accumulate, groupby
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from scoring.ledger import charts
from scoring.ledger.players import SittingLine
from scoring.models import (
    Group,
    Membership,
    Payment,
    PeriodClose,
    Player,
    Seat,
    SittingFlow,
    SittingTotal,
    sittings_in_period,
)

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
    """Games, places, cóng, thối and chặt of one player over every sitting: three queries."""
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
    # Thối as the engine charged the hand when the game was recorded (under đền another
    # player paid it; it is still this hand's).
    thoi = (
        Seat.objects.counted()
        .filter(player=player, thoi__gt=0)
        .aggregate(games=Count("id"), amount=Coalesce(Sum("thoi"), 0))
    )
    stats.thoi_games, stats.thoi_paid = thoi["games"], thoi["amount"]
    return stats


def money_over_time(statement: list[SittingLine]) -> tuple[list[str], list[int]]:
    """Cumulative winnings after each sitting, oldest first, labelled by date."""
    played = sorted((x for x in statement if x.games), key=lambda x: (x.date, x.sitting_id))
    days = [line.date for line in played]
    return charts.date_labels(days), list(accumulate(line.net for line in played))


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
    players = Player.objects.unmerged().filter(group__in=groups)
    lines = {p.pk: PlayerLine(p) for p in players}
    for player_id, games, net in (
        Seat.objects.counted()
        .filter(player__group__in=groups)
        .values_list("player_id")
        .annotate(games=Count("id"), net=Sum("net"))
        .order_by()
    ):
        if player_id in lines:
            lines[player_id].games, lines[player_id].net = games, net
    counts = dict(
        Membership.objects.filter(player__group__in=groups)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for player_id, line in lines.items():
        line.sittings = counts.get(player_id, 0)
    return list(lines.values())


# --- A group over a period: the table's story ----------------------------------------------
#
# The same counts as ``player_stats`` for every player of one group at once, between two dates
# (a sitting counts on its date, as in the group's ledger), each a fixed number of queries
# whatever the number of sittings or games. A closed period changes nothing here but where the
# open period starts: with ``cut`` (that close), the sittings it does not cover, a table
# opened on its last day after it included (``scoring.models.sittings_in_period``, as the ledger).

# What a number on the stats page counts; the games behind it are ``games_behind``.
GAMES, WINS, CONG, TOI_TRANG, CHAT_MADE, CHAT_SUFFERED, THOI = (
    "games", "wins", "cong", "toi_trang", "chat_made", "chat_suffered", "thoi",
)  # fmt: skip
COUNTS = (GAMES, WINS, CONG, TOI_TRANG, CHAT_MADE, CHAT_SUFFERED, THOI)


@dataclass
class GroupPlayerStats:
    player: Player
    games: int = 0
    first: int = 0  # first out (first_out schemes) or first place (placement schemes)
    toi_trang: int = 0  # games won by tới trắng
    net: int = 0  # from the games only (settlements move no winnings)
    cong: int = 0
    chat_made: int = 0  # chặt made (payments received for them) and their amount
    chat_made_amount: int = 0
    chat_suffered: int = 0
    chat_suffered_amount: int = 0
    thoi_games: int = 0
    thoi_paid: int = 0

    @property
    def wins(self) -> int:
        return self.first + self.toi_trang

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass(frozen=True)
class Flow:
    """The net that moved from ``payer`` to ``payee`` through the games of the range."""

    payer: Player
    payee: Player
    amount: int  # > 0


@dataclass(frozen=True)
class GroupStory:
    """A group's stats over a range: each player's line (best net first) and the head-to-head
    flows (biggest first)."""

    lines: list[GroupPlayerStats]
    flows: list[Flow]


def group_story(
    group: Group,
    *,
    start: date | None = None,
    end: date | None = None,
    cut: PeriodClose | None = None,
) -> GroupStory:
    """Every player of the group who played in the range (merged records left out) and who
    took money from whom, added up in SQL from each sitting's stored totals
    (``SittingTotal``, ``SittingFlow``): three queries whatever the number of sittings, one
    row per player and one per pair. With ``cut``, the open period after that close."""
    player = _player_lookup(group)
    dated = sittings_in_period(start, end, cut, via="sitting__")
    # The stored columns summed, in the order of ``GroupPlayerStats``' fields after the player.
    summed = ("games", "first", "toi_trang", "net", "cong", "chat_made", "chat_made_amount",
              "chat_suffered", "chat_suffered_amount", "thoi_games", "thoi")  # fmt: skip
    rows = (
        SittingTotal.objects.filter(dated, sitting__group=group, games__gt=0)
        .values_list("player_id")
        .annotate(*(Sum(name) for name in summed))
        .order_by()
    )
    lines = [GroupPlayerStats(player(pk), *(int(v or 0) for v in values)) for pk, *values in rows]
    return GroupStory(
        lines=sorted(
            (s for s in lines if s.games and s.player.merged_into_id is None),
            key=lambda s: (-s.net, s.player.name, s.player.pk),
        ),
        flows=_flows(group, dated, player),
    )


def _player_lookup(group: Group) -> Callable[[int], Player]:
    """The group's players by id, read in one query; a player of another group in one of ours
    (should not happen) is read on its own, to be shown too."""
    players = {p.pk: p for p in Player.objects.filter(group=group)}

    def player(player_id: int) -> Player:
        if player_id not in players:
            players[player_id] = Player.objects.get(pk=player_id)
        return players[player_id]

    return player


def _flows(
    group: Group, dated: Q, player: Callable[[int], Player], among: Q | None = None
) -> list[Flow]:
    """The head-to-head flows of the group's sittings ``dated``, biggest first, added up from
    their stored flows (``SittingFlow``): one query, one row per pair. ``among``: only the
    pairs it lets through (a filter on ``payer`` and ``payee``)."""
    found = SittingFlow.objects.filter(dated, sitting__group=group)
    if among is not None:
        found = found.filter(among)
    moved: dict[tuple[int, int], int] = defaultdict(int)  # (low id, high id) -> low to high
    for a, b, amount in (
        found.values_list("payer_id", "payee_id").annotate(amount=Sum("amount")).order_by()
    ):
        key = (min(a, b), max(a, b))
        moved[key] += amount if a == key[0] else -amount
    out = []
    for (low, high), amount in moved.items():
        if amount > 0:
            out.append(Flow(player(low), player(high), amount))
        elif amount < 0:
            out.append(Flow(player(high), player(low), -amount))
    return sorted(out, key=lambda f: (-f.amount, f.payer.name, f.payee.name))


def group_stats(
    group: Group, *, start: date | None = None, end: date | None = None
) -> list[GroupPlayerStats]:
    """Each player's line of ``group_story``."""
    return group_story(group, start=start, end=end).lines


def flows(group: Group, *, start: date | None = None, end: date | None = None) -> list[Flow]:
    """Head to head: one flow per pair who moved money between them, the net of every game
    payment between the two (its direction the way the money went), biggest first. Each
    player's inflows minus outflows are their net from the games (``group_story``'s)."""
    return group_story(group, start=start, end=end).flows


@dataclass(frozen=True)
class Rivals:
    """A player's opponents by what moved between them: ``best`` the one they took the most
    from, ``worst`` the one they lost the most to, each (opponent, amount > 0) or None."""

    best: tuple[Player, int] | None
    worst: tuple[Player, int] | None
    lines: list[tuple[Player, int]]  # every opponent, + won from them, − lost to them


def rivals(player: Player, all_flows: list[Flow]) -> Rivals:
    lines: list[tuple[Player, int]] = []
    for f in all_flows:
        if f.payee.pk == player.pk:
            lines.append((f.payer, f.amount))
        elif f.payer.pk == player.pk:
            lines.append((f.payee, -f.amount))
    lines.sort(key=lambda item: (-item[1], item[0].name))
    best = lines[0] if lines and lines[0][1] > 0 else None
    worst = (lines[-1][0], -lines[-1][1]) if lines and lines[-1][1] < 0 else None
    return Rivals(best, worst, lines)


@dataclass(frozen=True)
class BehindGame:
    """One game behind a number: where it was played and which revision counts."""

    sitting_id: int
    sitting_name: str
    date: date
    number: int
    revision: int
    net: int  # the player's net in it


def games_behind(
    group: Group,
    player: Player,
    what: str,
    *,
    start: date | None = None,
    end: date | None = None,
    cut: PeriodClose | None = None,
    limit: int = 500,
) -> tuple[int, list[BehindGame]]:
    """The games a count of ``group_stats`` was made of (``what`` one of ``COUNTS``), newest
    first: how many there are, and the first ``limit`` of them. Two queries."""
    dated = sittings_in_period(start, end, cut, via="game__sitting__")
    games = Q(dated, game__sitting__group=group)
    seats = Seat.objects.counted().filter(games, player=player)
    payments = Payment.objects.counted().filter(games)
    if what in (WINS, TOI_TRANG):
        white = Q(game__in=payments.filter(reason="toi_trang", payee=player).values("game"))
        seats = seats.filter(Q(place=1) | white if what == WINS else white)
    elif what == CONG:
        seats = seats.filter(is_cong=True)
    elif what == THOI:
        seats = seats.filter(thoi__gt=0)
    elif what in (CHAT_MADE, CHAT_SUFFERED):
        side = {"payee": player} if what == CHAT_MADE else {"payer": player}
        seats = seats.filter(game__in=payments.filter(reason="chat", **side).values("game"))
    elif what != GAMES:
        raise ValueError(f"no such count: {what!r}")
    total = seats.count()
    rows = seats.order_by("-game__sitting__date", "-game__sitting_id", "-game__number").values_list(
        "game__sitting_id",
        "game__sitting__name",
        "game__sitting__date",
        "game__number",
        "game__revision",
        "net",
    )[:limit]
    return total, [BehindGame(*row) for row in rows]


# --- A player's year ----------------------------------------------------------------------


@dataclass(frozen=True)
class Night:
    sitting_id: int
    name: str
    date: date
    games: int
    net: int


@dataclass(frozen=True)
class PlayerYear:
    """One player's year in the group, sitting by sitting (only those they played in)."""

    player: Player
    year: int
    nights: list[Night]  # oldest first
    best: Night | None  # the biggest win of a night (None: no winning night)
    worst: Night | None  # the biggest loss of a night
    winning_streak: list[Night]  # the longest run of winning nights (the earliest if tied)
    losing_streak: list[Night]
    rivals: Rivals

    @property
    def games(self) -> int:
        return sum(n.games for n in self.nights)

    @property
    def net(self) -> int:
        return sum(n.net for n in self.nights)

    @property
    def balance(self) -> tuple[list[str], list[int]]:
        """The running net from the games after each night, for ``charts.line_chart``."""
        days = [night.date for night in self.nights]
        return charts.date_labels(days), list(accumulate(night.net for night in self.nights))


def _longest(nights: list[Night], sign: int) -> list[Night]:
    runs = [list(run) for won, run in groupby(nights, key=lambda n: n.net * sign > 0) if won]
    return max(runs, key=len, default=[])


def player_year(group: Group, player: Player, year: int) -> PlayerYear:
    """A player's year in a group: each night they played, the biggest ones, the longest
    winning and losing streaks (by sitting; a night that came out even breaks both) and who
    took money from whom. From each sitting's stored totals and flows (``SittingTotal``,
    ``SittingFlow``): three queries, one row per night and one per player and pair, whatever
    the number of games."""
    start, end = date(year, 1, 1), date(year, 12, 31)
    dated = sittings_in_period(start, end, via="sitting__")
    rows = (
        SittingTotal.objects.filter(dated, sitting__group=group, player=player, games__gt=0)
        .order_by("sitting__date", "sitting_id")
        .values_list("sitting_id", "sitting__name", "sitting__date", "games", "net")
    )
    nights = [Night(*row) for row in rows]
    mine = Q(payer=player) | Q(payee=player)  # only the pairs the player is in
    winners = [n for n in nights if n.net > 0]
    losers = [n for n in nights if n.net < 0]
    return PlayerYear(
        player=player,
        year=year,
        nights=nights,
        best=max(winners, key=lambda n: (n.net, n.date)) if winners else None,
        worst=min(losers, key=lambda n: (n.net, n.date)) if losers else None,
        winning_streak=_longest(nights, 1),
        losing_streak=_longest(nights, -1),
        rivals=rivals(player, _flows(group, dated, _player_lookup(group), mine)),
    )


def export_stats(group: Group) -> dict[str, Any]:
    """The ``"stats"`` of ``export_group --format json``: the whole group, every period."""
    story = group_story(group)
    return {
        "players": {
            s.player.name: {
                "games": s.games,
                "wins": s.wins,
                "net": s.net,
                "cong": s.cong,
                "toi_trang": s.toi_trang,
            }
            for s in sorted(story.lines, key=lambda s: s.player.name)
        },
        "flows": [
            {"from": f.payer.name, "to": f.payee.name, "amount": f.amount} for f in story.flows
        ],
    }
