"""The live table: a read-only page anyone with the link can watch, and its settings.

The public page shows totals, the latest games and their payments, who leads next, a chart
of the running totals and the settle-up, and nothing else (no usernames, no history, no links
into the scorekeeper's pages). It polls itself every 2 seconds; a poll that finds nothing new
is answered 304 from the cached version (one indexed query when the cache misses), without
rendering anything.
"""

from __future__ import annotations

import functools
import json
from typing import Any, cast

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.access import get_group_for_owner, get_sitting_for_owner
from scoring.ledger import game_totals, live_board, live_cache, stats, verify
from scoring.ledger.checks import witnessed_payments
from scoring.ledger.group_live import group_for_live_token, live_view
from scoring.ledger.standing import close_covering, last_close, ledger_version
from scoring.models import Group, Player, Sitting
from scoring.text.numbers import int_param
from scoring.views.links import POLL_SECONDS, link_and_qr, link_change
from tienlen_site.plumbing import probe
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    wants_fragment,
)
from tienlen_site.plumbing.poll import poll_etag, poll_response

REFRESH_SECONDS = 10  # without JavaScript, the page reloads itself
CACHE_SECONDS = 60


@require_http_methods(["GET", "HEAD"])
def live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    # Read the version before anything else: if a game lands while this request renders, the
    # page may already show it, but the tag stays older, so the next poll renders again
    # rather than missing the change. The version comes from the cache when it can: a quiet
    # poll then answers 304 without touching the database (see scoring.ledger.live_cache).
    version = live_cache.live_version(token)
    if version is None:
        raise Http404
    etag = poll_etag(version, token=token)
    if wants_fragment(request):
        response = poll_response(request, etag, lambda: HttpResponse(_board(request, token, etag)))
        return _no_index(response)
    # The full page, rendered for this request (its own CSP nonce, CSRF token and user)
    # around the sitting and the board cached for this version: when a QR code is shown to a
    # room and every phone opens the page at once, none of them runs a query.
    sitting = cast(
        Sitting,
        cache.get_or_set(
            f"live-sitting:{etag}", functools.partial(_sitting_or_404, token), CACHE_SECONDS
        ),
    )
    context = {
        "sitting": sitting,
        "rules": sitting.ruleset(),
        "poll_seconds": POLL_SECONDS,
        "refresh_seconds": REFRESH_SECONDS,
        "board": mark_safe(_board(request, token, etag, sitting)),  # rendered by our template
    }
    response = render(request, "scoring/live.html", context)
    # The page holds a CSP nonce: a cached copy would have its scripts refused.
    add_never_cache_headers(response)
    patch_vary_headers(response, ["HX-Request"])
    return _no_index(response)


def _board(request: HtmxHttpRequest, token: str, etag: str, sitting: Sitting | None = None) -> str:
    """The board of this version and language, shared by everyone watching it.

    After a save every watching phone polls within two seconds with the same old tag. The
    fragment holds no nonce, CSRF token or user, so the copy the first of them renders, kept
    in the cache under the new tag, serves the rest (in any process sharing the cache).
    """

    def rendered() -> str:
        board = render_to_string(
            "scoring/live.html#board",
            _live_context(sitting or _sitting_or_404(token), etag),
            request=request,
        )
        probe.note_render(request)
        return board

    return str(cache.get_or_set(f"live-board:{etag}", rendered, CACHE_SECONDS))


def _sitting_or_404(token: str) -> Sitting:
    # A link revoked in the last few milliseconds is gone.
    return get_object_or_404(Sitting, live_token=token)


def _no_index(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _live_context(sitting: Sitting, etag: str) -> dict[str, Any]:
    return {
        **live_board(sitting),
        "frozen": close_covering(sitting),
        "book": verify.head_info(sitting),
        "poll_seconds": POLL_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }


@require_http_methods(["GET"])
def live_book(request: HttpRequest, token: str) -> HttpResponse:
    """The witness's question: the book since the ``since``-th entry (``static/js/witness.js``,
    ``scoring.ledger.verify.witness``). Read on a visit, never by the poll."""
    sitting = _sitting_or_404(token)
    # A count the phone kept; anything unreadable asks for the whole book.
    since = int_param(request.GET, "since") or 0
    # The payments too: a payment changed in the database leaves the history untouched.
    response = JsonResponse(
        {**verify.witness(sitting, since), "payments": witnessed_payments(sitting)}
    )
    add_never_cache_headers(response)
    return _no_index(response)


# --- The owner's side: turning the link on and off --------------------------------------

# What each of the three buttons of a live link's settings page (the sitting's and the
# group's) says once done; a player's own link has its own words (``payee.LINK_DONE``).
LIVE_ACTIONS = {
    "enable": gettext_lazy("Liên kết xem đang bật."),
    "regenerate": gettext_lazy("Đã tạo liên kết mới; liên kết cũ không còn mở được."),
    "revoke": gettext_lazy("Đã tắt liên kết xem."),
}


def live_settings(request: AuthenticatedHttpRequest, owner: Sitting | Group) -> HttpResponse:
    """A live link's settings page, a sitting's or a group's: its address and QR code (both None
    while off), and the buttons that turn it on, replace it or turn it off (``link_change``)."""
    user = request.user

    def change(action: str) -> None:
        if isinstance(owner, Sitting):
            services.sitting_live_link(sitting=owner, user=user, action=action)
        else:
            services.group_live_link(group=owner, user=user, action=action)

    if request.method == "POST":
        return link_change(request, change, LIVE_ACTIONS)
    name, url_name = ("sitting", "live") if isinstance(owner, Sitting) else ("group", "group_live")
    title = _("Mã QR mở trang xem trực tiếp")
    context = {name: owner, **link_and_qr(request, url_name, owner.live_token, title)}
    return render(request, "scoring/live_settings.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return live_settings(request, get_sitting_for_owner(request.user, pk))


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
        shown = _("Trang xem của nhóm có thêm bảng xếp hạng.")
        hidden = _("Trang xem của nhóm không còn bảng xếp hạng.")
        messages.success(request, shown if show == "1" else hidden)
    return redirect("group_live_settings", pk=group.pk)


@require_http_methods(["GET", "HEAD"])
def group_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """What a player checks on the way home: balances, the open sitting, who pays whom.

    The page polls itself; a poll whose ledger version has not moved is answered 304 after
    one query, without rendering anything."""
    group = group_for_live_token(token)
    if group is None:
        raise Http404
    etag = poll_etag(f"g{ledger_version(group)}", token=token)

    def page(template: str = "groups/live.html") -> HttpResponse:
        response = _no_index(render(request, template, _group_live_context(group, etag)))
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
    live = live_view(group)
    open_totals: list[tuple[Player, int]] = []
    if live.open_sitting is not None:
        totals = game_totals(live.open_sitting)
        by_id = {row.player.pk: row.player for row in live.rows}
        open_totals = sorted(
            ((by_id[pk], total) for pk, total in totals.items() if pk in by_id),
            key=lambda item: -item[1],
        )
    closed = last_close(group)
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
