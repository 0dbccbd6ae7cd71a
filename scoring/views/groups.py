"""Groups in the browser: the list, a group's page and standing balance, its settle-up,
statements, live link, sharing, closing a period, moving sittings and merging players.

Every number comes from ``scoring.ledger.groups`` (one load of the group's ledger per page,
the same handful of queries whatever the number of sittings) and every write goes through
``scoring.services``; these views only gather and show. Anyone who is neither the
owner nor an accepted scorekeeper of a group gets a 404 on every page and action of it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.formats import date_format
from django.utils.http import content_disposition_header, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import charts, services, stats, vietqr
from scoring.access import get_group_for_owner, get_group_for_user, groups_for
from scoring.forms import (
    CloseForm,
    GroupForm,
    GroupMergeForm,
    GroupSettlementForm,
    GroupSittingForm,
    MoveForm,
    RangeForm,
)
from scoring.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    redirect_with_query,
    wants_fragment,
)
from scoring.ledger import game_totals, verify
from scoring.ledger import groups as group_ledger
from scoring.ledger.checks import group_disagreeing
from scoring.models import Group, Invitation, Player, Settlement, Sitting
from scoring.numbers import int_param
from scoring.oneatatime import one_at_a_time
from scoring.poll import poll_etag, poll_response
from scoring.views.ledger import (
    pay_row,
    pay_token,
    payment_pair,
    plan_choice,
    plan_rows,
    render_settle,
    retry_data,
    settle_answer,
    settled_notice,
)
from scoring.views.live import live_settings
from scoring.views.sharing import Shared, leave_view, sharing_views
from scoring.views.sittings import open_from_form

# --- Reading a group (scoring.ledger.groups) ------------------------------------------------


def _group_player(group: Group, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, group=group)


def _rows(ledger: group_ledger.GroupLedger) -> list[dict[str, Any]]:
    return ledger.rows()


def _chart(ledger: group_ledger.GroupLedger) -> str:
    labels, series = group_ledger.balance_series(ledger)
    series = {name: values for name, values in series.items() if any(values)}
    svg = charts.line_chart(
        series if labels else {},
        x_labels=labels if labels and series else None,
        title=_("Số dư qua các bàn"),
        empty_text=_("Chưa có bàn nào"),
    )
    return mark_safe(svg)  # charts.py escapes every name and label it draws


# A long night has hundreds of games: a statement's "Từng ván" and a suggestion's "Vì sao?"
# name only the first few of each sitting and link to the sitting's own pages for the rest.
GAMES_SHOWN = 12  # per sitting of a statement
GAMES_EXPLAINED = 5  # per sitting of a suggestion's "why?"


def _games_limit(shown: int) -> dict[str, Any]:
    return {"games_limit": shown, "games_shown": f":{shown}", "games_minus": -shown}


# --- Periods (the maths is the ledger's: group_ledger.period_range) -----------------------

Period = group_ledger.Period


def resolve_period(
    group: Group, params: Mapping[str, str]
) -> tuple[str, date | None, date | None, RangeForm]:
    """The period a page asks for (``?period=``, as ``_periods.html`` links it): its key and
    range (``group_ledger.period_range``), and the form of a range of the page's own."""
    key = group_ledger.period_key(params.get("period"))
    form = RangeForm(params if key == "custom" else None)
    custom = None
    if key == "custom" and form.is_valid():
        custom = (form.cleaned_data["start"], form.cleaned_data["end"])
    start, end = group_ledger.period_range(key, timezone.localdate(), custom)
    return key, start, end, form


def _load(
    group: Group, params: Mapping[str, str]
) -> tuple[group_ledger.GroupLedger, Period, RangeForm]:
    """The group's ledger over the period the page asks for (``group_ledger.load_period``)."""
    key, start, end, form = resolve_period(group, params)
    ledger, period = group_ledger.load_period(group, key, start, end)
    return ledger, period, form


def period_choices() -> list[tuple[str, str]]:
    return [
        ("open", _("Kỳ đang mở")),
        ("week", _("Tuần này")),
        ("month", _("Tháng này")),
        ("all", _("Mọi lúc")),
    ]


def period_query(period: Period) -> str:
    return urlencode(period.query())


