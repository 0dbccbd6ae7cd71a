"""A player's statement in a group: the opening balance carried in, each sitting's result and
each settlement by date with the running balance, and its lines as the downloads hold them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet

from scoring.ledger.balance_chart import chart_svg
from scoring.ledger.periods import (
    Period,
    load_period,
    more_query,
    period_choices,
    period_query,
)
from scoring.ledger.shown import MOST_SHOWN
from scoring.ledger.standing import (
    GroupLedger,
    group_settlements,
    keep_once_committed,
    sitting_stamp,
)
from scoring.models import (
    Group,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    Sitting,
    SittingTotal,
    settlements_in_period,
    sittings_in_period,
)

# --- Statements -------------------------------------------------------------------------


OPENING, SITTING, SETTLEMENT = "opening", "sitting", "settlement"


@dataclass(frozen=True)
class StatementGame:
    number: int
    revision: int
    net: int


@dataclass
class StatementRow:
    """One line of a player's statement: the opening balance carried in, a sitting's result
    or a settlement."""

    kind: str
    date: date | None
    amount: int
    running: int = 0
    sitting_id: int | None = None
    sitting_name: str = ""
    game_count: int = 0  # every counted game of the player in the sitting
    settlement: Settlement | None = None
    other: Player | None = None  # the other side of a settlement


def sitting_games(
    group: Group, player: Player, sitting: Sitting, first: int
) -> tuple[list[StatementGame], int]:
    """The player's first ``first`` counted games of ``sitting`` (one of ``group``'s), by
    number, and how many counted games they have there (its stored total): what a statement's
    "Từng ván" opens. The games are kept in the cache under the sitting's state and the
    player; ``sitting`` must be freshly read, its version first."""
    stamp = sitting_stamp(sitting.created_at, sitting.version)
    count = (
        SittingTotal.objects.filter(sitting=sitting, player=player)
        .values_list("games", flat=True)
        .first()
    )
    key = f"group-games:{sitting.pk}:{stamp}:{player.pk}:{first}"
    games: list[tuple[int, int, int]] | None = cache.get(key)
    if games is None:
        seats = Seat.objects.counted().filter(game__sitting=sitting, player=player)
        rows = seats.order_by("game__number").values_list("game__number", "game__revision", "net")
        games = list(rows[:first])
        keep_once_committed({key: games})
    return [StatementGame(*g) for g in games], count or 0


def statement(
    group: Group,
    player: Player,
    *,
    start: date | None = None,
    end: date | None = None,
    ledger: GroupLedger | None = None,
    limit: int | None = None,
) -> list[StatementRow]:
    """The player's statement in the group: the opening balance (when anything came before
    the range), then each sitting's result (with how many games the player has there; the
    games themselves are ``sitting_games``) and each settlement by date, with the running
    balance; the last row's running balance is the group balance.

    With ``limit``, only the latest ``limit`` lines (no opening row), their running balances
    counted back from the balance: what a page shows first (``statement_summary``). Two
    queries besides the ledger's, each reading at most ``limit`` rows."""
    ledger = ledger or GroupLedger.load(group, start=start, end=end)
    mine, paid = _statement_rows(group, player, ledger)
    mine = mine.order_by("-sitting__date", "-sitting_id")
    paid = paid.order_by("-day", "-created_at", "-id")
    sittings = mine.values_list("sitting_id", "sitting__name", "sitting__date", "net", "games")
    settlements = list(paid if limit is None else paid[:limit])
    dated: list[tuple[tuple[Any, ...], StatementRow]] = []
    for sitting_id, name, day, net, games in sittings if limit is None else sittings[:limit]:
        row = StatementRow(
            SITTING, day, net, sitting_id=sitting_id, sitting_name=name, game_count=games
        )
        dated.append(((day, 0, sitting_id), row))
    for settlement in settlements:
        gave = settlement.payer_id == player.pk
        day = settlement.day
        row = StatementRow(
            SETTLEMENT,
            day,
            settlement.amount if gave else -settlement.amount,
            sitting_id=settlement.sitting_id,
            sitting_name=settlement.sitting.name if settlement.sitting else "",
            settlement=settlement,
            other=settlement.payee if gave else settlement.payer,
        )
        dated.append(((day, 1, settlement.created_at, settlement.pk), row))
    dated.sort(key=lambda item: item[0])
    rows = [row for _key, row in dated]
    running = 0
    if limit is not None:
        rows = rows[-limit:] if limit > 0 else []
        running = ledger.balances.get(player.pk, 0) - sum(row.amount for row in rows)
    elif ledger.start is not None:
        # Dated the last day of the close it was carried from (a table opened that day after
        # the close comes after it), else the day before which it was summed.
        day = ledger.cut.closes_through if ledger.cut is not None else ledger.start
        rows.insert(0, StatementRow(OPENING, day, ledger.opening.get(player.pk, 0)))
    for row in rows:
        running += row.amount
        row.running = running
    return rows


