"""Who owes whom: balances, settle-up suggestions, settlements, and the pages that explain them.

Every number here is read from the ledger (``services.balances``, the current payments of
active games, the settlements) and every plan comes from ``scoring.settle``; these views only
gather and show. Each page is a constant number of queries, whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import services
from scoring.access import get_sitting_for_user, sittings_for
from scoring.forms import RangeForm, SettlementForm, SettlementVoidForm
from scoring.ledger import BANKER, METHODS, MIN, Ledger, current_payments
from scoring.models import Game, Membership, Payment, Player, Seat, Settlement, Sitting
from scoring.money import vnd as format_vnd
from scoring.numbers import int_param

# --- Statements ---------------------------------------------------------------------


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


def _choice(params: Mapping[str, str], ledger: Ledger) -> tuple[str, Player | None]:
    method = params.get("method", MIN)
    if method not in METHODS:
        method = MIN
    banker = None
    if method == BANKER:
        banker_id = int_param(params, "banker")
        banker = ledger.by_id.get(banker_id) if banker_id is not None else None
        banker = banker or ledger.default_banker()
    return method, banker


def _settle_context(
    sitting: Sitting, params: Mapping[str, str], form: SettlementForm | None = None
) -> dict[str, Any]:
    ledger = Ledger.load(sitting)
    method, banker = _choice(params, ledger)
    return {
        "sitting": sitting,
        "rows": ledger.rows(),
        "players": ledger.players,
        "method": method,
        "banker": banker,
        "suggestions": ledger.plan(method, banker),
        "settlements": sitting.settlements.select_related("payer", "payee", "created_by").order_by(
            "-created_at", "-id"
        ),
        "form": form
        or SettlementForm(players=ledger.players, initial={"version": sitting.version}),
        "version": sitting.version,
        "view_query": _view_query(method, banker),
    }


def _view_query(method: str, banker: Player | None) -> str:
    params = {"method": method}
    if method == BANKER and banker is not None:
        params["banker"] = str(banker.pk)
    return urlencode(params)


def _fragment(request: HttpRequest) -> bool:
    """Whether to answer with the page's fragment: an htmx request, except the one htmx sends
    to restore a page from history (that one needs the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _render_settle(
    request: HttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    if _fragment(request):
        # htmx only swaps 2xx answers, so a refused form comes back as 200 with its errors.
        return render(request, "scoring/settle.html#settle", context)
    return render(request, "scoring/settle.html", context, status=status)


# --- Settle up --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def sitting_settle(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    return _render_settle(request, _settle_context(sitting, request.GET))


@login_required
@require_POST
def settlement_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Record money handed over: a suggestion's button, or the free form ("A paid B …")."""
    sitting = get_sitting_for_user(request.user, pk)
    players = [m.player for m in sitting.memberships.select_related("player")]
    form = SettlementForm(request.POST, players=players)
    if not form.is_valid():
        context = _settle_context(sitting, request.POST, form)
        return _render_settle(request, context, status=422)
    data = form.cleaned_data
    by_id = {p.pk: p for p in players}
    try:
        if data["payer"] not in by_id or data["payee"] not in by_id:
            raise services.LedgerError(_("Cả hai người phải là thành viên của bàn."), "payer")
        settlement = services.settlement_record(
            sitting=sitting,
            user=request.user,
            payer=by_id[data["payer"]],
            payee=by_id[data["payee"]],
            amount=data["amount"],
            expected_version=data["version"],
        )
    except services.Conflict as error:
        sitting.refresh_from_db()
        fresh = request.POST.copy()
        fresh["version"] = str(sitting.version)
        # A suggestion's button is answered by the recomputed suggestions; a typed payment
        # stays in the form, ready to be confirmed against the new balances.
        free = request.POST.get("kind") != "suggestion"
        retry = SettlementForm(fresh, players=players) if free else None
        context = _settle_context(sitting, request.POST, retry)
        context["conflict"] = error.message
        return _render_settle(request, context, status=409)
    except services.LedgerError as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return _render_settle(request, _settle_context(sitting, request.POST, form), status=422)
    notice = _("Đã ghi: %(payer)s trả %(payee)s %(amount)s.") % {
        "payer": settlement.payer.name,
        "payee": settlement.payee.name,
        "amount": format_vnd(settlement.amount),
    }
    return _after_change(request, sitting, notice)


def _after_change(request: HttpRequest, sitting: Sitting, notice: str) -> HttpResponse:
    if request.htmx:
        sitting.refresh_from_db()
        context = _settle_context(sitting, request.POST)
        context["notice"] = notice
        return render(request, "scoring/settle.html#settle", context)
    messages.success(request, notice)
    query = {key: request.POST[key] for key in ("method", "banker") if request.POST.get(key)}
    return redirect(f"{reverse('sitting_settle', args=[sitting.pk])}?{urlencode(query)}")


@login_required
@require_POST
def settlement_void(request: HttpRequest, pk: int, settlement_id: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    settlement = sitting.settlements.select_related("payer", "payee").filter(pk=settlement_id)
    found = settlement.first()
    if found is None:
        raise Http404
    form = SettlementVoidForm(request.POST)
    if not form.is_valid():
        # Refused rather than cut at 200 characters, so nobody's words are silently changed.
        context = _settle_context(sitting, request.POST)
        context["conflict"] = " ".join(form.errors.get("reason", []))
        return _render_settle(request, context, status=422)
    services.settlement_void(
        settlement=found, user=request.user, reason=form.cleaned_data["reason"]
    )
    notice = _("Đã huỷ khoản %(payer)s trả %(payee)s %(amount)s.") % {
        "payer": found.payer.name,
        "payee": found.payee.name,
        "amount": format_vnd(found.amount),
    }
    return _after_change(request, sitting, notice)


# --- Explaining a number ----------------------------------------------------------------


def _member(sitting: Sitting, player_ids: Iterable[int]) -> list[Player]:
    ids = list(player_ids)
    found = {
        m.player_id: m.player
        for m in Membership.objects.filter(sitting=sitting, player_id__in=ids).select_related(
            "player"
        )
    }
    if len(found) != len(set(ids)):
        raise Http404
    return [found[pk] for pk in ids]


def _entries(
    payments: Iterable[Payment], settlements: Iterable[Settlement], me: Player
) -> list[Entry]:
    """Statement lines for ``me``, oldest first, each with the running balance after it."""
    entries = []
    for p in payments:
        incoming = p.payee_id == me.pk
        entries.append(
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
        entries.append(
            Entry(
                at=s.created_at,
                order=(1, 0, s.pk),
                amount=s.amount if paid else -s.amount,
                other=s.payee if paid else s.payer,
                settlement=s,
            )
        )
    entries.sort(key=lambda e: (e.at, e.order))
    running = 0
    for entry in entries:
        running += entry.amount
        entry.running = running
    return entries


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def player_statement_in_sitting(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Every đồng in and out for one player in one sitting, adding up to their balance."""
    sitting = get_sitting_for_user(request.user, pk)
    (player,) = _member(sitting, [player_id])
    mine = Q(payer=player) | Q(payee=player)
    payments = current_payments(sitting).filter(mine).select_related("game", "payer", "payee")
    settlements = sitting.settlements.filter(mine).select_related("payer", "payee")
    settlements = list(settlements)
    entries = _entries(payments, [s for s in settlements if not s.is_void], player)
    others: dict[int, dict[str, Any]] = {}
    for entry in entries:
        row = others.setdefault(entry.other.pk, {"player": entry.other, "net": 0})
        row["net"] += entry.amount
    void_games = (
        Seat.objects.filter(game__sitting=sitting, game__status=Game.Status.VOID, player=player)
        .select_related("game")
        .order_by("game__number")
    )
    context = {
        "sitting": sitting,
        "player": player,
        "entries": entries,
        "balance": entries[-1].running if entries else 0,
        "games_total": sum(e.amount for e in entries if e.payment),
        "settled_total": sum(e.amount for e in entries if e.settlement),
        "others": sorted(others.values(), key=lambda r: r["player"].name),
        "void_games": void_games,
        "void_settlements": [s for s in settlements if s.is_void],
    }
    template = "scoring/statement.html"
    return render(request, template + "#statement" if _fragment(request) else template, context)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def pair_explain(request: HttpRequest, pk: int, a: int, b: int) -> HttpResponse:
    """Every game payment and settlement between two players, adding up to what one owes
    the other (the "as played" view of the pair)."""
    sitting = get_sitting_for_user(request.user, pk)
    if a == b:
        raise Http404
    first, second = _member(sitting, [a, b])
    between = Q(payer=first, payee=second) | Q(payer=second, payee=first)
    payments = current_payments(sitting).filter(between).select_related("game", "payer", "payee")
    settlements = sitting.settlements.filter(between, is_void=False).select_related(
        "payer", "payee"
    )
    entries = _entries(payments, settlements, first)
    net = entries[-1].running if entries else 0
    context = {
        "sitting": sitting,
        "first": first,
        "second": second,
        "entries": entries,
        "net": net,
        "debtor": second if net > 0 else first,
        "creditor": first if net > 0 else second,
        "owed": abs(net),
    }
    template = "scoring/pair.html"
    return render(request, template + "#pair" if _fragment(request) else template, context)


# --- One player across sittings ---------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def player_ledger(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's result in every sitting the user can see, optionally between two dates."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404
    ids = [player.pk, *Player.objects.filter(merged_into=player).values_list("pk", flat=True)]
    visible = sittings_for(request.user).filter(memberships__player_id__in=ids)
    # Someone else's player is shown only through the sittings shared with this user.
    if player.owner_id != request.user.pk and not visible.exists():
        raise Http404
    form = RangeForm(request.GET or None)
    if form.is_valid():
        if form.cleaned_data["start"]:
            visible = visible.filter(date__gte=form.cleaned_data["start"])
        if form.cleaned_data["end"]:
            visible = visible.filter(date__lte=form.cleaned_data["end"])
    sittings = list(visible.order_by("-date", "-id"))
    rows = _ledger_rows(sittings, ids)
    context = {
        "player": player,
        "form": form,
        "rows": rows,
        "games_total": sum(r["games"] for r in rows),
        "settled_total": sum(r["settled"] for r in rows),
        "balance_total": sum(r["balance"] for r in rows),
        "played_total": sum(r["played"] for r in rows),
    }
    template = "scoring/player_ledger.html"
    return render(request, template + "#ledger" if _fragment(request) else template, context)


def _ledger_rows(sittings: list[Sitting], ids: list[int]) -> list[dict[str, Any]]:
    """Per sitting: games net, settlements and balance of the player, in three queries."""
    pks = [s.pk for s in sittings]
    seats = (
        Seat.objects.filter(game__sitting__in=pks, game__status=Game.Status.ACTIVE, player__in=ids)
        .values("game__sitting")
        .annotate(total=Sum("net"), played=Count("id"))
    )
    won = {r["game__sitting"]: (r["total"], r["played"]) for r in seats}
    settled: dict[int, int] = defaultdict(int)
    paid = (
        Settlement.objects.filter(sitting__in=pks, is_void=False)
        .filter(Q(payer__in=ids) | Q(payee__in=ids))
        .values("sitting", "payer", "payee")
        .annotate(total=Sum("amount"))
    )
    for r in paid:
        if r["payer"] in ids:
            settled[r["sitting"]] += r["total"]
        if r["payee"] in ids:
            settled[r["sitting"]] -= r["total"]
    seat_of = dict(
        Membership.objects.filter(sitting__in=pks, player__in=ids).values_list("sitting", "player")
    )
    rows = []
    for s in sittings:
        total, played = won.get(s.pk, (0, 0))
        rows.append(
            {
                "sitting": s,
                "member": seat_of.get(s.pk, ids[0]),
                "games": total,
                "played": played,
                "settled": settled[s.pk],
                "balance": total + settled[s.pk],
            }
        )
    return rows