# --- The list and a group's page -----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(owner=request.user, name=form.cleaned_data["name"]).value
        except services.InvalidInput as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, _("Đã tạo nhóm “%(name)s”.") % {"name": group.label})
            return redirect(group)
    groups = list(groups_for(request.user).select_related("owner"))
    counts = group_ledger.sitting_counts(groups)
    rows = [{"group": g, "sittings": counts.get(g.pk, 0)} for g in groups]
    invitations = Invitation.objects.filter(
        invitee=request.user, status=Invitation.Status.PENDING, group__isnull=False
    ).select_related("group", "invited_by")
    status = 422 if form.errors else 200
    return render(
        request,
        "groups/list.html",
        {"rows": rows, "form": form, "invitations": invitations},
        status=status,
    )


# A group's page and a statement show the latest sittings and lines, older ones on request
# ("Xem các bàn cũ hơn"): after five years of play a page still reads only what it shows.
SITTINGS_SHOWN = 10
LINES_SHOWN = 20
MOST_SHOWN = 1000  # what one request may ask for at most


def _shown(params: Mapping[str, str], key: str, step: int) -> int:
    """How many of a list the page asks for (``?sittings=``, ``?lines=``): ``step`` by
    default, whole steps up to ``MOST_SHOWN``."""
    asked = int_param(params, key) or step
    return min(max(step, asked), MOST_SHOWN)


def _more_query(period: Period, key: str, shown: int, step: int) -> str:
    """The query string of the same page showing ``step`` more (the period kept)."""
    query: dict[str, str | int] = {**period.query(), key: min(shown + step, MOST_SHOWN)}
    return urlencode(query)


def _group_context(request: AuthenticatedHttpRequest, group: Group) -> dict[str, Any]:
    ledger, period, range_form = _load(group, request.GET)
    shown = _shown(request.GET, "sittings", SITTINGS_SHOWN)
    sittings = group_ledger.period_sittings(group, period, limit=shown)
    in_period = len(sittings) if len(sittings) < shown else group_ledger.period_count(group, period)
    close = ledger.close
    tonight = group_ledger.tonight(group)
    closable = group_ledger.latest_open_sitting(group)
    today = timezone.localdate()
    closed_last_day: list[Sitting] = []
    closed_earlier = 0
    if close is not None:
        closed_last_day = list(
            group.sittings.filter(
                date=close.closes_through, pk__lte=close.through_sitting_id or 0
            ).order_by("id")
        )
        closed_earlier = group.sittings.filter(date__lt=close.closes_through).count()
    return {
        "group": group,
        "is_owner": group.owner_id == request.user.pk,
        # Tonight's sitting (or last night's, for an evening past midnight), one tap away;
        # a locked one is not being played: it is listed under the close instead.
        "tonight": (
            tonight
            if tonight is not None
            and (close is None or not close.covers_sitting(tonight.date, tonight.pk))
            else None
        ),
        "close_label": close_label(closable.date, closable, today) if closable else "",
        "disagrees": group_disagreeing(group),
        "closed_last_day": closed_last_day,
        "closed_earlier": closed_earlier,
        "locked_ids": {
            s.pk for s in sittings if close is not None and close.covers_sitting(s.date, s.pk)
        },
        "rows": _rows(ledger),
        "period": period,
        "period_query": period_query(period),
        "period_choices": period_choices(),
        "show_opening": period.start is not None,
        "range_form": range_form,
        "closed": ledger.close,
        "sittings": sittings,
        "sittings_in_period": in_period,
        "older_sittings": in_period - len(sittings),
        "more_sittings_query": _more_query(period, "sittings", shown, SITTINGS_SHOWN)
        if in_period > len(sittings) and shown < MOST_SHOWN
        else "",
        "sitting_count": group.sittings.count(),
        "players": [p for p in ledger.players if p.merged_into_id is None],
        "scorekeepers": group.scorekeepers.order_by("username"),
        "chart": _chart(ledger),
        "closes": group.period_closes.select_related("created_by", "through_sitting")[:10],
    }


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    context = _group_context(request, group)
    template = "groups/group.html"
    return render(request, template + "#ledger" if wants_fragment(request) else template, context)


# --- Settle-up -----------------------------------------------------------------------------


