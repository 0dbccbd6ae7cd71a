"""Groups in the browser: the list, a group's page and standing balance, its settle-up,
statements, live link, sharing, closing a period, moving sittings and merging players.

Every number comes from ``scoring.group_ledger`` (one load of the group's ledger per page,
the same handful of queries whatever the number of sittings) and every write goes through
``scoring.services_groups``; these views only gather and show. Anyone who is neither the
owner nor an accepted scorekeeper of a group gets a 404 on every page and action of it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import content_disposition_header, parse_etags, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from scoring import charts, group_ledger, services, services_groups, vietqr
from scoring.access import get_group_for_owner, get_group_for_user, groups_for
from scoring.charts import format_vnd
from scoring.forms import InviteForm, SittingForm
from scoring.group_ledger import BANKER, METHODS, MIN
from scoring.models import Group, Invitation, Player, Sitting
from scoring.numbers import MoneyField, int_param

# --- Requests -------------------------------------------------------------------------------


class HtmxRequest(HttpRequest):
    """A request through ``django_htmx``'s middleware."""

    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    """A request ``login_required`` let through: its user is an account."""

    user: User


# --- Reading a group (scoring.group_ledger) ------------------------------------------------


def _group_player(group: Group, player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id, group=group).first()
    if player is None:
        raise Http404
    return player


def _rows(ledger: group_ledger.GroupLedger) -> list[dict[str, Any]]:
    """The ledger's rows, with what a row needs to say "paid 200.000 ₫" / "received …"."""
    return [{**row, "settled_abs": abs(row["settled"])} for row in ledger.rows()]


@dataclass(frozen=True)
class Suggestion:
    """A suggested payment with its explanation down to sittings and games."""

    payer: Player
    payee: Player
    amount: int
    clears: list[Player]
    why: group_ledger.Explanation

    @property
    def paid(self) -> list[tuple[Any, int | None, int | None]]:
        """The settlements in the explanation, with what each did to the payer's and the
        payee's balance (paying raises one's balance, receiving lowers it)."""

        def effect(settlement: Any, player: Player) -> int | None:
            if settlement.payer_id == player.pk:
                return int(settlement.amount)
            if settlement.payee_id == player.pk:
                return -int(settlement.amount)
            return None

        return [(st, effect(st, self.payer), effect(st, self.payee)) for st in self.why.settlements]


def _plan(
    group: Group, ledger: group_ledger.GroupLedger, method: str, banker: Player | None
) -> tuple[list[Suggestion], bool]:
    """The plan, and whether the exact minimum was given up for too many people."""
    too_many = False
    try:
        plan = ledger.plan(method, banker)
    except (ValueError, services.LedgerError):  # too many people for the exact minimum
        plan, too_many = ledger.plan(BANKER, ledger.default_banker()), True
    return [
        Suggestion(
            s.payer,
            s.payee,
            s.amount,
            s.clears,
            group_ledger.explain(group, s.payer, s.payee, ledger=ledger),
        )
        for s in plan
    ], too_many


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


# A long night has hundreds of games: each line names only the first few inline and links
# to the sitting's own pages for the rest, so a page stays small at any size.
GAMES_SHOWN = 12  # per sitting of a statement
GAMES_EXPLAINED = 5  # per sitting of a suggestion's "why?"


def _games_limit(shown: int) -> dict[str, Any]:
    return {"games_limit": shown, "games_shown": f":{shown}", "games_minus": -shown}


# --- Periods -------------------------------------------------------------------------------

PERIODS = ("open", "week", "month", "all", "custom")


@dataclass(frozen=True)
class Period:
    key: str
    start: date | None
    end: date | None


