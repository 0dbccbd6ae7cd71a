"""The live table: open a sitting, its page, recording, editing and voiding games."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import F, Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from scoring import charts, engine, recordform, services, stats
from scoring.access import get_game_for_user, get_sitting_for_owner, get_sitting_for_user
from scoring.forms import InviteForm, MembersForm, SittingForm, VoidForm
from scoring.models import Game, HistoryEntry, Payment, Player, Seat, Sitting

GAMES_PER_PAGE = 10


@login_required
@require_http_methods(["GET", "POST"])
def sitting_new(request: HttpRequest) -> HttpResponse:
    form = SittingForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sitting, created = services.sitting_open_once(
                token=data["token"],
                owner=request.user,
                name=data["name"],
                date=data["date"],
                rules=data["ruleset"],
                stake=data["stake"],
                player_names=data["players"],
            )
        except services.LedgerError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        except services.Conflict as error:
            form.add_error(None, error.message)
            # A fresh token: sending this form again on purpose opens a new sitting.
            form.data = form.data.copy()
            form.data["token"] = str(uuid.uuid4())
        else:
            if not created:
                messages.info(request, _("Bàn này đã được mở rồi; đây là bàn đó."))
            return redirect(sitting)
    known = Player.objects.filter(owner=request.user, merged_into=None)[:40]
    return render(request, "scoring/sitting_new.html", {"form": form, "known": known})


def board_context(sitting: Sitting, page: int = 1) -> dict[str, Any]:
    """Everything the sitting page shows, in a constant number of queries."""
    members = [m.player for m in sitting.memberships.select_related("player")]
    game_totals = services.game_totals(sitting)
    balances = services.balances(sitting, member_ids=[p.pk for p in members], totals=game_totals)
    games = (
        sitting.games.select_related("led_by")
        .prefetch_related(
            Prefetch(
                "payments",
                queryset=Payment.objects.filter(revision=F("game__revision")).select_related(
                    "payer", "payee"
                ),
                to_attr="current_payments",
            ),
            Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list"),
        )
        .order_by("-number")
    )
    paginator = Paginator(games, GAMES_PER_PAGE)
    page_obj = paginator.get_page(page)
    latest = (
        sitting.games.filter(status=Game.Status.ACTIVE)
        .order_by("-number")
        .select_related("next_leader")
        .first()
    )
    totals = [
        {"player": p, "balance": balances.get(p.pk, 0), "won": game_totals.get(p.pk, 0)}
        for p in members
    ]
    return {
        "sitting": sitting,
        "members": members,
        "totals": totals,
        "page_obj": page_obj,
        "game_count": paginator.count,
        "next_leader": latest.next_leader if latest else None,
        "opening_next": latest is None or latest.next_leader is None,
        "rules": services.rules_of(sitting),
    }


def _last_players(sitting: Sitting, members: list[Player]) -> list[str]:
    last = sitting.games.filter(status=Game.Status.ACTIVE).order_by("-number").first()
    if last is None:
        return [p.name for p in members[:4]]
    names = {p.name for p in members}
    return [name for name in last.record.get("players", []) if name in names]


def _record_context(
    sitting: Sitting,
    form: recordform.RecordForm,
    *,
    validate: bool,
    game: Game | None = None,
) -> dict[str, Any]:
    """The record form plus its preview (payments or every problem) from the engine."""
    preview = None
    problems: list[engine.Problem] = []
    if validate:
        try:
            preview = services.game_score(sitting=sitting, record=form.to_record())
        except engine.InvalidRecord as error:
            problems = error.problems
    lang = services._lang()
    return {
        "form": form,
        "preview": preview,
        "problems": [(p.path, p.message(lang)) for p in problems],
        "rules": services.rules_of(sitting),
        "hands": _accepted_hands(services.rules_of(sitting)),
        "plays": engine.PLAYS,
        "heo_cards": recordform.HEO_LABEL,
        # A new game saves into the sitting page in place; an edit is a plain form post.
        "post_url": (
            reverse("game_edit", args=[sitting.pk, game.number])
            if game
            else reverse("game_new", args=[sitting.pk])
        ),
        "save_target": None if game else "#board-inner",
    }


def _accepted_hands(rules: engine.RuleSet) -> list[tuple[str, str]]:
    lang = services._lang()
    return [(hand, engine.hand_label(hand, lang)) for hand in rules.toi_trang_hands]


@login_required
@require_http_methods(["GET"])
def sitting_page(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    if request.htmx and request.GET.get("part") == "board":
        return _board_poll(request, sitting)
    if request.htmx and request.GET.get("part") == "games":
        return render(request, "scoring/sitting.html#games", board_context(sitting, _page(request)))
    if request.htmx and request.GET.get("part") == "chart":
        # Loaded only when opened: it reads every game, the rest of the page does not.
        return render(request, "scoring/sitting.html#chart", {"chart": running_chart(sitting)})
    context = _fresh_board(sitting, _page(request))
    context["undone"] = _undone(sitting, request)
    context.update(_poll_context(sitting, _page(request)))
    return render(request, "scoring/sitting.html", context)


POLL_SECONDS = 3


def _board_etag(sitting: Sitting, page: int) -> str:
    return f'"{sitting.version}-{page}-{translation.get_language()}"'


def _poll_context(sitting: Sitting, page: int) -> dict[str, Any]:
    return {
        "poll_seconds": POLL_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": _board_etag(sitting, page)}),
    }


def _board_poll(request: HttpRequest, sitting: Sitting) -> HttpResponse:
    """Totals, leader line and games, or 304 when the sitting's version has not moved.

    Two scorekeepers record on one sitting: each phone sees the other's saves within a poll.
    Nothing new costs the access check and no rendering; the version is bumped in the same
    transaction as every change (``services.lock_sitting``).
    """
    page = _page(request)
    etag = _board_etag(sitting, page)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = board_context(sitting, page)
        context.update(_poll_context(sitting, page), oob=True)
        response = render(request, "scoring/sitting.html#board_poll", context)
    response["ETag"] = etag
    # The page sends If-None-Match itself, so the browser's cache never answers for it.
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


def running_chart(sitting: Sitting) -> str:
    """Each player's running balance over the sitting's games, as inline SVG."""
    labels, series = stats.running_balances(sitting)
    svg = charts.line_chart(
        series,
        x_labels=labels,
        title=_("Tiền thắng thua qua các ván"),
        empty_text=_("Chưa có ván nào"),
    )
    return mark_safe(svg)  # charts.py escapes every name and label it draws


def _page(request: HttpRequest) -> int:
    try:
        return max(1, int(request.GET.get("page", 1)))
    except ValueError:
        return 1


@login_required
@require_POST
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview (every change of the form) and save (the button) of a new game."""
    sitting = get_sitting_for_user(request.user, pk)
    members = [m.player.name for m in sitting.memberships.select_related("player")]
    form = recordform.from_post(request.POST, members, services.rules_of(sitting))
    token = _token(request.POST.get("token"))
    saving = request.POST.get("action") == "save"
    context = _record_context(sitting, form, validate=True)
    context["token"] = token
    if not saving or context["problems"]:
        if saving:
            messages.error(request, _("Chưa lưu: hãy sửa các lỗi trong khung đỏ."))
        if request.htmx:
            response = render(request, "scoring/sitting.html#record", context)
            # A failed save was aimed at the board: put the errors back into the form.
            return reswap(retarget(response, "#record-form"), "outerHTML") if saving else response
        context.update(board_context(sitting))
        context.update(_poll_context(sitting, 1))
        return render(request, "scoring/sitting.html", context, status=422 if saving else 200)
    try:
        game, _created = services.game_record(
            sitting=sitting,
            user=request.user,
            record=form.to_record(),
            token=token,
            led_by=form.led,
        )
        conflict = None
    except services.Conflict as error:
        game, conflict = error.game, error.message
    if not request.htmx:
        if conflict:
            messages.error(request, conflict)
        else:
            messages.success(request, _("Đã lưu ván %(n)d.") % {"n": game.number})
        return redirect(sitting)
    context = _fresh_board(sitting)
    context.update(saved=None if conflict else game, conflict=conflict)
    return render(request, "scoring/sitting.html#board", context)


