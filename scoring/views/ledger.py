"""Who owes whom: balances, settle-up suggestions, settlements, and the pages that explain them.

Every number here is read from ``scoring.ledger`` (balances, statements, a player's lines)
and every plan comes from ``scoring.engine.settle``; these views only check access and show.
Each page is a constant number of queries, whatever the number of games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import ledger, services
from scoring.access import get_group_for_user, get_sitting_for_user, players_for, sittings_for
from scoring.forms.pages import (
    GroupSettlementForm,
    RangeForm,
    SettlementForm,
    SettlementVoidForm,
    plan_asked,
)
from scoring.ledger import verify
from scoring.ledger.settleup import (
    PlanAsked,
    SettlePage,
    group_settle_page,
    retry_data,
    settles_with_group,
    sitting_settle_page,
)
from scoring.models import Group, Membership, Player, Settlement, Sitting
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    redirect_with_query,
    wants_fragment,
)

# --- Settle up ----------------------------------------------------------------------------
#
# One page model (``SettlePage``) and one template for a table's settle-up and a group's: in
# a group, a table's settle-up is the group's open period beside the table's own results
# (``settles_with_group``), its payments the group's.

SETTLE_TEMPLATE = "scoring/settle.html"


def _settle_page(
    request: AuthenticatedHttpRequest,
    book: Sitting | Group,
    asked: PlanAsked,
    *,
    recorded: Settlement | None = None,
    voided: Settlement | None = None,
) -> SettlePage:
    """A table's or a group's settle-up as ``asked``, read now."""
    user_id, base_url = request.user.pk, request.build_absolute_uri("/")
    if isinstance(book, Group):
        return group_settle_page(
            book, asked, user_id=user_id, base_url=base_url, recorded=recorded, voided=voided
        )
    return sitting_settle_page(
        book, asked, user_id=user_id, base_url=base_url, recorded=recorded, voided=voided
    )


def render_settle(
    request: HtmxHttpRequest,
    page: SettlePage,
    form: SettlementForm | GroupSettlementForm | None = None,
    status: int = 200,
    *,
    conflict: str = "",
    fragment: bool | None = None,
) -> HttpResponse:
    """The settle-up ``page`` with its typed payment ``form`` (a fresh one when None), or its
    ``#settle`` part for htmx: htmx only swaps 2xx answers, so a refused form comes back as
    200 with its errors."""
    if form is None:
        form_class = GroupSettlementForm if page.group is not None else SettlementForm
        form = form_class(players=page.players, initial={"version": page.version})
    context = {"page": page, "form": form, "conflict": conflict}
    if wants_fragment(request) if fragment is None else fragment:
        return render(request, f"{SETTLE_TEMPLATE}#settle", context)
    return render(request, SETTLE_TEMPLATE, context, status=status)


def settle_answer(
    request: HtmxHttpRequest,
    page: SettlePage,
    form: SettlementForm | GroupSettlementForm | None = None,
) -> HttpResponse:
    """After a payment is recorded or voided: the settle-up again (``page``, read afresh) for
    htmx, else a message and a redirect to the settle-up, its plan kept (the plan as the
    ledger read it from the form: a method's name and a banker among the players, never the
    posted text)."""
    if wants_fragment(request):
        response = render_settle(request, page, form, fragment=True)
        # What the page's live region says (static/js/settle.js), the row in place or not.
        response["HX-Trigger"] = json.dumps({"tienlen:announce": page.announce})
        return response
    messages.success(request, page.announce)
    return redirect_with_query(page.settle_url, page.plan)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def sitting_settle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    return render_settle(request, _settle_page(request, sitting, plan_asked(request.GET)))


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_settle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    return render_settle(request, _settle_page(request, group, plan_asked(request.GET)))


@login_required
@require_POST
def settlement_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Record money handed over: a suggestion's button, or the free form ("A paid B …"). In
    a group, the payment is the group's (``settles_with_group``)."""
    sitting = get_sitting_for_user(request.user, pk)
    if settles_with_group(sitting):
        return _group_payment(request, sitting.group, sitting)
    players = [m.player for m in sitting.memberships.select_related("player")]
    form = SettlementForm(request.POST, players=players)
    asked = plan_asked(request.POST)
    if not form.is_valid():
        return render_settle(request, _settle_page(request, sitting, asked), form, status=422)
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
        page = _settle_page(request, sitting, asked)
        return render_settle(request, page, retry, 409, conflict=error.message)
    except services.InvalidInput as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return render_settle(request, _settle_page(request, sitting, asked), form, 422)
    sitting.refresh_from_db()
    return settle_answer(request, _settle_page(request, sitting, asked, recorded=settlement))


