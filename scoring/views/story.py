"""The table's story: a group's stats over a period (and the games behind each number), who
takes money from whom, a player's year, and "what if we had played another scheme".

Every number is read by ``scoring.ledger.stats`` and every re-pricing done by the engine through
``scoring.ledger.reprice`` (nothing is written); these views only gather and show. Access is
the group's: its owner and scorekeepers, a 404 for anyone else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.access import get_group_for_user
from scoring.forms.pages import WhatIfForm, period_asked
from scoring.ledger import charts, reprice, stats
from scoring.ledger.periods import Period, period_choices, period_query, shown_period
from scoring.ledger.standing import last_close
from scoring.models import Group, Player, sittings_in_period
from scoring.text.numbers import int_param
from scoring.text.typed import engine_language
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, login_required
from tienlen_site.plumbing.oneatatime import heavy_page

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# --- The period (as the group's page reads it) -----------------------------------------------


def _period(group: Group, params: Mapping[str, str]) -> tuple[Period, dict[str, Any]]:
    """The period asked for, and what the page's period links and range form need of it."""
    key, start, end, form = period_asked(params, timezone.localdate())
    period = shown_period(key, start, end, last_close(group) if start is None else None)
    return period, {
        "period": period,
        "period_query": period_query(period),
        "period_choices": period_choices(),
        "range_form": form,
    }


# --- Stats and head to head ----------------------------------------------------------------

#: The stats table's sorts, in the order offered: what each sorts by, and its label.
SORTS: dict[str, tuple[Callable[[stats.GroupPlayerStats], int], StrOrPromise]] = {
    "net": (lambda s: s.net, gettext_lazy("Tiền")),
    "wins": (lambda s: s.wins, gettext_lazy("Thắng")),
    "rate": (lambda s: s.win_percent, gettext_lazy("Tỉ lệ thắng")),
    "games": (lambda s: s.games, gettext_lazy("Số ván")),
    "cong": (lambda s: s.cong, gettext_lazy("Cóng")),
    "toi_trang": (lambda s: s.toi_trang, gettext_lazy("Tới trắng")),
    "chat_made": (lambda s: s.chat_made, gettext_lazy("Chặt")),
    "chat_suffered": (lambda s: s.chat_suffered, gettext_lazy("Bị chặt")),
    "thoi": (lambda s: s.thoi_paid, gettext_lazy("Thối")),
}


FLOWS_CHARTED = 12  # pairs in the chart; the table lists them all


def _flows_chart(flows: list[stats.Flow]) -> str:
    svg = charts.bar_chart(
        {f"{f.payer.name} → {f.payee.name}": f.amount for f in flows[:FLOWS_CHARTED]},
        title=_("Ai lấy tiền của ai"),
        money=True,
        empty_text=_("Chưa có ván nào trong kỳ"),
    )
    return mark_safe(svg)  # charts.py escapes every name it draws


