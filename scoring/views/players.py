"""Players across sittings: the list, one player's statement and charts, merging, bank account."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring import ledger, services
from scoring.access import get_player_for_owner
from scoring.forms.pages import BankForm, MergeForm
from scoring.ledger import charts, stats
from scoring.models import Payment, Player
from scoring.services import InvalidInput
from scoring.text import vietqr
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    wants_fragment,
)

PLACE_NAMES = {
    1: gettext_lazy("Nhất"),
    2: gettext_lazy("Nhì"),
    3: gettext_lazy("Ba"),
    4: gettext_lazy("Tư"),
}


@login_required
@require_http_methods(["GET"])
def players(request: AuthenticatedHttpRequest) -> HttpResponse:
    lines = sorted(
        stats.players_summary(request.user), key=lambda line: line.player.name.casefold()
    )
    return render(request, "scoring/players.html", {"lines": lines})


@login_required
@require_http_methods(["GET"])
def player(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_owner(request.user, pk)
    if player.merged_into is not None:
        return redirect(player.merged_into)
    player_stats = stats.player_stats(player)
    statement = ledger.player_lines([player.pk])
    labels, values = stats.money_over_time(statement)
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "stats": player_stats,
            "statement": statement,
            "bank": vietqr.bank_by_bin(player.bank_bin),
            **_charts(player, player_stats, labels, values),
        },
    )


def _charts(
    player: Player, player_stats: stats.PlayerStats, labels: list[str], values: list[int]
) -> dict[str, Any]:
    # charts.py escapes every name and label it draws.
    over_time = charts.line_chart(
        {player.name: values} if values else {},
        x_labels=labels or None,
        title=_("Tiền cộng dồn qua các bàn"),
        empty_text=_("Chưa chơi ván nào"),
    )
    places = {str(PLACE_NAMES[p]): n for p, n in player_stats.places.items() if n or p <= 2}
    if player_stats.toi_trang:
        places[_("Tới trắng")] = player_stats.toi_trang
    # First-out games rank only the winner, and a tới trắng ranks nobody.
    unranked = player_stats.games - sum(player_stats.places.values()) - player_stats.toi_trang
    if unranked:
        places[_("Thua (không xếp hạng)")] = unranked
    place_chart = charts.bar_chart(
        places if player_stats.games else {},
        title=_("Số ván theo thứ hạng"),
        empty_text=_("Chưa chơi ván nào"),
    )
    reason_chart = charts.bar_chart(
        {_reason_label(r): v for r, v in player_stats.by_reason.items()},
        title=_("Tiền theo loại"),
        money=True,
        empty_text=_("Chưa có khoản tiền nào"),
    )
    return {
        "over_time_chart": mark_safe(over_time),
        "place_chart": mark_safe(place_chart),
        "reason_chart": mark_safe(reason_chart),
    }


def _reason_label(code: str) -> str:
    """A chart bar's label: the payment reason's one label, capitalised as a heading."""
    if code in Payment.Reason.values:
        return capfirst(str(Payment.Reason(code).label))
    return code


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    keep = get_player_for_owner(request.user, pk)
    if keep.merged_into is not None:
        raise Http404
    form = MergeForm(request.POST or None, keep=keep)
    if request.method == "POST" and form.is_valid():
        duplicate = form.cleaned_data["duplicate"]
        try:
            services.player_merge(keep=keep, duplicate=duplicate, user=request.user)
        except InvalidInput as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("Đã gộp %(dup)s vào %(keep)s.") % {"dup": duplicate, "keep": keep}
            )
            return redirect(keep)
    return _screen(request, "merge", {"player": keep, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def player_bank(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_owner(request.user, pk)
    if player.merged_into is not None:
        raise Http404
    initial = {"bank_bin": player.bank_bin, "account": player.bank_account}
    form = BankForm(request.POST or None, initial={**initial, "holder": player.bank_holder})
    if request.method == "POST" and form.is_valid():
        try:
            services.player_set_bank(player=player, **form.cleaned_data)
        except InvalidInput as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Đã lưu tài khoản của %(name)s.") % {"name": player})
            return redirect(player)
    return _screen(request, "bank", {"player": player, "form": form})


def _screen(request: HtmxHttpRequest, screen: str, context: dict[str, Any]) -> HttpResponse:
    """A form of the player page: inline in the page for htmx, else the page around it."""
    template = f"scoring/player.html#{screen}" if wants_fragment(request) else "scoring/player.html"
    status = 422 if request.method == "POST" else 200
    return render(request, template, {**context, "screen": screen}, status=status)