@login_required
@require_POST
def group_settlement_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One-tap "đã trả" on a suggestion, or a typed payment: a settlement of the group."""
    return _group_payment(request, get_group_for_user(request.user, pk), None)


def _group_payment(
    request: AuthenticatedHttpRequest, group: Group, sitting: Sitting | None
) -> HttpResponse:
    """A payment of the group, from its settle-up or a table's (``sitting``: dated the
    table's day unless another is typed). The form is checked, the service writes, and the
    settle-up is read once for the answer, whichever way the write went."""
    players = list(Player.objects.unmerged().filter(group=group))
    form = GroupSettlementForm(request.POST, players=players)
    asked = plan_asked(request.POST)
    # The form the answer offers next, made with the others; it takes the version the page
    # is read at once the write is done.
    fresh = GroupSettlementForm(players=players)
    recorded, status, conflict = None, 422, ""
    if form.is_valid():
        data = form.cleaned_data
        payer, payee = form.pair()
        try:
            recorded = services.group_settlement_record(
                group=group,
                date=data.get("day") or (sitting.date if sitting is not None else None),
                amount=data["amount"],
                payer=payer,
                payee=payee,
                user=request.user,
                expected_version=data["version"],
                token=form.token(),
            ).value
        except services.Conflict as error:
            status, conflict = 409, error.message
        except services.InvalidInput as error:
            field = "day" if error.field == "date" else error.field
            form.add_error(field if field in form.fields else None, error.message)
        group.refresh_from_db()
    # The page model straight after the write, from what was parsed before it; read here, not
    # through ``_settle_page``, so that the walk goes from the service straight to the ledger.
    user_id, base_url = request.user.pk, request.build_absolute_uri("/")
    if sitting is not None:
        sitting.refresh_from_db()
        page = sitting_settle_page(
            sitting, asked, user_id=user_id, base_url=base_url, recorded=recorded
        )
    else:
        page = group_settle_page(
            group, asked, user_id=user_id, base_url=base_url, recorded=recorded
        )
    fresh.initial = {"version": page.version}
    if recorded is not None:
        return settle_answer(request, page, fresh)
    if status == 409:
        # A typed payment stays in the form, ready to confirm against the new balances; a
        # suggestion's button is answered by the recomputed suggestions.
        fresh = retry_data(request.POST, page.version)
        retry = GroupSettlementForm(fresh, players=players) if fresh is not None else None
        return render_settle(request, page, retry, 409, conflict=conflict)
    return render_settle(request, page, form, status)


@login_required
@require_POST
def settlement_void(request: AuthenticatedHttpRequest, pk: int, settlement_id: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    if settles_with_group(sitting):
        wide = sitting.group.settlements.select_related("payer", "payee")
        found_wide = wide.filter(pk=settlement_id).first()
        if found_wide is not None:
            return _group_void(request, sitting.group, found_wide, sitting)
    found = get_object_or_404(
        sitting.settlements.select_related("payer", "payee"), pk=settlement_id
    )
    form = SettlementVoidForm(request.POST)
    asked = plan_asked(request.POST)
    if not form.is_valid():
        # Refused rather than cut at 200 characters, so nobody's words are silently changed.
        conflict = " ".join(str(e) for e in form.errors.get("reason", []))
        page = _settle_page(request, sitting, asked)
        return render_settle(request, page, None, 422, conflict=conflict)
    try:
        services.settlement_void(
            settlement=found, user=request.user, reason=form.cleaned_data["reason"]
        )
    except services.Conflict as error:  # a closed period
        page = _settle_page(request, sitting, asked)
        return render_settle(request, page, None, 409, conflict=error.message)
    sitting.refresh_from_db()
    return settle_answer(request, _settle_page(request, sitting, asked, voided=found))


@login_required
@require_POST
def group_settlement_void(
    request: AuthenticatedHttpRequest, pk: int, settlement_id: int
) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    found = get_object_or_404(group.settlements.select_related("payer", "payee"), pk=settlement_id)
    return _group_void(request, group, found, None)


def _group_void(
    request: AuthenticatedHttpRequest, group: Group, found: Settlement, sitting: Sitting | None
) -> HttpResponse:
    form = SettlementVoidForm(request.POST)

    def page(voided: Settlement | None = None) -> SettlePage:
        if sitting is not None:
            sitting.refresh_from_db()
        return _settle_page(request, sitting or group, plan_asked(request.POST), voided=voided)

    if not form.is_valid():  # refused, as a table's payment is, never cut short
        conflict = " ".join(str(e) for e in form.errors.get("reason", []))
        return render_settle(request, page(), None, 422, conflict=conflict)
    reason = form.cleaned_data["reason"]
    try:
        services.group_settlement_void(settlement=found, user=request.user, reason=reason)
    except (services.InvalidInput, services.Conflict) as error:  # Conflict: a closed period
        return render_settle(request, page(), None, 422, conflict=error.message)
    group.refresh_from_db()
    return settle_answer(request, page(voided=found))


# --- Explaining a number ----------------------------------------------------------------


def _member(sitting: Sitting, player_ids: Iterable[int]) -> list[Player]:
    ids = list(player_ids)
    members = Membership.objects.filter(sitting=sitting, player_id__in=ids).select_related("player")
    found = {m.player_id: m.player for m in members}
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
        "totals": ledger.line_totals(rows),
    }
    template = "scoring/player_ledger.html"
    return render(request, template + "#ledger" if wants_fragment(request) else template, context)
