"""The sitting board: totals, the games with their payments, who leads next, the chart.

What the scorekeeper's sitting page and the live page show, each in a constant number of
queries whatever the number of games.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.functional import cached_property
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain
from scoring.ledger import charts, rulesummary
from scoring.ledger.balances import MIN, Ledger, stored_balances
from scoring.ledger.shown import GAMES_PER_PAGE
from scoring.models import BookCheck, Game, HistoryEntry, Payment, Player, Seat, Sitting


class _Counted(Paginator):  # type: ignore[type-arg]
    """A paginator told its count (the board reads it with the void games' count)."""

    def __init__(self, object_list: Any, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known = count

    @cached_property
    def count(self) -> int:
        return self._known


def board(
    sitting: Sitting, page: int = 1, *, members: list[Player] | None = None
) -> dict[str, Any]:
    """Everything the sitting page shows, in a constant number of queries (``members``: the
    sitting's players in their seats' order, when the caller has just read them).

    ``latest``: the newest active game (the next leader); ``last_players``: who played it
    and is still a member (the next game's default players)."""
    if members is None:
        members = [m.player for m in sitting.memberships.select_related("player")]
    won, owed = stored_balances(sitting, [p.pk for p in members])
    counts, head, disagrees = _book_facts(sitting)
    games = (
        sitting.games.select_related("led_by", "next_leader")
        .prefetch_related(
            Prefetch(
                "payments",
                queryset=Payment.objects.current().select_related("payer", "payee"),
                to_attr="current_payments",
            ),
            Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list"),
        )
        .order_by("-number")
    )
    paginator = _Counted(games, GAMES_PER_PAGE, counts["game_count"] + counts["void_count"])
    page_obj = paginator.get_page(page)
    # The newest active game is on the first page unless all of it is voided.
    shown = page_obj.object_list if page_obj.number == 1 else []
    latest = next((g for g in shown if g.status == Game.Status.ACTIVE), None)
    if latest is None and counts["game_count"]:
        latest = sitting.games.active().order_by("-number").select_related("next_leader").first()
    totals = [{"player": p, "balance": owed.get(p.pk, 0), "won": won.get(p.pk, 0)} for p in members]
    names = [p.name for p in members]
    last = [name for name in latest.record.get("players", []) if name in names] if latest else []
    rules = engine.ruleset_from_dict(sitting.rules)
    return {
        "sitting": sitting,
        "members": members,
        "totals": totals,
        "page_obj": page_obj,
        # Voided games are listed (struck through) but are not games played: every count of
        # games on every page is of active ones, with the voided ones said apart.
        **counts,
        "latest": latest,
        "last_players": last or names[:4],
        "next_leader": latest.next_leader if latest else None,
        "opening_next": latest is None or latest.next_leader is None,
        "rules": rules,
        "rule_choices": rulesummary.rule_choices(rules),
        "rule_mode": rulesummary.mode_line(rules),
        # The short form of the history's head (scoring/engine/chain.py), under the games.
        "fingerprint": chain.fingerprint(head),
        "rule_prices": rulesummary.price_lines(rules),
        # The last check of the book, when it found a mismatch: said above the totals.
        "disagrees": disagrees,
    }


def _book_facts(sitting: Sitting) -> tuple[dict[str, int], str, BookCheck | None]:
    """``game_counts``, the head of the sitting's history, and its book's last check when
    that found a mismatch (else None): one query."""
    games = Game.objects.filter(sitting=OuterRef("pk")).order_by().values("sitting")

    def counted(status: str) -> Coalesce:
        return Coalesce(
            Subquery(games.filter(status=status).annotate(n=Count("pk")).values("n")), 0
        )

    row = (
        Sitting.objects.filter(pk=sitting.pk)
        .select_related("book_check")
        .only("pk", *(f"book_check__{f.name}" for f in BookCheck._meta.concrete_fields))
        .annotate(
            active=counted(Game.Status.ACTIVE),
            void=counted(Game.Status.VOID),
            head=Subquery(chain.hashes_newest_first(HistoryEntry, OuterRef("pk"))[:1]),
        )
        .first()
    )
    if row is None:  # deleted since the page found it: nothing left to count
        return {"game_count": 0, "void_count": 0}, "", None
    try:
        check: BookCheck | None = row.book_check
    except BookCheck.DoesNotExist:
        check = None
    counts = {"game_count": row.active, "void_count": row.void}
    return counts, row.head or "", check if check is not None and not check.ok else None


def game_counts(sitting: Sitting) -> dict[str, int]:
    """``game_count``: the active games; ``void_count``: the voided ones. One query."""
    counts = sitting.games.aggregate(
        active=Count("id", filter=Q(status=Game.Status.ACTIVE)),
        void=Count("id", filter=Q(status=Game.Status.VOID)),
    )
    return {"game_count": counts["active"], "void_count": counts["void"]}


def live_board(sitting: Sitting) -> dict[str, Any]:
    """What the public live page shows: the board's totals, latest games and leader, the
    fewest payments that settle up, and the running chart. Nothing else (no history, no
    usernames)."""
    context = board(sitting)
    return {
        "sitting": sitting,
        "rules": context["rules"],
        "totals": context["totals"],
        "games": context["page_obj"].object_list,
        "game_count": context["game_count"],
        "void_count": context["void_count"],
        "next_leader": context["next_leader"],
        "opening_next": context["opening_next"],
        "disagrees": context["disagrees"],
        "suggested": Ledger(
            sitting,
            context["members"],
            {t["player"].pk: t["balance"] for t in context["totals"]},
            {t["player"].pk: t["won"] for t in context["totals"]},
        ).plan(MIN, None),
        "chart": running_chart(sitting),
    }


def running_balances(sitting: Sitting) -> tuple[list[str], dict[str, list[int]]]:
    """Each player's running total after every active game: ``(game numbers, {name: values})``.

    Two queries whatever the number of games: the members, then every seat of the sitting's
    active games in game order. A member who sat a game out keeps their total for it.
    """
    names = {m.player_id: m.player.name for m in sitting.memberships.select_related("player")}
    rows = (
        Seat.objects.counted()
        .filter(game__sitting=sitting)
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
    series = {
        name: list(accumulate(game.get(player_id, 0) for game in nets))
        for player_id, name in names.items()
    }
    return [str(n) for n in numbers], series


def running_chart(sitting: Sitting) -> SafeString:
    """Each player's running balance over the sitting's games, as inline SVG."""
    labels, series = running_balances(sitting)
    svg = charts.line_chart(
        series,
        x_labels=labels,
        title=_("Tiền thắng thua qua các ván"),
        empty_text=_("Chưa có ván nào"),
    )
    return mark_safe(svg)  # charts.py escapes every name and label it draws
