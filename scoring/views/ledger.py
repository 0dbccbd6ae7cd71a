"""Who owes whom: balances, settle-up suggestions, settlements, and the pages that explain them.

Every number here is read from ``scoring.ledger`` (balances, statements, a player's lines)
and every plan comes from ``scoring.settle``; these views only check access and show. Each page is
a constant number of queries, whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import ledger, services
from scoring.access import get_sitting_for_user, players_for, sittings_for
from scoring.forms import RangeForm, SettlementForm, SettlementVoidForm
from scoring.http import AuthenticatedHttpRequest, HtmxHttpRequest
from scoring.ledger import BANKER, METHODS, MIN, Ledger
from scoring.models import Membership, Player, Sitting
from scoring.money import vnd as format_vnd
from scoring.numbers import int_param

# --- Settle-up helpers -----------------------------------------------------------------


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


def _fragment(request: HtmxHttpRequest) -> bool:
    """Whether to answer with the page's fragment: an htmx request, except the one htmx sends
    to restore a page from history (that one needs the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _render_settle(
    request: HtmxHttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    if _fragment(request):
        # htmx only swaps 2xx answers, so a refused form comes back as 200 with its errors.
        return render(request, "scoring/settle.html#settle", context)
    return render(request, "scoring/settle.html", context, status=status)


# --- Settle up --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def sitting_settle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    return _render_settle(request, _settle_context(sitting, request.GET))


@login_required
@require_POST
def settlement_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
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
            raise services.InvalidInput(_("Cả hai người phải là thành viên của bàn."), "payer")
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
    except services.InvalidInput as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return _render_settle(request, _settle_context(sitting, request.POST, form), status=422)
    notice = _("Đã ghi: %(payer)s trả %(payee)s %(amount)s.") % {
        "payer": settlement.payer.name,
        "payee": settlement.payee.name,
        "amount": format_vnd(settlement.amount),
    }
    return _after_change(request, sitting, notice)


def _after_change(request: HtmxHttpRequest, sitting: Sitting, notice: str) -> HttpResponse:
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
def settlement_void(request: AuthenticatedHttpRequest, pk: int, settlement_id: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    found = get_object_or_404(
        sitting.settlements.select_related("payer", "payee"), pk=settlement_id
    )
    form = SettlementVoidForm(request.POST)
    if not form.is_valid():
        # Refused rather than cut at 200 characters, so nobody's words are silently changed.
        context = _settle_context(sitting, request.POST)
        context["conflict"] = " ".join(str(e) for e in form.errors.get("reason", []))
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


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def player_statement_in_sitting(
    request: AuthenticatedHttpRequest, pk: int, player_id: int
) -> HttpResponse:
    """Every đồng in and out for one player in one sitting, adding up to their balance."""
    sitting = get_sitting_for_user(request.user, pk)
    (player,) = _member(sitting, [player_id])
    context = {"sitting": sitting, "player": player, **ledger.player_statement(sitting, player)}
    template = "scoring/statement.html"
    return render(request, template + "#statement" if _fragment(request) else template, context)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def pair_explain(request: AuthenticatedHttpRequest, pk: int, a: int, b: int) -> HttpResponse:
    """Every game payment and settlement between two players, adding up to what one owes
    the other (the "as played" view of the pair)."""
    sitting = get_sitting_for_user(request.user, pk)
    if a == b:
        raise Http404
    first, second = _member(sitting, [a, b])
    context = {
        "sitting": sitting,
        "first": first,
        "second": second,
        **ledger.pair_statement(sitting, first, second),
    }
    template = "scoring/pair.html"
    return render(request, template + "#pair" if _fragment(request) else template, context)


# --- One player across sittings ---------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def player_ledger(request: AuthenticatedHttpRequest, player_id: int) -> HttpResponse:
    """A player's result in every sitting the user can see, optionally between two dates."""
    player = get_object_or_404(Player, pk=player_id)
    ids = [player.pk, *Player.objects.filter(merged_into=player).values_list("pk", flat=True)]
    visible = sittings_for(request.user).filter(memberships__player_id__in=ids)
    # A player of a group this user keeps score for is theirs to see; someone else's player
    # only through the sittings shared with this user.
    mine = players_for(request.user).filter(pk=player.pk).exists()
    if not mine and not visible.exists():
        raise Http404
    form = RangeForm(request.GET or None)
    if form.is_valid():
        if form.cleaned_data["start"]:
            visible = visible.filter(date__gte=form.cleaned_data["start"])
        if form.cleaned_data["end"]:
            visible = visible.filter(date__lte=form.cleaned_data["end"])
    sittings = list(visible.order_by("-date", "-id"))
    rows = ledger.player_lines(ids, sittings)
    context = {
        "player": player,
        "form": form,
        "rows": rows,
        "games_total": sum(r.net for r in rows),
        "settled_total": sum(r.settled for r in rows),
        "balance_total": sum(r.balance for r in rows),
        "played_total": sum(r.games for r in rows),
    }
    template = "scoring/player_ledger.html"
    return render(request, template + "#ledger" if _fragment(request) else template, context)