@dataclass(frozen=True)
class StatementSummary:
    """A player's statement over the period a page shows (``start``, None when it has no
    start): the opening balance carried in, the lines of the period (the latest ones, with
    ``older`` more before them when the page shows only some) and their totals, from the
    stored totals whatever the lines shown."""

    player: Player
    start: date | None
    opening: int
    lines: list[StatementRow]
    closing: int
    games_total: int
    settled_total: int
    older: int = 0
    carried_through: date | None = None  # the close the opening was carried from

    @property
    def before_shown(self) -> int:
        """The balance before the first line shown."""
        if not self.lines:
            return self.closing
        return self.lines[0].running - self.lines[0].amount

    def download_rows(self) -> list[dict[str, Any]]:
        """The statement as the CSV and JSON downloads hold it (``statement_line``), the
        opening balance first when the period has a start."""
        lines = list(self.lines)
        if self.start:
            day = self.carried_through or self.start
            lines.insert(0, StatementRow(OPENING, day, self.opening, self.opening))
        return [statement_line(self.player, line) for line in lines]


def statement_summary(
    group: Group,
    player: Player,
    ledger: GroupLedger,
    period: Period,
    *,
    limit: int | None = None,
) -> StatementSummary:
    """The player's statement over ``ledger``'s range (``statement``), its opening balance
    apart from its lines, for a page showing ``period``: every line, or the latest ``limit``
    (two more queries count the rest)."""
    opening = ledger.opening.get(player.pk, 0) if ledger.start is not None else 0
    lines = statement(group, player, ledger=ledger, limit=limit)
    if lines and lines[0].kind == OPENING:
        opening = lines.pop(0).amount
    older = 0
    if limit is not None and len(lines) == limit:
        mine, paid = _statement_rows(group, player, ledger)
        older = mine.count() + paid.count() - len(lines)
    return StatementSummary(
        player,
        period.start,
        opening,
        lines,
        closing=ledger.balances.get(player.pk, 0),
        games_total=ledger.games.get(player.pk, 0),
        settled_total=ledger.settled.get(player.pk, 0),
        older=older,
        carried_through=period.after_close,
    )


def _statement_rows(
    group: Group, player: Player, ledger: GroupLedger
) -> tuple[QuerySet[SittingTotal], Any]:
    """The rows of the player's statement over ``ledger``'s range: their totals in the
    sittings of the range they played in, and the settlements of the range they are in
    (each with its ``day``, ``group_settlements``)."""
    mine = SittingTotal.objects.filter(
        sittings_in_period(ledger.start, ledger.end, ledger.cut, via="sitting__"),
        sitting__group=group,
        player=player,
        games__gt=0,
    )
    paid = (
        group_settlements(group)
        .standing()
        .filter(
            settlements_in_period(ledger.start, ledger.end, ledger.cut),
            Q(payer=player) | Q(payee=player),
        )
    )
    return mine, paid


# One column set for a statement wherever it is downloaded: a player's page (one player, one
# period, the opening balance first) and ``export_group --format csv`` (every player, the
# whole history). ``balance`` is the running balance after the row.
STATEMENT_COLUMNS = (
    "player",
    "date",
    "kind",
    "sitting",
    "sitting_id",
    "games",
    "from",
    "to",
    "amount",
    "balance",
)


def statement_line(player: Player, row: StatementRow) -> dict[str, Any]:
    """A statement row as the downloads hold it, keyed by ``STATEMENT_COLUMNS``: amounts in
    whole đồng, "" where a column does not apply to the row's kind."""
    settlement = row.settlement
    return {
        "player": player.name,
        "date": row.date.isoformat() if row.date else "",
        "kind": row.kind,
        "sitting": row.sitting_name,
        "sitting_id": row.sitting_id or "",
        "games": row.game_count if row.kind == SITTING else "",
        "from": settlement.payer.name if settlement else "",
        "to": settlement.payee.name if settlement else "",
        "amount": row.amount,
        "balance": row.running,
    }


# --- The statement page -----------------------------------------------------------------


@dataclass(frozen=True)
class StatementPage:
    """Everything a player's statement in a group shows (``groups/statement.html``, which
    gets it as ``page``): the period asked for and how to ask for another, the
    statement over it (its latest lines, or every line for the downloads) and the balance
    chart."""

    group: Group
    player: Player
    period: Period
    period_query: str
    period_choices: list[tuple[str, str]]
    closed: PeriodClose | None
    summary: StatementSummary
    more_lines_query: str
    chart: str


def statement_page(
    group: Group,
    player: Player,
    *,
    key: str,
    start: date | None,
    end: date | None,
    shown: int | None,
    step: int,
) -> StatementPage:
    """The statement page of ``player`` over the period ``key`` from ``start`` to ``end``
    (``forms.pages.period_asked``): its latest ``shown`` lines (None: every line), ``step``
    more on request."""
    ledger, period = load_period(group, key, start, end)
    summary = statement_summary(group, player, ledger, period, limit=shown)
    more = summary.older and shown is not None and shown < MOST_SHOWN
    return StatementPage(
        group=group,
        player=player,
        period=period,
        period_query=period_query(period),
        period_choices=period_choices(),
        closed=ledger.close,
        summary=summary,
        more_lines_query=more_query(period, "lines", len(summary.lines), step) if more else "",
        chart=chart_svg(ledger, player),
    )
