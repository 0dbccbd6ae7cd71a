"""The live table: open a sitting, its page, recording, editing and voiding games."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from scoring import engine, ledger, services
from scoring.access import get_game_for_user, get_sitting_for_user
from scoring.forms import record as recordform
from scoring.forms.pages import MembersForm, SittingForm, VoidForm
from scoring.ledger.shown import HISTORY_PER_PAGE
from scoring.ledger.standing import close_covering
from scoring.models import Game, HistoryEntry, Player, Sitting
from scoring.services.common import frozen_message
from scoring.text.numbers import int_param
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    page_redirect,
    wants_fragment,
)
from tienlen_site.plumbing.poll import poll_etag, poll_response


@login_required
@require_http_methods(["GET", "POST"])
def sitting_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SittingForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid() and (sitting := form.open()):
        if form.note:
            messages.info(request, form.note)
        return redirect(sitting)
    known = Player.objects.unmerged().filter(owner=request.user)[:40]
    return render(request, "scoring/sitting_new.html", {"form": form, "known": known})


def _touched(request: HtmxHttpRequest) -> set[str] | None:
    """The fields the page says were touched; None (show every problem) when it says nothing
    (no script) or when the scorekeeper asked: the save and the preview buttons."""
    if request.POST.get("action") in ("save", "preview") or "touched" not in request.POST:
        return None
    touched = set(request.POST.get("touched", "").split())
    return None if "*" in touched else touched


def _form_urls(sitting: Sitting, game: Game | None = None) -> dict[str, Any]:
    """Where the record form posts: a new game saves into the sitting page in place, an edit
    is a plain form post."""
    if game is not None:
        return {"post_url": reverse("game_edit", args=[sitting.pk, game.number])}
    return {"post_url": reverse("game_new", args=[sitting.pk]), "save_target": "#board-inner"}


@login_required
@require_http_methods(["GET"])
def sitting_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    if wants_fragment(request, "board"):
        return _board_poll(request, sitting)
    if wants_fragment(request, "games"):
        return render(request, "scoring/sitting.html#games", ledger.board(sitting, _page(request)))
    if wants_fragment(request, "chart"):
        # Loaded only when opened: it reads every game, the rest of the page does not.
        return render(
            request, "scoring/sitting.html#chart", {"chart": ledger.running_chart(sitting)}
        )
    page = _page(request)
    context = {**_form_urls(sitting), **_poll_context(sitting, page), "token": uuid.uuid4()}
    context.update(undone=_undone(sitting, request), frozen=close_covering(sitting))
    board = ledger.board(sitting, page)
    context.update(board, form=recordform.next_game(board))
    return render(request, "scoring/sitting.html", context)


POLL_SECONDS = 3


def _poll_context(sitting: Sitting, page: int) -> dict[str, Any]:
    return {
        "poll_seconds": POLL_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": poll_etag(sitting.version, page)}),
    }


def _board_poll(request: HtmxHttpRequest, sitting: Sitting) -> HttpResponse:
    """Totals, leader line and games, or 304 when the sitting's version has not moved.

    Two scorekeepers record on one sitting: each phone sees the other's saves within a poll.
    Nothing new costs the access check and no rendering; the version is bumped in the same
    transaction as every change (``services.common.lock_sitting``).
    """
    page = _page(request)

    def board() -> HttpResponse:
        context = ledger.board(sitting, page)
        context.update(_poll_context(sitting, page), oob=True)
        return render(request, "scoring/sitting.html#board_poll", context)

    return poll_response(request, poll_etag(sitting.version, page), board)


def _page(request: HtmxHttpRequest) -> int:
    return int_param(request.GET, "page") or 1


@login_required
@require_POST
def game_new(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Preview (every change of the form) and save (the button) of a new game."""
    sitting = get_sitting_for_user(request.user, pk)
    context = {**_form_urls(sitting), "token": _token(request.POST.get("token"))}
    touched = _touched(request)
    # Read once: the form, its check, the save and the board it answers with all use these.
    members = sitting.players_by_name()
    form = recordform.from_post(request.POST, list(members), sitting.ruleset())
    if request.POST.get("action") != "save":
        recordform.check(form, sitting, members=members, touched=touched)
        return _unsaved(request, sitting, {**context, "form": form}, saving=False)
    if form.input_problems:  # the engine's problems are shown beside them
        recordform.check(form, sitting, members=members)
        return _unsaved(request, sitting, {**context, "form": form}, saving=True)
    conflict, game = None, None
    try:
        game, created = services.game_record(
            sitting=sitting,
            user=request.user,
            record=form.to_record(),
            token=context["token"],
            led_by=form.led,
            members=members,
        )
    except engine.InvalidRecord as error:
        recordform.refuse(form, error.problems)
        return _unsaved(request, sitting, {**context, "form": form}, saving=True)
    except services.Conflict as error:
        game, created, conflict = error.game, False, error.message
    if not wants_fragment(request):
        if conflict:
            messages.error(request, conflict)
        elif game is not None:
            messages.success(request, _("Đã lưu ván %(n)d.") % {"n": game.number})
        return redirect(sitting)
    board = ledger.board(sitting, members=list(members.values()))
    context.update(board, form=recordform.next_game(board), token=uuid.uuid4())
    # Saved now: the period was open under the lock, so no close covers the sitting.
    frozen = None if created else close_covering(sitting)
    context.update(saved=None if conflict else game, conflict=conflict, frozen=frozen)
    return render(request, "scoring/sitting.html#board", context)


