"""Groups in the browser: the list, a group's page, statements, "Vì sao?", closing a period,
moving sittings and merging players (the settle-up is ``scoring.views.ledger``).

A page with real reads is one page model of ``scoring.ledger`` (one load of the group's ledger,
the same handful of queries whatever the number of sittings). Anyone who is neither the owner
nor an accepted scorekeeper of a group gets a 404 on every page and action of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import services
from scoring.access import get_group_for_owner, get_group_for_user, groups_for
from scoring.forms.pages import (
    CloseForm,
    GroupForm,
    GroupMergeForm,
    GroupSittingForm,
    MoveForm,
    RangeForm,
    period_asked,
)
from scoring.ledger.group_export import statement_csv, statement_json
from scoring.ledger.group_page import group_page as read_group_page
from scoring.ledger.group_statements import StatementPage, sitting_games, statement_page
from scoring.ledger.periods import (
    Period,
    close_label,
    close_preview,
    latest_open_sitting,
    seating_names,
    sitting_counts,
)
from scoring.ledger.shown import (
    GAMES_SHOWN,
    HISTORY_PER_PAGE,
    MOST_SHOWN,
    SITTINGS_SHOWN,
    WHY_SHOWN,
)
from scoring.ledger.standing import last_close
from scoring.ledger.why import explained, explained_sitting, pair_games
from scoring.models import Group, Invitation, Player, Sitting
from scoring.text.filenames import file_name
from scoring.text.numbers import int_param
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    login_required,
    redirect_with_query,
    wants_fragment,
)


def _group_player(group: Group, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, group=group)


# A long night has hundreds of games: a statement's "Từng ván" and a suggestion's "Vì sao?"
# name only the first few of each sitting and link to the sitting's own pages for the rest.
GAMES_EXPLAINED = 5  # per sitting of a suggestion's "why?", opened


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
    counts = sitting_counts(groups)
    rows = [{"group": g, "sittings": counts.get(g.pk, 0)} for g in groups]
    invitations = Invitation.objects.filter(
        invitee=request.user, status=Invitation.Status.PENDING, group__isnull=False
    ).select_related("group", "invited_by")
    context = {"rows": rows, "form": form, "invitations": invitations}
    return render(request, "groups/list.html", context, status=422 if form.errors else 200)


# A group's page and a statement show the latest sittings and lines, older ones on request
# ("Xem các bàn cũ hơn"): after five years of play a page still reads only what it shows.
LINES_SHOWN = 20


def _shown(params: Mapping[str, str], key: str, step: int) -> int:
    """How many of a list the page asks for (``?sittings=``, ``?lines=``): ``step`` by
    default, whole steps up to ``MOST_SHOWN``."""
    asked = int_param(params, key) or step
    return min(max(step, asked), MOST_SHOWN)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    today, shown = timezone.localdate(), _shown(request.GET, "sittings", SITTINGS_SHOWN)
    key, start, end, form = period_asked(request.GET, today)
    page = read_group_page(
        group,
        user_id=request.user.pk,
        key=key,
        start=start,
        end=end,
        today=today,
        shown=shown,
        step=SITTINGS_SHOWN,
    )
    context = {"page": page, "range_form": form}
    template = "groups/group.html"
    return render(request, template + "#ledger" if wants_fragment(request) else template, context)


# --- Why a suggestion ------------------------------------------------------------------------


def _pair(
    request: AuthenticatedHttpRequest, pk: int, payer_id: int, payee_id: int
) -> tuple[Group, Player, Player]:
    group = get_group_for_user(request.user, pk)
    if payer_id == payee_id:
        raise Http404
    return group, _group_player(group, payer_id), _group_player(group, payee_id)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_why(
    request: AuthenticatedHttpRequest, pk: int, payer_id: int, payee_id: int
) -> HttpResponse:
    """Why a suggestion says ``payer`` pays ``payee``: the two balances per sitting of the
    standing ledger and what the two paid each other there, the latest sittings and payments
    (``?lines=`` more, older ones summed up in one line); each sitting's games between the two
    open on request (``group_why_games``). Opened from the settle-up's "Vì sao?" (its
    fragment) or on a page of its own."""
    group, payer, payee = _pair(request, pk, payer_id, payee_id)
    shown = _shown(request.GET, "lines", WHY_SHOWN)
    context = {
        "group": group,
        "s": explained(group, payer, payee, shown=shown),
        "more_lines": min(shown + WHY_SHOWN, MOST_SHOWN) if shown < MOST_SHOWN else 0,
    }
    template = "groups/why.html"
    return render(request, template + "#why" if wants_fragment(request) else template, context)


@login_required
@require_http_methods(["GET"])
@vary_on_headers("HX-Request")
def group_why_games(
    request: AuthenticatedHttpRequest, pk: int, payer_id: int, payee_id: int, sitting_id: int
) -> HttpResponse:
    """A sitting line of a "Vì sao?": the first games of that sitting in which the two paid
    each other, each linked to its revision. Loaded into the line when opened (its
    fragment), or a page of its own. Only a sitting of the period explained (the open one)."""
    group, payer, payee = _pair(request, pk, payer_id, payee_id)
    sitting = explained_sitting(group, sitting_id)
    if sitting is None:
        raise Http404
    context = {
        "group": group,
        "payer": payer,
        "payee": payee,
        "pair": pair_games(sitting, payer, payee, GAMES_EXPLAINED),
    }
    template = "groups/why_games.html"
    return render(request, template + "#games" if wants_fragment(request) else template, context)


# --- Statements ----------------------------------------------------------------------------


def _statement_page(
    request: AuthenticatedHttpRequest, group: Group, player: Player, *, limited: bool = True
) -> tuple[StatementPage, RangeForm]:
    """The statement page of ``player`` as the request asks for it: its latest lines
    (``?lines=``), or every line (``limited`` False: the downloads); and the range form."""
    shown = _shown(request.GET, "lines", LINES_SHOWN) if limited else None
    key, start, end, form = period_asked(request.GET, timezone.localdate())
    page = statement_page(
        group,
        player,
        key=key,
        start=start,
        end=end,
        shown=shown,
        step=LINES_SHOWN,
    )
    return page, form


@login_required
@require_http_methods(["GET"])
def group_statement(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    if player.merged_into_id is not None:  # a merged name: its rows are the kept player's now
        url = reverse("group_statement", args=[group.pk, player.merged_into_id])
        key, start, end, _form = period_asked(request.GET, timezone.localdate())
        return redirect_with_query(url, Period(key, start, end).query())
    page, form = _statement_page(request, group, player)
    return render(request, "groups/statement.html", {"page": page, "range_form": form})


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
    games, count = sitting_games(group, player, sitting, GAMES_SHOWN)
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


def _statement_file(
    request: AuthenticatedHttpRequest, pk: int, player_id: int, suffix: str
) -> HttpResponse:
    """A player's whole statement (every line of the period asked) as a CSV or JSON file."""
    group = get_group_for_user(request.user, pk)
    player = _group_player(group, player_id)
    page, _form = _statement_page(request, group, player, limited=False)
    if suffix == ".csv":
        body, content_type = statement_csv(page.summary), "text/csv; charset=utf-8"
    else:
        data = statement_json(group, page.summary, page.period)
        body = json.dumps(data, ensure_ascii=False, indent=2)
        content_type = "application/json; charset=utf-8"
    response = HttpResponse(body.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        True, file_name(group.name, player.name, suffix=suffix, fallback="statement")
    )
    return response