class RangeForm(forms.Form):
    start = forms.DateField(
        label=gettext_lazy("Từ ngày"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = forms.DateField(
        label=gettext_lazy("Đến ngày"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("Ngày cuối không được trước ngày đầu."))
        return data


def _load(
    group: Group, params: Mapping[str, str]
) -> tuple[group_ledger.GroupLedger, Period, RangeForm]:
    """The group's ledger over the period the page asks for: the open period (since the last
    close, its opening balance carried) unless it asks for this week, this month, every day
    or a range of its own."""
    key = params.get("period") or "open"
    if key not in PERIODS:
        key = "open"
    today = timezone.localdate()
    form = RangeForm(params if key == "custom" else None)
    start: date | None = None
    end: date | None = None
    if key == "week":
        start = today - timedelta(days=today.weekday())
    elif key == "month":
        start = today.replace(day=1)
    elif key == "all":
        start = date.min
    elif key == "custom":
        if form.is_valid():
            start = form.cleaned_data["start"] or date.min
            end = form.cleaned_data["end"]
        else:
            start = date.min
    ledger = group_ledger.GroupLedger.load(group, start=start, end=end)
    shown = ledger.start if ledger.start != date.min else None
    return ledger, Period(key, shown, end), form


def period_choices() -> list[tuple[str, str]]:
    return [
        ("open", _("Kỳ đang mở")),
        ("week", _("Tuần này")),
        ("month", _("Tháng này")),
        ("all", _("Mọi lúc")),
    ]


def _period_query(period: Period) -> str:
    params = {"period": period.key}
    if period.key == "custom":
        if period.start:
            params["start"] = period.start.isoformat()
        if period.end:
            params["end"] = period.end.isoformat()
    return urlencode(params)


# --- Forms ---------------------------------------------------------------------------------


def _choices(form: forms.Form, names: list[str], choices: list[tuple[Any, str]]) -> None:
    for name in names:
        field = form.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices


class GroupForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Tên nhóm"), max_length=80)


class GroupSettlementForm(forms.Form):
    payer = forms.TypedChoiceField(label=gettext_lazy("Ai trả"), coerce=int)
    payee = forms.TypedChoiceField(label=gettext_lazy("Trả cho ai"), coerce=int)
    amount = MoneyField(
        label=gettext_lazy("Số tiền (đồng)"),
        help_text=gettext_lazy("Ví dụ 200000, 200.000 hoặc 200k."),
    )
    day = forms.DateField(
        label=gettext_lazy("Ngày trả"),
        required=False,
        help_text=gettext_lazy("Để trống là hôm nay."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    # The ledger stamp the page was computed from: two taps, or two phones, must not pay
    # one suggestion twice.
    version = forms.CharField(max_length=100, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: Iterable[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in players]
        _choices(self, ["payer", "payee"], choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("payer") is not None and data.get("payer") == data.get("payee"):
            self.add_error("payee", _("Người trả và người nhận phải khác nhau."))
        return data


class CloseForm(forms.Form):
    closes_before = forms.DateField(
        label=gettext_lazy("Chốt mọi thứ trước ngày"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "Tôi hiểu: các bàn trước ngày này được khoá lại, số dư mang sang kỳ sau."
        ),
    )


class MoveForm(forms.Form):
    target = forms.TypedChoiceField(label=gettext_lazy("Chuyển sang nhóm"), coerce=int)

    def __init__(self, *args: Any, groups: Iterable[Group], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, ["target"], [(g.pk, g.label) for g in groups])


class GroupMergeForm(forms.Form):
    keep = forms.TypedChoiceField(label=gettext_lazy("Giữ tên"), coerce=int)
    duplicate = forms.TypedChoiceField(label=gettext_lazy("Tên trùng cần gộp"), coerce=int)
    confirm = forms.BooleanField(
        label=gettext_lazy("Tôi hiểu: hai tên là một người, và việc gộp không hoàn tác được."),
    )

    def __init__(self, *args: Any, players: Iterable[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in players]
        _choices(self, ["keep", "duplicate"], choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("keep") is not None and data.get("keep") == data.get("duplicate"):
            self.add_error("duplicate", _("Hãy chọn hai tên khác nhau."))
        return data


def _fragment(request: HtmxRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


# --- The list and a group's page -----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_list(request: SignedInRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services_groups.group_create(
                owner=request.user, name=form.cleaned_data["name"]
            ).value
        except services.LedgerError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, _("Đã tạo nhóm “%(name)s”.") % {"name": group.label})
            return redirect(group)
    groups = list(groups_for(request.user).select_related("owner"))
    counts = dict(
        Sitting.objects.filter(group__in=groups)
        .values("group_id")
        .annotate(n=Count("id"))
        .values_list("group_id", "n")
    )
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


def _group_context(request: SignedInRequest, group: Group) -> dict[str, Any]:
    ledger, period, range_form = _load(group, request.GET)
    sittings = group.sittings.order_by("-date", "-id")
    if period.start:
        sittings = sittings.filter(date__gte=period.start)
    if period.end:
        sittings = sittings.filter(date__lte=period.end)
    # Tonight's sitting (or last night's, for an evening past midnight), one tap away.
    yesterday = timezone.localdate() - timedelta(days=1)
    tonight = group.sittings.filter(date__gte=yesterday).order_by("-date", "-id").first()
    return {
        "group": group,
        "is_owner": group.owner_id == request.user.pk,
        "tonight": tonight,
        "rows": _rows(ledger),
        "period": period,
        "period_query": _period_query(period),
        "period_choices": period_choices(),
        "show_opening": period.start is not None,
        "range_form": range_form,
        "closed": ledger.close,
        "sittings": list(sittings[:100]),
        "sitting_count": group.sittings.count(),
        "players": [p for p in ledger.players if p.merged_into_id is None],
        "scorekeepers": group.scorekeepers.order_by("username"),
        "chart": _chart(ledger),
        "closes": group.period_closes.select_related("created_by")[:10],
    }


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_page(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    context = _group_context(request, group)
    template = "groups/group.html"
    return render(request, template + "#ledger" if _fragment(request) else template, context)


# --- Settle-up -----------------------------------------------------------------------------


def _choice(
    params: Mapping[str, str], ledger: group_ledger.GroupLedger
) -> tuple[str, Player | None]:
    method = params.get("method", MIN)
    if method not in METHODS:
        method = MIN
    banker = None
    if method == BANKER:
        banker_id = int_param(params, "banker")
        banker = ledger.by_id.get(banker_id) if banker_id is not None else None
        if banker is not None and banker.merged_into_id is not None:
            banker = None
        banker = banker or ledger.default_banker()
    return method, banker


def _settle_context(
    request: SignedInRequest,
    group: Group,
    params: Mapping[str, str],
    form: GroupSettlementForm | None = None,
) -> dict[str, Any]:
    # The whole standing balance (the open period's opening included) is what gets settled.
    ledger = group_ledger.GroupLedger.load(group)
    version = group_ledger.ledger_version(group)
    method, banker = _choice(params, ledger)
    players = [p for p in ledger.players if p.merged_into_id is None]
    suggestions, too_many = _plan(group, ledger, method, banker)
    group_settlements = group.settlements.select_related("payer", "payee", "created_by").order_by(
        "-created_at", "-id"
    )[:50]
    return {
        "group": group,
        "rows": _rows(ledger),
        "show_opening": ledger.close is not None,
        "players": players,
        "method": method,
        "banker": banker,
        "suggestions": suggestions,
        "too_many": too_many,
        "settlements": group_settlements,
        "form": form or GroupSettlementForm(players=players, initial={"version": version}),
        "version": version,
        "bank_link": group.owner_id == request.user.pk,
        **_games_limit(GAMES_EXPLAINED),
    }


def _render_settle(
    request: SignedInRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    if _fragment(request):
        return render(request, "groups/settle.html#settle", context)
    return render(request, "groups/settle.html", context, status=status)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_settle(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    return _render_settle(request, _settle_context(request, group, request.GET))


@login_required
@require_POST
def group_settlement_new(request: SignedInRequest, pk: int) -> HttpResponse:
    """One-tap "đã trả" on a suggestion, or a typed payment: a settlement of the group."""
    group = get_group_for_user(request.user, pk)
    players = list(Player.objects.filter(group=group, merged_into=None))
    form = GroupSettlementForm(request.POST, players=players)
    if not form.is_valid():
        return _render_settle(request, _settle_context(request, group, request.POST, form), 422)
    data = form.cleaned_data
    by_id = {p.pk: p for p in players}
    try:
        if data["payer"] not in by_id or data["payee"] not in by_id:
            raise services.LedgerError(_("Cả hai người phải ở trong nhóm."), "payer")
        settlement = services_groups.group_settlement_record(
            group=group,
            user=request.user,
            payer=by_id[data["payer"]],
            payee=by_id[data["payee"]],
            amount=data["amount"],
            date=data.get("day"),
            expected_version=data["version"],
        ).value
    except services.Conflict as error:
        group.refresh_from_db()
        fresh = request.POST.copy()
        fresh["version"] = group_ledger.ledger_version(group)
        free = request.POST.get("kind") != "suggestion"
        retry = GroupSettlementForm(fresh, players=players) if free else None
        context = _settle_context(request, group, request.POST, retry)
        context["conflict"] = error.message
        return _render_settle(request, context, status=409)
    except services.LedgerError as error:
        field = "day" if error.field == "date" else error.field
        form.add_error(field if field in form.fields else None, error.message)
        return _render_settle(request, _settle_context(request, group, request.POST, form), 422)
    notice = _("Đã ghi: %(payer)s trả %(payee)s %(amount)s.") % {
        "payer": settlement.payer.name,
        "payee": settlement.payee.name,
        "amount": format_vnd(settlement.amount),
    }
    return _after_settle(request, group, notice)


def _after_settle(request: SignedInRequest, group: Group, notice: str) -> HttpResponse:
    if request.htmx:
        group.refresh_from_db()
        context = _settle_context(request, group, request.POST)
        context["notice"] = notice
        return render(request, "groups/settle.html#settle", context)
    messages.success(request, notice)
    query = {key: request.POST[key] for key in ("method", "banker") if request.POST.get(key)}
    return redirect(f"{reverse('group_settle', args=[group.pk])}?{urlencode(query)}")


@login_required
@require_POST
def group_settlement_void(request: SignedInRequest, pk: int, settlement_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    found = group.settlements.select_related("payer", "payee").filter(pk=settlement_id).first()
    if found is None:
        raise Http404
    reason = (request.POST.get("reason") or "").strip()[:200]
    try:
        services_groups.group_settlement_void(settlement=found, user=request.user, reason=reason)
    except services.LedgerError as error:
        context = _settle_context(request, group, request.POST)
        context["conflict"] = error.message
        return _render_settle(request, context, status=422)
    notice = _("Đã huỷ khoản %(payer)s trả %(payee)s %(amount)s.") % {
        "payer": found.payer.name,
        "payee": found.payee.name,
        "amount": format_vnd(found.amount),
    }
    return _after_settle(request, group, notice)


# --- Statements ----------------------------------------------------------------------------


def _statement_context(request: SignedInRequest, group: Group, player: Player) -> dict[str, Any]:
    ledger, period, range_form = _load(group, request.GET)
    lines = group_ledger.statement(group, player, ledger=ledger)
    labels, series = group_ledger.balance_series(ledger)
    mine = series.get(player.name, [])
    chart = charts.line_chart(
        {player.name: mine} if labels and mine else {},
        x_labels=labels if labels and mine else None,
        title=_("Số dư qua các bàn"),
        empty_text=_("Chưa có bàn nào"),
    )
    opening = 0
    if lines and lines[0].kind == group_ledger.OPENING:
        opening = lines.pop(0).amount
    return {
        "group": group,
        "player": player,
        "period": period,
        "period_query": _period_query(period),
        "period_choices": period_choices(),
        "range_form": range_form,
        "closed": ledger.close,
        "opening": opening,
        "lines": lines,
        "closing": lines[-1].running if lines else opening,
        "games_total": sum(ln.amount for ln in lines if ln.kind == group_ledger.SITTING),
        "settled_total": sum(ln.amount for ln in lines if ln.kind == group_ledger.SETTLEMENT),
        "chart": mark_safe(chart),  # charts.py escapes every name and label it draws
        **_games_limit(GAMES_SHOWN),
    }


@login_required
@require_http_methods(["GET"])
def group_statement(request: SignedInRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    if player.merged_into_id is not None:  # a merged name: its rows are the kept player's now
        url = reverse("group_statement", args=[group.pk, player.merged_into_id])
        query = request.GET.urlencode()
        return redirect(f"{url}?{query}" if query else url)
    return render(request, "groups/statement.html", _statement_context(request, group, player))


def _statement_rows(context: dict[str, Any]) -> list[dict[str, Any]]:
    """The statement as the CSV and JSON downloads hold it: one dict per line, amounts in
    whole đồng, the opening balance first when the period has one."""
    rows: list[dict[str, Any]] = []
    start = context["period"].start
    if start:
        rows.append(
            {
                "date": start.isoformat(),
                "kind": group_ledger.OPENING,
                "sitting": "",
                "games": "",
                "from": "",
                "to": "",
                "amount": context["opening"],
                "balance": context["opening"],
            }
        )
    for line in context["lines"]:
        s = line.settlement
        rows.append(
            {
                "date": line.date.isoformat() if line.date else "",
                "kind": line.kind,
                "sitting": line.sitting_name,
                "games": len(line.games) if line.kind == group_ledger.SITTING else "",
                "from": s.payer.name if s else "",
                "to": s.payee.name if s else "",
                "amount": line.amount,
                "balance": line.running,
            }
        )
    return rows


STATEMENT_COLUMNS = ["date", "kind", "sitting", "games", "from", "to", "amount", "balance"]


def _stem(group: Group, player: Player) -> str:
    clean = "".join(
        c if c.isalnum() else "-" for c in vietqr.strip_diacritics(f"{group.name}-{player.name}")
    )
    return "-".join(part for part in clean.lower().split("-") if part) or "statement"


@login_required
@require_http_methods(["GET"])
def group_statement_csv(request: SignedInRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    rows = _statement_rows(_statement_context(request, group, player))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=STATEMENT_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _csv_safe(v) for k, v in row.items()})
    response = HttpResponse(
        ("\ufeff" + out.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"{_stem(group, player)}.csv"
    )
    return response


def _csv_safe(value: object) -> object:
    """A name a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@login_required
@require_http_methods(["GET"])
def group_statement_json(request: SignedInRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    context = _statement_context(request, group, player)
    body = {
        "version": 1,
        "group": group.name,
        "player": player.name,
        "start": context["period"].start.isoformat() if context["period"].start else None,
        "end": context["period"].end.isoformat() if context["period"].end else None,
        "opening": context["opening"],
        "closing": context["closing"],
        "lines": _statement_rows(context),
    }
    response = HttpResponse(
        json.dumps(body, ensure_ascii=False, indent=2).encode("utf-8"),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"{_stem(group, player)}.json"
    )
    return response


# --- Closing a period ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_close(request: SignedInRequest, pk: int) -> HttpResponse:
    """ "Close the period": a confirmation page, then the close (undoable)."""
    group = get_group_for_user(request.user, pk)
    form = CloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services_groups.period_close(
                group=group, user=request.user, before=form.cleaned_data["closes_before"]
            )
        except services.LedgerError as error:
            field_name = "closes_before" if error.field == "before" else None
            form.add_error(field_name, error.message)
        else:
            day = form.cleaned_data["closes_before"]
            messages.success(
                request,
                _("Đã chốt sổ trước ngày %(d)s. Số dư được mang sang kỳ mới.")
                % {"d": day.strftime("%d/%m/%Y")},
            )
            return redirect(group)
    day = form.cleaned_data.get("closes_before") if form.is_bound else None
    if day is None:
        asked = RangeForm({"start": request.GET.get("closes_before", "")})
        day = asked.cleaned_data["start"] if asked.is_valid() else None
    day = day or timezone.localdate().replace(day=1)
    if not form.is_bound:
        form = CloseForm(initial={"closes_before": day})
    ledger = group_ledger.GroupLedger.load(group, start=day)
    context = {
        "group": group,
        "form": form,
        "day": day,
        "carried": [
            (p, ledger.opening.get(p.pk, 0)) for p in ledger.players if p.merged_into_id is None
        ],
        "frozen": group.sittings.filter(date__lt=day).count(),
        "closed": ledger.close,
    }
    return render(request, "groups/close.html", context, status=422 if form.errors else 200)


@login_required
@require_POST
def group_reopen(request: SignedInRequest, pk: int, close_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    close = group_ledger.last_close(group)
    if close is None or close.pk != close_id:  # only the latest close can be undone
        raise Http404
    services_groups.period_close_undo(group=group, user=request.user)
    messages.success(
        request,
        _("Đã huỷ chốt sổ ngày %(d)s; các bàn trước đó mở lại.")
        % {"d": close.closes_before.strftime("%d/%m/%Y")},
    )
    return redirect(group)


# --- Opening a sitting in the group, moving one, merging players ---------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_sitting_new(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    form = SittingForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            # The form's token: sending it again (back button, double tap) opens nothing new.
            sitting, created = services.sitting_open_once(
                token=data["token"],
                owner=request.user,
                name=data["name"],
                date=data["date"],
                rules=data["ruleset"],
                stake=data["stake"],
                player_names=data["players"],
                group=group,
            )
        except services.LedgerError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        except services.Conflict as error:
            form.add_error(None, error.message)
            # A fresh token: sending this form again on purpose opens a new sitting.
            fresh = request.POST.copy()
            fresh["token"] = str(uuid.uuid4())
            form.data = fresh
        else:
            if not created:
                messages.info(request, _("Bàn này đã được mở rồi; đây là bàn đó."))
            return redirect(sitting)
    known = Player.objects.filter(group=group, merged_into=None)[:40]
    context = {"form": form, "known": known, "group": group}
    return render(request, "groups/sitting_new.html", context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_move(request: SignedInRequest, pk: int, sitting_id: int) -> HttpResponse:
    """Move one of the group's sittings to another group of the same owner."""
    group = get_group_for_owner(request.user, pk)
    sitting = group.sittings.filter(pk=sitting_id).first()
    if sitting is None:
        raise Http404
    targets = Group.objects.filter(owner=group.owner).exclude(pk=group.pk).select_related("owner")
    form = MoveForm(request.POST or None, groups=targets)
    if request.method == "POST" and form.is_valid():
        target = targets.get(pk=form.cleaned_data["target"])
        try:
            services_groups.sitting_move(sitting=sitting, to_group=target, user=request.user)
        except services.LedgerError as error:
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
def group_merge(request: SignedInRequest, pk: int) -> HttpResponse:
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
            services_groups.group_player_merge(
                group=group, keep=keep, duplicate=duplicate, user=request.user
            )
        except services.LedgerError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("Đã gộp %(dup)s vào %(keep)s.") % {"dup": duplicate, "keep": keep}
            )
            return redirect(group)
    context = {"group": group, "form": form, "players": players}
    return render(request, "groups/merge.html", context, status=422 if form.errors else 200)


# --- Sharing -------------------------------------------------------------------------------


def _share_context(request: SignedInRequest, group: Group, form: InviteForm) -> dict[str, Any]:
    pending = group.invitations.filter(status=Invitation.Status.PENDING).order_by("created_at")
    return {
        "group": group,
        "form": form,
        "scorekeepers": group.scorekeepers.order_by("username"),
        "pending": [
            (invitation, request.build_absolute_uri(invitation.get_absolute_url()))
            for invitation in pending
        ],
    }


def _share_answer(request: SignedInRequest, group: Group, notice: str) -> HttpResponse:
    if request.htmx:
        context = _share_context(request, group, InviteForm())
        context["notice"] = notice
        return render(request, "groups/share.html#sharing", context)
    messages.success(request, notice)
    return redirect("group_share", pk=group.pk)


@login_required
@require_http_methods(["GET", "POST"])
def group_share(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = form.cleaned_data["username"].strip()
        try:
            services_groups.group_invite(group=group, user=request.user, username=username)
        except services.LedgerError as error:
            form.add_error("username", error.message)
        else:
            notice = _(
                "Đã gửi lời mời tới “%(u)s”. Nếu có tài khoản này, người đó sẽ thấy lời mời "
                "trên trang chủ của mình; nhóm chỉ được chia sẻ khi người đó nhận lời."
            ) % {"u": username}
            return _share_answer(request, group, notice)
    template = "groups/share.html#sharing" if request.htmx else "groups/share.html"
    status = 422 if form.errors and not request.htmx else 200
    return render(request, template, _share_context(request, group, form), status=status)


@login_required
@require_POST
def group_invitation_withdraw(
    request: SignedInRequest, pk: int, invitation_id: int
) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    invitation = group.invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404
    if services_groups.group_withdraw(invitation=invitation, user=request.user):
        notice = _("Đã rút lời mời “%(u)s”.") % {"u": invitation.username}
    else:
        notice = _("Lời mời này đã được trả lời hoặc rút lại trước đó.")
    return _share_answer(request, group, notice)


@login_required
@require_POST
def group_keeper_remove(request: SignedInRequest, pk: int, user_id: int) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    keeper = group.scorekeepers.filter(pk=user_id).first()
    if keeper is None:
        raise Http404
    services_groups.group_keeper_remove(group=group, user=request.user, keeper=keeper)
    notice = _("%(u)s không còn ghi sổ nhóm này.") % {"u": keeper.get_username()}
    return _share_answer(request, group, notice)


@login_required
@require_http_methods(["GET", "POST"])
def group_leave(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    is_owner = group.owner_id == request.user.pk
    if request.method == "GET" or is_owner:
        status = 403 if request.method == "POST" else 200
        return render(
            request, "groups/leave.html", {"group": group, "is_owner": is_owner}, status=status
        )
    services_groups.group_keeper_leave(group=group, user=request.user)
    messages.success(request, _("Bạn đã rời nhóm “%(g)s”.") % {"g": group.label})
    return redirect("groups")


# --- The group live link -------------------------------------------------------------------

LIVE_POLL_SECONDS = 15
LIVE_ACTIONS = {
    "enable": gettext_lazy("Liên kết xem đang bật."),
    "regenerate": gettext_lazy("Đã tạo liên kết mới; liên kết cũ không còn mở được."),
    "revoke": gettext_lazy("Đã tắt liên kết xem."),
}


@login_required
@require_http_methods(["GET", "POST"])
def group_live_settings(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in LIVE_ACTIONS:
            return HttpResponseBadRequest()
        services_groups.group_live_link(group=group, user=request.user, action=action)
        messages.success(request, LIVE_ACTIONS[action])
        return redirect("group_live_settings", pk=group.pk)
    url = qr = None
    if group.live_token:
        url = request.build_absolute_uri(reverse("group_live", args=[group.live_token]))
        qr = mark_safe(vietqr.qr_svg(url, title=_("Mã QR mở trang xem trực tiếp")))
    return render(request, "groups/live_settings.html", {"group": group, "url": url, "qr": qr})


def _live_etag(version: str, token: str, language: str) -> str:
    # The token is hashed in so one group's tag never matches another's (or a new link's);
    # the language too, since the same version reads differently in English.
    digest = hashlib.sha256(token.encode()).hexdigest()[:12]
    return f'"g{version}-{language}-{digest}"'


@require_http_methods(["GET", "HEAD"])
def group_live(request: HtmxRequest, token: str) -> HttpResponse:
    """What a player checks on the way home: balances, the open sitting, who pays whom.

    The page polls itself; a poll whose ledger version has not moved is answered 304 after
    one query, without rendering anything."""
    group = group_ledger.group_for_live_token(token)
    if group is None:
        raise Http404
    etag = _live_etag(group_ledger.ledger_version(group), token, request.LANGUAGE_CODE)
    if _fragment(request):
        tags = {t.removeprefix("W/") for t in parse_etags(request.headers.get("If-None-Match", ""))}
        if etag in tags:
            unchanged = HttpResponseNotModified()
            unchanged["ETag"] = etag
            return unchanged
    live = group_ledger.live_view(group)
    open_totals: list[tuple[Player, int]] = []
    if live.open_sitting is not None:
        totals = services.game_totals(live.open_sitting)
        by_id = {row["player"].pk: row["player"] for row in live.rows}
        open_totals = sorted(
            ((by_id[pk], total) for pk, total in totals.items() if pk in by_id),
            key=lambda item: -item[1],
        )
    close = group_ledger.last_close(group)
    context = {
        "group": group,
        "rows": [{**row, "settled_abs": abs(row["settled"])} for row in live.rows],
        "closed": close,
        "open_sitting": live.open_sitting,
        "open_totals": open_totals,
        "suggestions": live.suggestions,
        "poll_seconds": LIVE_POLL_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }
    response = render(request, "groups/live.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["ETag"] = etag
    # The page holds a CSP nonce: a cached copy would have its scripts refused.
    add_never_cache_headers(response)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- The invitee's side (reached through the invitation pages of scoring.views.sharing) -----


def group_invitation_page(request: SignedInRequest, invitation: Invitation) -> HttpResponse:
    group = invitation.group
    assert group is not None
    if not invitation.is_pending:
        if group.scorekeepers.filter(pk=request.user.pk).exists():
            return redirect(group)
        raise Http404
    return render(request, "scoring/invitation.html", {"invitation": invitation})


def group_invitation_answer(
    request: SignedInRequest, invitation: Invitation, answer: str
) -> HttpResponse:
    group = invitation.group
    assert group is not None
    if answer == "accept":
        if services_groups.group_accept(invitation=invitation, user=request.user):
            messages.success(request, _("Bạn giờ cùng ghi sổ nhóm “%(g)s”.") % {"g": group.label})
            url = group.get_absolute_url()
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        notice = _("Lời mời này không còn hiệu lực.")
    elif services_groups.group_decline(invitation=invitation, user=request.user):
        notice = _("Đã từ chối lời mời ghi sổ nhóm “%(g)s”.") % {"g": group.label}
    else:
        notice = _("Lời mời này không còn hiệu lực.")
    if request.htmx:
        from scoring import services_sharing

        context = {"invitations": services_sharing.pending_for(request.user), "notice": notice}
        return render(request, "scoring/home.html#invitations", context)
    messages.info(request, notice)
    return redirect("home")


# --- Renaming, and the group's history -----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_rename(request: SignedInRequest, pk: int) -> HttpResponse:
    group = get_group_for_owner(request.user, pk)
    form = GroupForm(request.POST or None, initial={"name": group.label})
    if request.method == "POST" and form.is_valid():
        try:
            services_groups.group_rename(
                group=group, user=request.user, name=form.cleaned_data["name"]
            )
        except services.LedgerError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, _("Đã đổi tên nhóm thành “%(name)s”.") % {"name": group.name})
            return redirect(group)
    context = {"group": group, "form": form}
    return render(request, "groups/rename.html", context, status=422 if form.errors else 200)


HISTORY_PER_PAGE = 50


@login_required
@require_http_methods(["GET"])
def group_history(request: SignedInRequest, pk: int) -> HttpResponse:
    """Every change to the group, newest first: who, when, what."""
    group = get_group_for_user(request.user, pk)
    entries = group.history.select_related("user", "sitting", "period").order_by("-at", "-id")
    page_obj = Paginator(entries, HISTORY_PER_PAGE).get_page(int_param(request.GET, "page") or 1)
    return render(request, "groups/history.html", {"group": group, "page_obj": page_obj})
