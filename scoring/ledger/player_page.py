"""A player's own page (``/p/<token>/``), one page model: what the phone at the table shows
and refreshes every few seconds while it is open.

Tonight first (the player's result at each of the group's tables dated today or yesterday, an
evening running past midnight, and their latest games there with their own amounts), then the
group's open period: their balance, what they pay (with VietQR codes) or receive and from
whom, the payments to them waiting for "đã nhận", and their statement. The page's tag is the
group's ledger version (``link_version``, the stamp of ``ledger_version`` read from the
link in one query): it moves with every save, payment and confirmation in the group, so the
page's poll is a 304 until one of those happens.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import connection
from django.utils import timezone

from scoring.ledger import group_statements
from scoring.ledger.balances import Suggestion
from scoring.ledger.group_statements import StatementRow
from scoring.ledger.standing import (
    GroupLedger,
    group_settlements,
    version_stamp,
)
from scoring.models import (
    Group,
    Membership,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    Sitting,
    SittingTotal,
)

#: How many of tonight's games the page lists, newest first.
LATEST_GAMES = 8
#: How many payments already confirmed the page lists (with their undo).
RECENT_CONFIRMED = 5


@dataclass(frozen=True)
class TonightTable:
    sitting_id: int
    name: str
    date: date
    net: int
    games: int


@dataclass(frozen=True)
class MyGame:
    """One of tonight's games seen from the player's seat: their own net in it."""

    sitting_name: str
    number: int
    net: int


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    group: Group
    tonight: list[TonightTable]
    tonight_net: int
    latest: list[MyGame]
    balance: int
    paid: int
    received: int
    closed: PeriodClose | None
    lines: list[StatementRow]
    owes: list[Suggestion]
    owed: list[Suggestion]
    waiting: list[Settlement]
    confirmed: list[Settlement]
    sent: list[Settlement]


def player_page(player: Player, *, today: date | None = None) -> PlayerPage:
    """Everything the player's page shows. The page's tag (``link_version``) is read before
    this: a change landing while this reads shows at the latest on the next poll, never
    hidden behind a newer tag."""
    group = player.group
    ledger = GroupLedger.load(group)
    mine = group_settlements(group).standing().filter(payee=player).select_related("confirmed_by")
    confirmed = mine.filter(confirmed_at__isnull=False).order_by("-confirmed_at", "-id")
    plan = ledger.suggested()
    tables = _tonight(player, today)
    return PlayerPage(
        player=player,
        group=group,
        tonight=tables,
        tonight_net=sum(t.net for t in tables),
        latest=_latest(player, [t.sitting_id for t in tables]),
        balance=ledger.balances.get(player.pk, 0),
        paid=ledger.paid.get(player.pk, 0),
        received=ledger.received.get(player.pk, 0),
        closed=ledger.close,
        lines=group_statements.statement(group, player, ledger=ledger),
        owes=[s for s in plan if s.payer.pk == player.pk],
        owed=[s for s in plan if s.payee.pk == player.pk],
        waiting=list(mine.awaiting().order_by("-created_at", "-id")),
        confirmed=list(confirmed[:RECENT_CONFIRMED]),
        sent=list(
            group_settlements(group).awaiting().filter(payer=player).order_by("-created_at", "-id")
        ),
    )


def link_version(token: str) -> tuple[int, str] | None:
    """What the page's poll reads before anything else: the player whose link ``token`` is
    (not merged) and their group's ``ledger_version``, in one query; None if no player holds
    the link. Written as SQL, as the live link's version is (``live_cache``): building the ORM
    queries costs many times more than running them, every 2 seconds for every open page."""
    with connection.cursor() as cursor:
        cursor.execute(_link_version_sql(connection.vendor), [token])
        row = cursor.fetchone()
    if row is None:
        return None
    player_id, group_version, total, count, last = (int(value) for value in row)
    return player_id, version_stamp(group_version, total, count, last)


@functools.cache
def _link_version_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    player, group, sitting = (quote(m._meta.db_table) for m in (Player, Group, Sitting))
    return (
        f"SELECT p.id, g.version, COALESCE(SUM(s.version), 0), COUNT(s.id), "
        f"COALESCE(MAX(s.id), 0) "
        f"FROM {player} p JOIN {group} g ON g.id = p.group_id "
        f"LEFT JOIN {sitting} s ON s.group_id = g.id "
        f"WHERE p.link_token = %s AND p.merged_into_id IS NULL "
        f"GROUP BY p.id, g.version"
    )


def _tonight(player: Player, today: date | None) -> list[TonightTable]:
    """The player's tables of the group dated today or yesterday, newest first, with their
    net from the stored totals (two queries)."""
    yesterday = (today or timezone.localdate()) - timedelta(days=1)
    sittings = list(
        Membership.objects.filter(
            player=player, sitting__group_id=player.group_id, sitting__date__gte=yesterday
        )
        .order_by("-sitting__date", "-sitting_id")
        .values_list("sitting_id", "sitting__name", "sitting__date")
    )
    totals = {
        pk: (net, games)
        for pk, net, games in SittingTotal.objects.filter(
            player=player, sitting_id__in=[s[0] for s in sittings]
        ).values_list("sitting_id", "net", "games")
    }
    return [TonightTable(pk, name, day, *totals.get(pk, (0, 0))) for pk, name, day in sittings]


def _latest(player: Player, sitting_ids: list[int]) -> list[MyGame]:
    if not sitting_ids:
        return []
    rows = (
        Seat.objects.counted()
        .filter(player=player, game__sitting_id__in=sitting_ids)
        .order_by("-game__sitting__date", "-game__sitting_id", "-game__number")
        .values_list("game__sitting__name", "game__number", "net")[:LATEST_GAMES]
    )
    return [MyGame(name, number, net) for name, number, net in rows]