def _settle_context(
    request: AuthenticatedHttpRequest,
    group: Group,
    params: Mapping[str, Any],
    form: GroupSettlementForm | None = None,
    recorded: tuple[int, Settlement] | None = None,
) -> dict[str, Any]:
    # The whole standing balance (the open period's opening included) is what gets settled.
    ledger = group_ledger.GroupLedger.load(group)
    version = group_ledger.ledger_version(group)
    method, banker = plan_choice(params, ledger)
    players = [p for p in ledger.players if p.merged_into_id is None]
    suggestions, too_many = group_ledger.plan_offered(ledger, method, banker)
    group_settlements = group_ledger.recent_settlements(group, limit=50)
    # Whoever has no account a code can pay is named once under the plan, not on every row.
    no_bank = {s.payee.pk: s.payee.name for s in suggestions if not group_ledger.has_bank(s.payee)}
    return {
        "group": group,
        "rows": _rows(ledger),
        "show_opening": ledger.close is not None,
        "players": players,
        "method": method,
        "banker": banker,
        "suggestions": suggestions,
        **plan_rows(
            suggestions, params, group.settlements.select_related("payer", "payee"), recorded
        ),
        "too_many": too_many,
        "settlements": group_settlements,
        # The open period's payments (its sittings' own and the group's), for the share text.
        "paid": sorted(ledger.settlements, key=lambda s: (s.created_at, s.pk)),
        "closed_ids": group_ledger.closed_ids(group_settlements, ledger.close),
        "no_bank_ids": set(no_bank),
        "no_bank_names": sorted(no_bank.values()),
        "form": form or GroupSettlementForm(players=players, initial={"version": version}),
        "version": version,
        "bank_link": group.owner_id == request.user.pk,
        "settle_url": reverse("group_settle", args=[group.pk]),
        "new_url": reverse("group_settlement_new", args=[group.pk]),
        "void_url": "group_settlement_void",
        "owner_pk": group.pk,
    }