def _unsaved(
    request: HtmxHttpRequest, sitting: Sitting, context: dict[str, Any], *, saving: bool
) -> HttpResponse:
    """The record form with its preview, or with what stopped its save."""
    context["save_failed"] = saving
    if wants_fragment(request):
        response = render(request, "scoring/sitting.html#record", context)
        # A failed save was aimed at the board: put the errors back into the form.
        return reswap(retarget(response, "#record-form"), "outerHTML") if saving else response
    if saving:
        messages.error(request, _("Chưa lưu: hãy sửa các lỗi trong khung đỏ."))
    context.update(ledger.board(sitting), frozen=close_covering(sitting))
    context.update(_poll_context(sitting, 1))
    return render(request, "scoring/sitting.html", context, status=422 if saving else 200)


def _token(value: str | None) -> uuid.UUID:
    try:
        return uuid.UUID(value or "")
    except ValueError:
        return uuid.uuid4()


def _refused(
    request: HtmxHttpRequest, sitting: Sitting, message: str, back: str | None = None
) -> HttpResponse:
    """A write the ledger refuses (mostly: the sitting is in a closed period), answered with
    a page that says why, as a 409, never a 500, with the way ``back`` (the sitting unless
    said). htmx swaps only 2xx answers, so an htmx request is sent ``back`` instead, the
    message shown there."""
    back = back or sitting.get_absolute_url()
    if wants_fragment(request):
        messages.error(request, message)
        return page_redirect(request, back)
    context = {"sitting": sitting, "message": message, "frozen": close_covering(sitting)}
    context["back"] = back
    return render(request, "scoring/refused.html", context, status=409)