def _token(value: str | None) -> uuid.UUID:
    try:
        return uuid.UUID(value or "")
    except ValueError:
        return uuid.uuid4()


def _fresh_board(sitting: Sitting, page: int = 1) -> dict[str, Any]:
    """The sitting page's context with an empty record form for the next game."""
    context = board_context(sitting, page)
    members = context["members"]
    form = recordform.blank(
        [p.name for p in members], context["rules"], _last_players(sitting, members)
    )
    form.opening = context["opening_next"]
    leader = context["next_leader"]
    form.led = leader.name if leader and leader.name in form.played else ""
    context.update(_record_context(sitting, form, validate=False))
    context["token"] = uuid.uuid4()
    return context


@login_required
@require_http_methods(["GET"])
def game_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    payments = game.payments.select_related("payer", "payee").order_by("-revision", "id")
    revisions: dict[int, list[Payment]] = {}
    for payment in payments:
        revisions.setdefault(payment.revision, []).append(payment)
    history = game.history.select_related("user").order_by("-at", "-id")
    return render(
        request,
        "scoring/game.html",
        {
            "sitting": game.sitting,
            "game": game,
            "revisions": sorted(revisions.items(), reverse=True),
            "history": history,
            "void_form": VoidForm(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    sitting = game.sitting
    members = [m.player.name for m in sitting.memberships.select_related("player")]
    rules = services.rules_of(sitting)
    conflict = None
    if request.method == "GET":
        form = recordform.from_record(game.record, members, rules)
        form.led = game.led_by.name if game.led_by else ""
        expected = game.revision
        context = _record_context(sitting, form, validate=True, game=game)
    else:
        form = recordform.from_post(request.POST, form_members(members, game), rules)
        try:
            expected = int(request.POST.get("revision", ""))
        except ValueError:
            expected = game.revision
        context = _record_context(sitting, form, validate=True, game=game)
        if request.POST.get("action") == "save" and context["preview"] is not None:
            try:
                saved = services.game_edit(
                    game=game,
                    user=request.user,
                    record=form.to_record(),
                    expected_revision=expected,
                    led_by=form.led,
                )
            except services.Conflict as error:
                conflict = error.message
                game.refresh_from_db()
            except engine.InvalidRecord as error:
                lang = services._lang()
                context["problems"] = [(p.path, p.message(lang)) for p in error.problems]
            else:
                messages.success(
                    request,
                    _("Đã sửa ván %(n)d (lần sửa %(r)d).")
                    % {"n": saved.number, "r": saved.revision},
                )
                if request.htmx:
                    return HttpResponseClientRedirect(saved.get_absolute_url())
                return redirect(saved)
    context.update(
        sitting=sitting, game=game, expected_revision=expected, conflict=conflict, editing=True
    )
    if conflict:
        context["newer"] = recordform.from_record(game.record, members, rules)
    template = "scoring/game_edit.html"
    if request.htmx and request.method == "POST" and not conflict:
        template += "#record"
    return render(request, template, context, status=409 if conflict else 200)


def form_members(members: list[str], game: Game) -> list[str]:
    """Members plus anyone who played this game and has since left the sitting."""
    return members + [n for n in game.record.get("players", []) if n not in members]


@login_required
@require_POST
def game_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Hãy ghi lý do huỷ ván."))
    else:
        services.game_void(game=game, user=request.user, reason=form.cleaned_data["reason"])
        messages.success(request, _("Đã huỷ ván %(n)d.") % {"n": game.number})
    return _back(request, game.get_absolute_url())


@login_required
@require_POST
def game_restore(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    services.game_restore(game=game, user=request.user)
    messages.success(request, _("Đã khôi phục ván %(n)d.") % {"n": game.number})
    return _back(request, game.get_absolute_url())


@login_required
@require_POST
def sitting_undo(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    undone = services.sitting_undo(sitting=sitting, user=request.user)
    if undone is None:
        messages.info(request, _("Không còn gì để hoàn tác."))
        return _back(request, sitting.get_absolute_url())
    # The sitting page says what was undone, with a one-tap redo while nothing else changed.
    written = HistoryEntry.objects.filter(undoes=undone).first()
    url = sitting.get_absolute_url() + (f"?undone={written.pk}" if written else "")
    return _back(request, url)


@login_required
@require_POST
def sitting_redo(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    try:
        entry_id = int(request.POST.get("entry", ""))
    except ValueError:
        entry_id = 0
    try:
        redone = services.sitting_redo(sitting=sitting, user=request.user, undo_id=entry_id)
    except (services.Conflict, services.LedgerError) as error:
        messages.error(request, error.message)
    except engine.InvalidRecord:
        messages.error(request, _("Không làm lại được: ván này không còn hợp lệ với bàn."))
    else:
        assert redone.game is not None
        messages.success(request, _("Đã làm lại: ván %(n)d.") % {"n": redone.game.number})
    return _back(request, sitting.get_absolute_url())


def _undone(sitting: Sitting, request: HttpRequest) -> dict[str, Any] | None:
    """What the last tap on "undo" took back, while it can still be redone."""
    value = request.GET.get("undone", "")
    if not value.isdigit():
        return None
    entry = (
        sitting.history.filter(pk=int(value), undoes__isnull=False, game__isnull=False)
        .select_related("undoes", "game")
        .first()
    )
    if entry is None or not services.undo_entry_redoable(sitting, entry):
        return None
    assert entry.undoes is not None and entry.game is not None
    seats = entry.game.seats.select_related("player")
    return {"entry": entry, "action": entry.undoes.action, "game": entry.game, "seats": seats}


def _back(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_members(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    names = [m.player.name for m in sitting.memberships.select_related("player")]
    form = MembersForm(request.POST or None, initial={"players": "\n".join(names)})
    if request.method == "POST" and form.is_valid():
        try:
            services.sitting_set_members(
                sitting=sitting, user=request.user, player_names=form.cleaned_data["players"]
            )
        except services.LedgerError as error:
            form.add_error("players", error.message)
        else:
            messages.success(request, _("Đã cập nhật người chơi."))
            return redirect(sitting)
    return render(request, "scoring/members.html", {"sitting": sitting, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def sitting_share(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_owner(request.user, pk)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invitee = form.cleaned_data["username"]
        if invitee.pk != sitting.owner_id:
            services.sitting_share(sitting=sitting, user=request.user, invitee=invitee)
        messages.success(
            request, _("%(u)s giờ có thể ghi sổ bàn này.") % {"u": invitee.get_username()}
        )
        return redirect("sitting_share", pk=sitting.pk)
    return render(
        request,
        "scoring/share.html",
        {"sitting": sitting, "form": form, "scorekeepers": sitting.scorekeepers.all()},
    )


@login_required
@require_http_methods(["GET"])
def sitting_history(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    entries = sitting.history.select_related("user", "game", "settlement")
    page_obj = Paginator(entries, 50).get_page(_page(request))
    return render(
        request,
        "scoring/history.html",
        {"sitting": sitting, "page_obj": page_obj, "actions": HistoryEntry.Action},
    )