def _render_settle(
    request: AuthenticatedHttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    return render_settle(request, context, status, template="groups/settle.html")


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_settle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    return _render_settle(request, _settle_context(request, group, request.GET))


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_why(
    request: AuthenticatedHttpRequest, pk: int, payer_id: int, payee_id: int
) -> HttpResponse:
    """Why a suggestion says ``payer`` pays ``payee``: the two balances per sitting of the
    standing ledger, the games between them (the first few per sitting) and the payments made.
    Opened from the settle-up's "Vì sao?" (its fragment) or on a page of its own."""
    group = get_group_for_user(request.user, pk)
    if payer_id == payee_id:
        raise Http404
    payer, payee = _group_player(group, payer_id), _group_player(group, payee_id)
    context = {
        "group": group,
        "s": group_ledger.explained(group, payer, payee),
        **_games_limit(GAMES_EXPLAINED),
    }
    template = "groups/why.html"
    return render(request, template + "#why" if wants_fragment(request) else template, context)


@login_required
@require_POST
def group_settlement_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One-tap "đã trả" on a suggestion, or a typed payment: a settlement of the group."""
    group = get_group_for_user(request.user, pk)
    players = list(Player.objects.filter(group=group, merged_into=None))
    form = GroupSettlementForm(request.POST, players=players)
    if not form.is_valid():
        return _render_settle(request, _settle_context(request, group, request.POST, form), 422)
    data = form.cleaned_data
    try:
        payer, payee = payment_pair(players, data, _("Cả hai người phải ở trong nhóm."))
        settlement = services.group_settlement_record(
            group=group,
            date=data.get("day"),
            amount=data["amount"],
            payer=payer,
            payee=payee,
            user=request.user,
            expected_version=data["version"],
            token=pay_token(request.POST),
        ).value
    except services.Conflict as error:
        group.refresh_from_db()
        fresh = retry_data(request, group_ledger.ledger_version(group))
        retry = GroupSettlementForm(fresh, players=players) if fresh is not None else None
        context = _settle_context(request, group, request.POST, retry)
        context["conflict"] = error.message
        return _render_settle(request, context, status=409)
    except services.InvalidInput as error:
        field = "day" if error.field == "date" else error.field
        form.add_error(field if field in form.fields else None, error.message)
        return _render_settle(request, _settle_context(request, group, request.POST, form), 422)
    recorded = pay_row(request.POST, settlement)
    return _after_settle(request, group, settled_notice(settlement), recorded)


def _after_settle(
    request: AuthenticatedHttpRequest,
    group: Group,
    notice: str,
    recorded: tuple[int, Settlement] | None = None,
) -> HttpResponse:
    def context() -> dict[str, Any]:
        group.refresh_from_db()
        return _settle_context(request, group, request.POST, recorded=recorded)

    page = reverse("group_settle", args=[group.pk])
    return settle_answer(request, notice, context, page, template="groups/settle.html")


@login_required
@require_POST
def group_settlement_void(
    request: AuthenticatedHttpRequest, pk: int, settlement_id: int
) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    found = get_object_or_404(group.settlements.select_related("payer", "payee"), pk=settlement_id)
    reason = (request.POST.get("reason") or "").strip()[:200]
    try:
        services.group_settlement_void(settlement=found, user=request.user, reason=reason)
    except services.InvalidInput as error:
        context = _settle_context(request, group, request.POST)
        context["conflict"] = error.message
        return _render_settle(request, context, status=422)
    return _after_settle(request, group, settled_notice(found, voided=True))


# --- Statements ----------------------------------------------------------------------------


def _statement_context(
    request: AuthenticatedHttpRequest, group: Group, player: Player, *, limited: bool = True
) -> dict[str, Any]:
    """The statement page's context: its latest lines (``?lines=``), or every line
    (``limited`` False: the downloads)."""
    ledger, period, range_form = _load(group, request.GET)
    shown = _shown(request.GET, "lines", LINES_SHOWN) if limited else None
    summary = group_ledger.statement_summary(group, player, ledger, period, limit=shown)
    labels, series = group_ledger.balance_series(ledger, [player.pk])
    mine = series.get(player.name, [])
    chart = charts.line_chart(
        {player.name: mine} if labels and mine else {},
        x_labels=labels if labels and mine else None,
        title=_("Số dư qua các bàn"),
        empty_text=_("Chưa có bàn nào"),
    )
    return {
        "group": group,
        "player": player,
        "period": period,
        "period_query": period_query(period),
        "period_choices": period_choices(),
        "range_form": range_form,
        "closed": ledger.close,
        "summary": summary,
        "opening": summary.opening,
        "lines": summary.lines,
        "closing": summary.closing,
        "games_total": summary.games_total,
        "settled_total": summary.settled_total,
        "older_lines": summary.older,
        "before_shown": summary.before_shown,
        "more_lines_query": _more_query(period, "lines", len(summary.lines), LINES_SHOWN)
        if summary.older and shown is not None and shown < MOST_SHOWN
        else "",
        "chart": mark_safe(chart),  # charts.py escapes every name and label it draws
    }


@login_required
@require_http_methods(["GET"])
def group_statement(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    if player.merged_into_id is not None:  # a merged name: its rows are the kept player's now
        url = reverse("group_statement", args=[group.pk, player.merged_into_id])
        _key, start, end, _form = resolve_period(group, request.GET)
        return redirect_with_query(url, Period(_key, start, end).query())
    return render(request, "groups/statement.html", _statement_context(request, group, player))


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_statement_games(
    request: AuthenticatedHttpRequest, pk: int, player_id: int, sitting_id: int
) -> HttpResponse:
    """A statement line's "Từng ván": the player's first games of one sitting of the group,
    each linked to the game and the revision that counts. Loaded into the line when opened
    (its fragment), so a statement of many sittings stays light, or a page of its own."""
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    if player.merged_into_id is not None:
        return redirect("group_statement_games", group.pk, player.merged_into_id, sitting_id)
    sitting = get_object_or_404(Sitting, pk=sitting_id, group=group)
    games, count = group_ledger.sitting_games(group, player, sitting, GAMES_SHOWN)
    context = {
        "group": group,
        "player": player,
        "sitting": sitting,
        "games": games,
        "game_count": count,
        "more": count - len(games),
    }
    template = "groups/statement_games.html"
    return render(request, template + "#games" if wants_fragment(request) else template, context)


def _stem(group: Group, player: Player) -> str:
    clean = "".join(
        c if c.isalnum() else "-" for c in vietqr.strip_diacritics(f"{group.name}-{player.name}")
    )
    return "-".join(part for part in clean.lower().split("-") if part) or "statement"


@login_required
@require_http_methods(["GET"])
def group_statement_csv(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    context = _statement_context(request, group, player, limited=False)
    body = group_ledger.statement_csv(context["summary"])
    response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, f"{_stem(group, player)}.csv"
    )
    return response


@login_required
@require_http_methods(["GET"])
def group_statement_json(
    request: AuthenticatedHttpRequest, pk: int, player_id: int
) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    context = _statement_context(request, group, player, limited=False)
    body = group_ledger.statement_json(group, context["summary"], context["period"])
    response = HttpResponse(
        json.dumps(body, ensure_ascii=False, indent=2).encode("utf-8"),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"{_stem(group, player)}.json"
    )
    return response


# --- Closing a period ----------------------------------------------------------------------


def _close_sitting(group: Group, sitting_id: int | None) -> Sitting | None:
    if sitting_id is None:
        return None
    return get_object_or_404(Sitting, pk=sitting_id, group=group)


def close_label(day: date, sitting: Sitting | None, today: date) -> str:
    """What the close button says: tonight's close names its table."""
    d = date_format(day, "SHORT_DATE_FORMAT")
    if sitting is None:
        return _("Chốt sổ đến hết ngày %(d)s") % {"d": d}
    if today - timedelta(days=1) <= day <= today:
        return _("Chốt sổ đến hết tối nay (bàn %(s)s)") % {"s": sitting.name}
    return _("Chốt sổ đến hết ngày %(d)s (bàn %(s)s)") % {"d": d, "s": sitting.name}


@login_required
@require_http_methods(["GET", "POST"])
def group_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """ "Close the period": what closing tonight (or through a day) would lock and carry,
    and the close itself in one tap (undoable on the group's page)."""
    group = get_group_for_user(request.user, pk)
    form = CloseForm(request.POST if request.method == "POST" else None)
    today = timezone.localdate()
    if request.method == "POST" and form.is_valid():
        sitting = _close_sitting(group, form.cleaned_data["sitting"])
        day = sitting.date if sitting else form.cleaned_data["closes_through"]
        try:
            services.period_close(group=group, user=request.user, through=day, sitting=sitting)
        except services.InvalidInput as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("Đã chốt sổ đến hết ngày %(d)s. Số dư được mang sang kỳ mới.")
                % {"d": date_format(day, "SHORT_DATE_FORMAT")},
            )
            return redirect(group)
    sitting = None
    day = None
    if form.is_bound:
        sitting = _close_sitting(group, form.cleaned_data.get("sitting"))
        day = form.cleaned_data.get("closes_through")
    elif "closes_through" in request.GET:
        asked = RangeForm({"start": request.GET.get("closes_through", "")})
        day = asked.cleaned_data["start"] if asked.is_valid() else None
    else:
        sitting = group_ledger.latest_open_sitting(group)
    if sitting is None and day is None:
        day = today
    preview = group_ledger.close_preview(group, day or today, sitting)
    context = {
        "group": group,
        "form": form,
        "day": preview.day,
        "sitting": preview.sitting,
        "label": close_label(preview.day, preview.sitting, today),
        "carried": preview.carried,
        "locks": preview.locks,
        "frozen": preview.frozen,
        "closed": preview.closed,
    }
    return render(request, "groups/close.html", context, status=422 if form.errors else 200)


