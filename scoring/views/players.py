"""Players across sittings: the list, one player's statement and charts, merging, bank account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring import access, charts, services_players, stats, vietqr
from scoring.models import Player
from scoring.services import LedgerError

REASONS = {
    "cards": gettext_lazy("Tiền lá"),
    "cong": gettext_lazy("Cóng"),
    "placement": gettext_lazy("Thứ hạng"),
    "thoi": gettext_lazy("Thối"),
    "chat": gettext_lazy("Chặt"),
    "toi_trang": gettext_lazy("Tới trắng"),
    "den": gettext_lazy("Đền"),
    "ket_3_bich": gettext_lazy("Kết 3 bích"),
    "chan_ket_3_bich": gettext_lazy("Chặn kết 3 bích"),
}
PLACE_NAMES = {
    1: gettext_lazy("Nhất"),
    2: gettext_lazy("Nhì"),
    3: gettext_lazy("Ba"),
    4: gettext_lazy("Tư"),
}


def get_player_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Player:
    """Players belong to a group: its owner and scorekeepers see them, everyone else gets a
    404, as for sittings."""
    if not user.is_authenticated:
        raise Http404
    player = access.players_for(user).filter(pk=pk).select_related("merged_into").first()
    if player is None:
        raise Http404
    return player


@login_required
@require_http_methods(["GET"])
def players(request: HttpRequest) -> HttpResponse:
    lines = sorted(
        stats.players_summary(request.user), key=lambda line: line.player.name.casefold()
    )
    return render(request, "scoring/players.html", {"lines": lines})


@login_required
@require_http_methods(["GET"])
def player(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_owner(request.user, pk)
    if player.merged_into is not None:
        return redirect(player.merged_into)
    player_stats = stats.player_stats(player)
    statement = stats.player_statement(player)
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
        {str(REASONS.get(r, r)): v for r, v in player_stats.by_reason.items()},
        title=_("Tiền theo loại"),
        money=True,
        empty_text=_("Chưa có khoản tiền nào"),
    )
    return {
        "over_time_chart": mark_safe(over_time),
        "place_chart": mark_safe(place_chart),
        "reason_chart": mark_safe(reason_chart),
    }


class MergeForm(forms.Form):
    duplicate = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=gettext_lazy("Tên trùng cần gộp"),
        empty_label=gettext_lazy("— Chọn người chơi —"),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy("Tôi hiểu: hai tên là một người, và việc gộp không hoàn tác được."),
    )

    def __init__(self, *args: Any, keep: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["duplicate"].queryset = Player.objects.filter(
            group_id=keep.group_id, merged_into=None
        ).exclude(pk=keep.pk)


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    keep = get_player_for_owner(request.user, pk)
    if keep.merged_into is not None:
        raise Http404
    form = MergeForm(request.POST or None, keep=keep)
    if request.method == "POST" and form.is_valid():
        duplicate = form.cleaned_data["duplicate"]
        try:
            services_players.player_merge(keep=keep, duplicate=duplicate, user=request.user)
        except LedgerError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("Đã gộp %(dup)s vào %(keep)s.") % {"dup": duplicate, "keep": keep}
            )
            return redirect(keep)
    return _screen(request, "merge", {"player": keep, "form": form})


class BankForm(forms.Form):
    bank_bin = forms.ChoiceField(
        label=gettext_lazy("Ngân hàng"),
        choices=[("", gettext_lazy("— Không có tài khoản —"))]
        + [(b.bin, f"{b.short_name} — {b.name}") for b in vietqr.BANKS],
        required=False,
    )
    account = forms.CharField(
        label=gettext_lazy("Số tài khoản"),
        max_length=30,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    holder = forms.CharField(
        label=gettext_lazy("Chủ tài khoản"),
        max_length=50,
        required=False,
        help_text=gettext_lazy("Như in trên thẻ, ví dụ NGUYEN VAN AN."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_bank(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_owner(request.user, pk)
    if player.merged_into is not None:
        raise Http404
    initial = {"bank_bin": player.bank_bin, "account": player.bank_account}
    form = BankForm(request.POST or None, initial={**initial, "holder": player.bank_holder})
    if request.method == "POST" and form.is_valid():
        try:
            services_players.player_set_bank(player=player, **form.cleaned_data)
        except LedgerError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Đã lưu tài khoản của %(name)s.") % {"name": player})
            return redirect(player)
    return _screen(request, "bank", {"player": player, "form": form})


def _screen(request: HttpRequest, screen: str, context: dict[str, Any]) -> HttpResponse:
    """A form of the player page: inline in the page for htmx, else the page around it."""
    template = f"scoring/player.html#{screen}" if request.htmx else "scoring/player.html"
    status = 422 if request.method == "POST" else 200
    return render(request, template, {**context, "screen": screen}, status=status)