@login_required
@require_http_methods(["GET"])
def game_page(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    history = game.history.select_related("user").order_by("-at", "-id")
    return render(
        request,
        "scoring/game.html",
        {
            "sitting": game.sitting,
            "game": game,
            "revisions": ledger.game_revisions(game),
            "history": history,
            "void_form": VoidForm(),
            "frozen": close_covering(game.sitting),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_edit(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    sitting = game.sitting
    close = close_covering(sitting)
    if close is not None:
        return _refused(request, sitting, frozen_message(close.closes_through))
    members = list(sitting.players_by_name())
    rules = sitting.ruleset()
    context = _form_urls(sitting, game)
    conflict = None
    if request.method == "GET":
        form = recordform.from_record(game.record, members, rules)
        form.led = game.led_by.name if game.led_by else ""
        expected = game.revision
        recordform.check(form, sitting)
    else:
        # Members, and anyone who played this game and has since left the sitting.
        played = [n for n in game.record.get("players", []) if n not in members]
        form = recordform.from_post(request.POST, members + played, rules)
        expected = int_param(request.POST, "revision") or game.revision
        recordform.check(form, sitting, touched=_touched(request))
        saving = request.POST.get("action") == "save"
        if saving and form.preview is not None:
            try:
                saved = services.game_edit(
                    game=game,
                    user=request.user,
                    record=form.to_record(),
                    expected_revision=expected,
                    led_by=form.led,
                ).game
            except services.Conflict as error:
                conflict = error.message
                game.refresh_from_db()
            except engine.InvalidRecord as error:
                recordform.refuse(form, error.problems)
            else:
                messages.success(
                    request,
                    _("Đã sửa ván %(n)d (lần sửa %(r)d).")
                    % {"n": saved.number, "r": saved.revision},
                )
                return page_redirect(request, saved.get_absolute_url())
        context["save_failed"] = saving and bool(form.problems)
    context.update(form=form, sitting=sitting, game=game, expected_revision=expected)
    context.update(conflict=conflict, editing=True)
    if conflict:
        context["newer"] = recordform.from_record(game.record, members, rules)
    template = "scoring/game_edit.html"
    if wants_fragment(request) and request.method == "POST" and not conflict:
        template += "#record"
    return render(request, template, context, status=409 if conflict else 200)


@login_required
@require_POST
def game_void(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.first_error())
    else:
        try:
            services.game_void(game=game, user=request.user, reason=form.cleaned_data["reason"])
        except services.Conflict as error:
            return _refused(request, game.sitting, error.message, game.get_absolute_url())
        messages.success(request, _("Đã huỷ ván %(n)d.") % {"n": game.number})
    return page_redirect(request, game.get_absolute_url())


@login_required
@require_POST
def game_restore(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_game_for_user(request.user, pk, number)
    try:
        services.game_restore(game=game, user=request.user)
    except services.Conflict as error:
        return _refused(request, game.sitting, error.message, game.get_absolute_url())
    messages.success(request, _("Đã khôi phục ván %(n)d.") % {"n": game.number})
    return page_redirect(request, game.get_absolute_url())


@login_required
@require_POST
def sitting_undo(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    try:
        undone = services.sitting_undo(sitting=sitting, user=request.user)
    except services.Conflict as error:
        return _refused(request, sitting, error.message)
    if undone is None:
        messages.info(request, _("Không còn gì để hoàn tác."))
        return page_redirect(request, sitting.get_absolute_url())
    # The sitting page says what was undone, with a one-tap redo while nothing else changed.
    url = f"{sitting.get_absolute_url()}?undone={undone.undone_by.pk}"
    return page_redirect(request, url)


@login_required
@require_POST
def sitting_redo(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    entry_id = int_param(request.POST, "entry") or 0
    try:
        redone = services.sitting_redo(sitting=sitting, user=request.user, undo_id=entry_id)
    except (services.Conflict, services.InvalidInput) as error:
        messages.error(request, error.message)
    except engine.InvalidRecord:
        messages.error(request, _("Không làm lại được: ván này không còn hợp lệ với bàn."))
    else:
        assert redone.game is not None
        messages.success(request, _("Đã làm lại: ván %(n)d.") % {"n": redone.game.number})
    return page_redirect(request, sitting.get_absolute_url())


def _undone(sitting: Sitting, request: HtmxHttpRequest) -> dict[str, Any] | None:
    """What the last tap on "undo" took back, while it can still be redone."""
    entry_id = int_param(request.GET, "undone")
    if entry_id is None:
        return None
    entry = (
        sitting.history.filter(pk=entry_id, undoes__isnull=False, game__isnull=False)
        .select_related("undoes", "game")
        .first()
    )
    if entry is None or not services.undo_entry_redoable(sitting, entry):
        return None
    assert entry.undoes is not None and entry.game is not None
    seats = entry.game.seats.select_related("player")
    return {"entry": entry, "action": entry.undoes.action, "game": entry.game, "seats": seats}


@login_required
@require_http_methods(["GET", "POST"])
def sitting_members(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    names = [m.player.name for m in sitting.memberships.select_related("player")]
    form = MembersForm(request.POST or None, initial={"players": "\n".join(names)})
    if request.method == "POST" and form.is_valid():
        try:
            services.sitting_set_members(
                sitting=sitting, user=request.user, player_names=form.cleaned_data["players"]
            )
        except services.InvalidInput as error:
            form.add_error("players", error.message)
        except services.Conflict as error:
            return _refused(request, sitting, error.message)
        else:
            messages.success(request, _("Đã cập nhật người chơi."))
            return redirect(sitting)
    context = {"sitting": sitting, "form": form, "names": names}
    return render(request, "scoring/members.html", {**context, "frozen": close_covering(sitting)})


@login_required
@require_http_methods(["GET"])
def sitting_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_user(request.user, pk)
    entries = sitting.history.select_related("user", "game", "settlement")
    page_obj = Paginator(entries, HISTORY_PER_PAGE).get_page(_page(request))
    return render(
        request,
        "scoring/history.html",
        {"sitting": sitting, "page_obj": page_obj, "actions": HistoryEntry.Action},
    )