@login_required
@require_POST
def group_reopen(request: AuthenticatedHttpRequest, pk: int, close_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    close = group_ledger.last_close(group)
    if close is None or close.pk != close_id:  # only the latest close can be undone
        raise Http404
    services.period_close_undo(group=group, user=request.user)
    messages.success(
        request,
        _("Đã huỷ chốt sổ đến hết ngày %(d)s; các bàn trong kỳ đó mở lại.")
        % {"d": date_format(close.closes_through, "SHORT_DATE_FORMAT")},
    )
    return redirect(group)


# --- Opening a sitting in the group, moving one, merging players ---------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_sitting_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A new table in the group, prefilled from its last one (``GroupSittingForm``)."""
    group = get_group_for_user(request.user, pk)
    last = group.sittings.order_by("-date", "-id").first()
    names = group_ledger.seating_names(group, last)
    form = GroupSittingForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        names=names,
        last=last,
    )
    if request.method == "POST" and form.is_valid():
        opened = open_from_form(request, form, group)
        if opened is not None:
            return opened
    context = {"form": form, "group": group, "last": last}
    return render(request, "groups/sitting_new.html", context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_move(request: AuthenticatedHttpRequest, pk: int, sitting_id: int) -> HttpResponse:
    """Move one of the group's sittings to another group of the same owner."""
    group = get_group_for_owner(request.user, pk)
    sitting = get_object_or_404(group.sittings, pk=sitting_id)
    targets = Group.objects.filter(owner=group.owner).exclude(pk=group.pk).select_related("owner")
    form = MoveForm(request.POST or None, groups=targets)
    if request.method == "POST" and form.is_valid():
        target = targets.get(pk=form.cleaned_data["target"])
        try:
            services.sitting_move(sitting=sitting, to_group=target, user=request.user)
        except services.InvalidInput as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("Đã chuyển bàn “%(s)s” sang nhóm “%(g)s”.")
                % {"s": sitting.name, "g": target.label},
            )
            return redirect(target)
    context = {"group": group, "sitting": sitting, "form": form, "targets": targets}
    return render(request, "groups/move.html", context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def group_merge(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Two names of one person inside the group become one."""
    group = get_group_for_owner(request.user, pk)
    players = list(Player.objects.filter(group=group, merged_into=None).order_by("name"))
    form = GroupMergeForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in players}
        keep = by_id.get(form.cleaned_data["keep"])
        duplicate = by_id.get(form.cleaned_data["duplicate"])
        if keep is None or duplicate is None:
            raise Http404
        try:
            services.group_player_merge(
                group=group, keep=keep, duplicate=duplicate, user=request.user
            )
        except services.InvalidInput as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("Đã gộp %(dup)s vào %(keep)s.") % {"dup": duplicate, "keep": keep}
            )
            return redirect(group)
    context = {"group": group, "form": form, "players": players}
    return render(request, "groups/merge.html", context, status=422 if form.errors else 200)


# --- Sharing -------------------------------------------------------------------------------


def _shared(request: AuthenticatedHttpRequest, group: Group) -> Shared:
    user = request.user
    return Shared(
        "group",
        group,
        group.label,
        "group_share",
        "group_invitation_withdraw",
        "group_keeper_remove",
        invite=lambda username: services.group_invite(group=group, user=user, username=username),
        sent=_(
            "Đã gửi lời mời tới “%(u)s”. Nếu có tài khoản này, người đó sẽ thấy lời mời "
            "trên trang chủ của mình; nhóm chỉ được chia sẻ khi người đó nhận lời."
        ),
        withdraw=lambda invitation: (
            services.group_withdraw(invitation=invitation, user=user) is not None
        ),
        remove=lambda keeper: services.group_keeper_remove(group=group, user=user, keeper=keeper),
        removed=_("%(u)s không còn ghi sổ nhóm này."),
    )


group_share, group_invitation_withdraw, group_keeper_remove = sharing_views(
    lambda request, pk: _shared(request, get_group_for_owner(request.user, pk))
)


group_leave = leave_view(
    get_group_for_user,
    lambda group, user: services.group_keeper_leave(group=group, user=user),
    lambda group: _("Bạn đã rời nhóm “%(g)s”.") % {"g": group.label},
    "groups",
)


# --- The group live link -------------------------------------------------------------------

LIVE_POLL_SECONDS = 15
LIVE_REFRESH_SECONDS = 30  # without JavaScript, the page reloads itself


@login_required
@require_http_methods(["GET", "POST"])
def group_live_settings(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return live_settings(request, get_group_for_owner(request.user, pk))


@login_required
@require_POST
def group_live_leaderboard(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The owner shows or hides the open period's leaderboard on the group's live link."""
    group = get_group_for_owner(request.user, pk)
    show = request.POST.get("show", "")
    if show not in ("0", "1"):
        return HttpResponseBadRequest(_("Hãy chọn hiện hay ẩn bảng xếp hạng."))
    if services.group_live_leaderboard(group=group, user=request.user, show=show == "1"):
        if show == "1":
            messages.success(request, _("Trang xem của nhóm có thêm bảng xếp hạng."))
        else:
            messages.success(request, _("Trang xem của nhóm không còn bảng xếp hạng."))
    return redirect("group_live_settings", pk=group.pk)


@require_http_methods(["GET", "HEAD"])
def group_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """What a player checks on the way home: balances, the open sitting, who pays whom.

    The page polls itself; a poll whose ledger version has not moved is answered 304 after
    one query, without rendering anything."""
    group = group_ledger.group_for_live_token(token)
    if group is None:
        raise Http404
    etag = poll_etag(f"g{group_ledger.ledger_version(group)}", token=token)

    def page(template: str = "groups/live.html") -> HttpResponse:
        response = render(request, template, _group_live_context(group, etag))
        response["X-Robots-Tag"] = "noindex, nofollow"
        # The page holds a CSP nonce: a cached copy would have its scripts refused.
        add_never_cache_headers(response)
        return response

    if wants_fragment(request):  # the poll: the board alone, as on a sitting's live page
        return poll_response(request, etag, lambda: page("groups/live.html#board"))
    response = page()
    response["ETag"] = etag
    patch_vary_headers(response, ["HX-Request"])
    return response


def _group_live_context(group: Group, etag: str) -> dict[str, Any]:
    live = group_ledger.live_view(group)
    open_totals: list[tuple[Player, int]] = []
    if live.open_sitting is not None:
        totals = game_totals(live.open_sitting)
        by_id = {row["player"].pk: row["player"] for row in live.rows}
        open_totals = sorted(
            ((by_id[pk], total) for pk, total in totals.items() if pk in by_id),
            key=lambda item: -item[1],
        )
    closed = group_ledger.last_close(group)
    leaderboard = None
    if group.live_leaderboard:  # the owner's choice: the open period's leaderboard
        leaderboard = sorted(
            stats.group_story(group, cut=closed).lines,
            key=lambda s: (-s.net, -s.wins, s.player.name, s.player.pk),
        )
    return {
        "group": group,
        "rows": live.rows,
        "closed": closed,
        "leaderboard": leaderboard,
        "open_sitting": live.open_sitting,
        "open_totals": open_totals,
        "suggestions": live.suggestions,
        # The group's own book (its sittings each have theirs, on their pages).
        "fingerprint": verify.fingerprint_of(group),
        "poll_seconds": LIVE_POLL_SECONDS,
        "refresh_seconds": LIVE_REFRESH_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }


# --- Renaming, and the group's history -----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_rename(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    form = GroupForm(request.POST or None, initial={"name": group.label})
    if request.method == "POST" and form.is_valid():
        try:
            services.group_rename(group=group, user=request.user, name=form.cleaned_data["name"])
        except services.InvalidInput as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, _("Đã đổi tên nhóm thành “%(name)s”.") % {"name": group.name})
            return redirect(group)
    context = {"group": group, "form": form}
    return render(request, "groups/rename.html", context, status=422 if form.errors else 200)


HISTORY_PER_PAGE = 50


@login_required
@require_http_methods(["GET"])
def group_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Every change to the group, newest first: who, when, what."""
    group = get_group_for_user(request.user, pk)
    entries = group.history.select_related("user", "sitting", "period").order_by("-at", "-id")
    page_obj = Paginator(entries, HISTORY_PER_PAGE).get_page(int_param(request.GET, "page") or 1)
    return render(request, "groups/history.html", {"group": group, "page_obj": page_obj})


@login_required
@require_http_methods(["GET"])
@one_at_a_time
def group_check(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """ "Kiểm tra sổ" of a group: its chain and group-wide settlements, then its sittings:
    only what came after the last check that found them agreeing (``verify_ledger
    --since``), or every sitting whole with ``?full=1``."""
    group = get_group_for_owner(request.user, pk)
    full = request.GET.get("full") == "1"
    verdict = verify.verify_group(group, since=not full)
    services.book_check_record(
        book=group,
        verdict=verdict,
        lang=translation.get_language(),
        again=functools.partial(verify.verify_group, group, since=not full),
    )
    context = {"book": group, "verdict": verdict, "is_group": True, "full": full}
    return render(request, "scoring/check.html", context)