@login_required
@require_http_methods(["GET"])
def group_stats(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    period, period_context = _period(group, request.GET)
    story = stats.group_story(group, start=period.start, end=period.end, cut=period.cut)
    lines, flows = story.lines, story.flows
    sort = asked if (asked := request.GET.get("sort")) in SORTS else "net"
    by = SORTS[sort][0]
    lines.sort(key=lambda s: (-by(s), s.player.name, s.player.pk))
    context = {
        "group": group,
        "lines": lines,
        "sort": sort,
        "sort_choices": [(key, str(label)) for key, (_by, label) in SORTS.items()],
        "flows": flows,
        "flows_chart": _flows_chart(flows),
        "year": timezone.localdate().year,
        **period_context,
    }
    return render(request, "groups/stats.html", context)


def what_labels() -> dict[str, str]:
    return {
        stats.GAMES: _("Các ván đã chơi"),
        stats.WINS: _("Các ván thắng"),
        stats.CONG: _("Các ván bị cóng"),
        stats.TOI_TRANG: _("Các ván tới trắng"),
        stats.CHAT_MADE: _("Các ván chặt được"),
        stats.CHAT_SUFFERED: _("Các ván bị chặt"),
        stats.THOI: _("Các ván bị thối"),
    }


GAMES_LISTED = 500


@login_required
@require_http_methods(["GET"])
def group_stats_games(
    request: AuthenticatedHttpRequest, pk: int, player_id: int, what: str
) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = get_object_or_404(Player, pk=player_id, group=group)
    labels = what_labels()
    if what not in labels:
        raise Http404
    period, period_context = _period(group, request.GET)
    total, games = stats.games_behind(
        group,
        player,
        what,
        start=period.start,
        end=period.end,
        cut=period.cut,
        limit=GAMES_LISTED,
    )
    context = {
        "group": group,
        "player": player,
        "what": labels[what],
        "total": total,
        "games": games,
        "more": total - len(games),
        **period_context,
    }
    return render(request, "groups/stats_games.html", context)


# --- A player's year -----------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def player_year(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = get_object_or_404(Player, pk=player_id, group=group)
    this_year = timezone.localdate().year
    year = int_param(request.GET, "year") or this_year
    if not 2000 <= year <= this_year + 1:
        year = this_year
    story = stats.player_year(group, player, year)
    labels, values = story.balance
    chart = charts.line_chart(
        {player.name: values} if values else {},
        x_labels=labels or None,
        title=_("Tiền thắng thua cộng dồn trong năm"),
        empty_text=_("Chưa chơi bàn nào trong năm"),
    )
    context = {
        "group": group,
        "player": player,
        "story": story,
        "chart": mark_safe(chart),  # charts.py escapes every name and label it draws
        "years": [y for y in (year - 1, year + 1) if 2000 <= y <= this_year],
        "share_url": request.build_absolute_uri(),
    }
    return render(request, "groups/year.html", context)


# --- What if ---------------------------------------------------------------------------------


SITTINGS_OFFERED = 100


@login_required
@require_http_methods(["GET"])
@heavy_page
def group_what_if(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    period, period_context = _period(group, request.GET)
    sittings_qs = group.sittings.filter(
        sittings_in_period(period.start, period.end, period.cut)
    ).order_by("-date", "-id")
    sittings = list(sittings_qs[:SITTINGS_OFFERED])
    asked = "rules" in request.GET
    initial = {"stake": sittings[0].stake if sittings else 1000, "rules": "preset:cuoc"}
    form = WhatIfForm(
        request.GET if asked else None, initial=initial, user=request.user, sittings=sittings
    )
    result = sitting = too_many = None
    shorter = ""
    status = 400 if asked and not form.is_valid() else 200
    if asked and form.is_valid():
        data = form.cleaned_data
        sitting = next((s for s in sittings if s.pk == data["sitting"]), None)
        lang = engine_language()
        try:
            if sitting is not None:
                result = reprice.reprice_sitting(sitting, data["ruleset"], data["stake"], lang=lang)
            else:
                result = reprice.reprice_group(group, data["ruleset"], data["stake"],
                                               start=period.start, end=period.end,
                                               cut=period.cut, lang=lang,
                                               limit=reprice.MAX_GAMES)  # fmt: skip
        except reprice.TooMany as refused:
            # Nothing priced: the page says how many games are left to price and offers the
            # longest range up to the same end that fits.
            too_many = refused
            shorter = _shorter_range(refused, period, data)
            status = 422
    context = {
        "group": group,
        "form": form,
        "result": result,
        "sitting": sitting,
        "too_many": too_many,
        "max_games": reprice.MAX_GAMES,
        "shorter": shorter,
        "shorter_end": period.end or timezone.localdate(),
        "rules_name": _rules_name(form),
        **period_context,
    }
    return render(request, "groups/what_if.html", context, status=status)


def _shorter_range(too_many: reprice.TooMany, period: Period, data: Mapping[str, Any]) -> str:
    """The query of the same what-if over the longest range up to the same end that fits."""
    if too_many.start is None:
        return ""
    end = period.end or timezone.localdate()
    return urlencode(
        {
            "period": "custom",
            "start": too_many.start.isoformat(),
            "end": end.isoformat(),
            "rules": data["rules"],
            "stake": data["stake"],
        }
    )


def _rules_name(form: WhatIfForm) -> str:
    if not form.is_bound or not form.is_valid():
        return ""
    chosen = form.cleaned_data["rules"]
    choices = dict(form.fields["rules"].choices)  # type: ignore[attr-defined]
    return str(choices.get(chosen, ""))
