"""Who owes whom: balances, settle-up suggestions, settlements, and the pages that explain them.

Every number here is read from ``scoring.ledger`` (balances, statements, a player's lines)
and every plan comes from ``scoring.engine.settle``; these views only check access and show.
Each page is a constant number of queries, whatever the number of games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import ledger, services
from scoring.access import get_sitting_for_user, players_for, sittings_for
from scoring.forms.pages import RangeForm, SettlementForm, SettlementVoidForm
from scoring.ledger import Ledger, verify
from scoring.ledger.settleup import (
    in_place,
    pay_row,
    plan_query,
    plan_rows,
    retry_data,
    settled_notice,
)
from scoring.ledger.share import sitting_text
from scoring.ledger.standing import close_covering, plan_choice
from scoring.models import Membership, Player, Settlement, Sitting
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    redirect_with_query,
    wants_fragment,
)

# --- Settle-up helpers -----------------------------------------------------------------


def _settle_context(
    sitting: Sitting,
    params: Mapping[str, Any],
    form: SettlementForm | None = None,
    recorded: tuple[int, Settlement] | None = None,
) -> dict[str, Any]:
    ledger = Ledger.load(sitting)
    method, banker = plan_choice(params, ledger)
    suggestions = ledger.plan(method, banker)
    done = sitting.settlements.select_related("payer", "payee")
    rows = plan_rows(suggestions, params, done, recorded)
    return {
        "sitting": sitting,
        "rows": ledger.rows(),
        "players": ledger.players,
        "method": method,
        "banker": banker,
        "suggestions": suggestions,
        **rows,
        "settlements": sitting.settlements.select_related("payer", "payee", "created_by").order_by(
            "-created_at", "-id"
        ),
        # What the share text lists as already paid, oldest first.
        "paid": list(
            sitting.settlements.standing()
            .select_related("payer", "payee")
            .order_by("created_at", "id")
        ),
        "form": form
        or SettlementForm(players=ledger.players, initial={"version": sitting.version}),
        "version": sitting.version,
        "view_query": _view_query(method, banker),
        "frozen": close_covering(sitting),
        # A sitting is closed whole (``frozen``); only a group's payments are closed one by one.
        "closed_ids": frozenset(),
        "settle_url": reverse("sitting_settle", args=[sitting.pk]),
        "new_url": reverse("settlement_new", args=[sitting.pk]),
        "void_url": "settlement_void",
        "owner_pk": sitting.pk,
    }


def _view_query(method: str, banker: Player | None) -> str:
    return urlencode(plan_query(method, banker))


SETTLE_TEMPLATE = "scoring/settle.html"


def render_settle(
    request: HtmxHttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """A sitting's settle-up page, or its fragment. (A group's is its page model,
    ``scoring.ledger.settleup.settle_page``.)"""
    context["share_text"] = share_text(request, context)
    if wants_fragment(request):
        # htmx only swaps 2xx answers, so a refused form comes back as 200 with its errors.
        return render(request, f"{SETTLE_TEMPLATE}#settle", context)
    return render(request, SETTLE_TEMPLATE, context, status=status)


def share_text(request: HttpRequest, context: Mapping[str, Any]) -> str:
    """What "Chia sẻ" shares from a sitting's settle-up ``context``: the totals, the payments
    already made (``paid``), the plan the page shows and the live link (the whole address)
    when it is on."""
    sitting = context["sitting"]
    token = sitting.live_token
    url = request.build_absolute_uri(reverse("live", args=[token])) if token else None
    return sitting_text(sitting, context["rows"], context["suggestions"], url, context["paid"])


# --- Settle up --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def sitting_settle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    return render_settle(request, _settle_context(sitting, request.GET))


@login_required
@require_POST
def settlement_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Record money handed over: a suggestion's button, or the free form ("A paid B …")."""
    sitting = get_sitting_for_user(request.user, pk)
    players = [m.player for m in sitting.memberships.select_related("player")]
    form = SettlementForm(request.POST, players=players)
    if not form.is_valid():
        context = _settle_context(sitting, request.POST, form)
        return render_settle(request, context, status=422)
    data = form.cleaned_data
    try:
        payer, payee = form.pair()
        settlement = services.settlement_record(
            sitting=sitting,
            user=request.user,
            payer=payer,
            payee=payee,
            amount=data["amount"],
            expected_version=data["version"],
            token=form.token(),
        )
    except services.Conflict as error:
        sitting.refresh_from_db()
        fresh = retry_data(request.POST, str(sitting.version))
        retry = SettlementForm(fresh, players=players) if fresh is not None else None
        context = _settle_context(sitting, request.POST, retry)
        context["conflict"] = error.message
        return render_settle(request, context, status=409)
    except services.InvalidInput as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return render_settle(request, _settle_context(sitting, request.POST, form), status=422)
    recorded = pay_row(request.POST, settlement)
    return _after_change(request, sitting, settled_notice(settlement), recorded)


def settle_answer(
    request: HtmxHttpRequest, notice: str, context: Callable[[], dict[str, Any]], page: str
) -> HttpResponse:
    """After a payment is recorded or voided: the settle-up again (``context`` reads it
    afresh) for htmx, else a message and a redirect to the settle-up ``page``, its plan kept
    (the plan as ``plan_choice`` read it from the form: a method's name and a banker among the
    ledger's players, never the posted text)."""
    answer = context()
    if request.htmx:
        # A tap on a row of the plan is answered in that row ("✓ Đã ghi …", or the suggestion
        # back after "Hoàn tác"): a notice above it would push the row from under the finger.
        if not in_place(request.POST):
            answer["notice"] = notice
        answer["share_text"] = share_text(request, answer)
        response = render(request, f"{SETTLE_TEMPLATE}#settle", answer)
        # What the page's live region says (static/js/settle.js), the row in place or not.
        response["HX-Trigger"] = json.dumps({"tienlen:announce": notice})
        return response
    messages.success(request, notice)
    return redirect_with_query(page, plan_query(answer["method"], answer["banker"]))


def _after_change(
    request: HtmxHttpRequest,
    sitting: Sitting,
    notice: str,
    recorded: tuple[int, Settlement] | None = None,
) -> HttpResponse:
    def context() -> dict[str, Any]:
        sitting.refresh_from_db()
        return _settle_context(sitting, request.POST, recorded=recorded)

    return settle_answer(request, notice, context, reverse("sitting_settle", args=[sitting.pk]))


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
        return render_settle(request, context, status=422)
    try:
        services.settlement_void(
            settlement=found, user=request.user, reason=form.cleaned_data["reason"]
        )
    except services.Conflict as error:  # a closed period
        context = _settle_context(sitting, request.POST)
        context["conflict"] = error.message
        return render_settle(request, context, status=409)
    return _after_change(request, sitting, settled_notice(found, voided=True))


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
    context = {
        "sitting": sitting,
        "player": player,
        **ledger.player_statement(sitting, player),
        "fingerprint": verify.fingerprint_of(sitting),
    }
    template = "scoring/statement.html"
    return render(
        request, template + "#statement" if wants_fragment(request) else template, context
    )


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
    return render(request, template + "#pair" if wants_fragment(request) else template, context)


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
    return render(request, template + "#ledger" if wants_fragment(request) else template, context)