@login_required
@require_http_methods(["GET"])
def group_statement_csv(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    return _statement_file(request, pk, player_id, ".csv")


@login_required
@require_http_methods(["GET"])
def group_statement_json(
    request: AuthenticatedHttpRequest, pk: int, player_id: int
) -> HttpResponse:
    return _statement_file(request, pk, player_id, ".json")


# --- Closing a period ----------------------------------------------------------------------


def _close_sitting(group: Group, sitting_id: int | None) -> Sitting | None:
    if sitting_id is None:
        return None
    return get_object_or_404(Sitting, pk=sitting_id, group=group)


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
    sitting = day = None
    if form.is_bound:
        sitting = _close_sitting(group, form.cleaned_data.get("sitting"))
        day = form.cleaned_data.get("closes_through")
    elif "closes_through" in request.GET:
        asked = RangeForm({"start": request.GET.get("closes_through", "")})
        day = asked.cleaned_data["start"] if asked.is_valid() else None
    else:
        sitting = latest_open_sitting(group)
    preview = close_preview(group, day or today, sitting)
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
    close = last_close(group)
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
    names = seating_names(group, last)
    form = GroupSittingForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        names=names,
        last=last,
    )
    if request.method == "POST" and form.is_valid() and (sitting := form.open(group)):
        if form.note:
            messages.info(request, form.note)
        return redirect(sitting)
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
        except (services.InvalidInput, services.Conflict) as error:  # Conflict: a closed period
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
    players = list(Player.objects.unmerged().filter(group=group).order_by("name"))
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


@login_required
@require_http_methods(["GET"])
def group_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Every change to the group, newest first: who, when, what."""
    group = get_group_for_user(request.user, pk)
    entries = group.history.select_related("user", "sitting", "period").order_by("-at", "-id")
    page_obj = Paginator(entries, HISTORY_PER_PAGE).get_page(int_param(request.GET, "page") or 1)
    return render(request, "groups/history.html", {"group": group, "page_obj": page_obj})
