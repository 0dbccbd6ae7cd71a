"""The live table: a read-only page anyone with the link can watch, and its settings.

The public page shows totals, the latest games and their payments, who leads next, a chart
of the running totals and the settle-up, and nothing else (no usernames, no history, no links
into the scorekeeper's pages). It polls itself every 2 seconds; a poll that finds nothing new
is answered 304 from the cached version (one indexed query when the cache misses), without
rendering anything.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
)
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring import live_cache, probe, services, vietqr
from scoring.access import get_sitting_for_owner
from scoring.http import AuthenticatedHttpRequest, HtmxHttpRequest
from scoring.ledger import live_board
from scoring.models import Sitting

POLL_SECONDS = 2
BOARD_CACHE_SECONDS = 60
# One render per version: how long a claim to render stands, and how long others wait for it.
RENDER_CLAIM_SECONDS = 5
RENDER_WAIT_SECONDS = 0.5


def _etag(version: int, token: str, language: str) -> str:
    # The language is part of it: the same version renders differently in English. The token
    # is hashed in so one sitting's tag can never match another's (or a regenerated link's).
    digest = hashlib.sha256(token.encode()).hexdigest()[:12]
    return f'"{version}-{language}-{digest}"'


def _matches(etag: str, if_none_match: str) -> bool:
    # If-None-Match compares weakly (RFC 9110 13.1.2): GZipMiddleware marks the tag of every
    # compressed board weak, and a client echoes back the W/"…" form it received.
    tags = {tag.removeprefix("W/") for tag in parse_etags(if_none_match)}
    return etag in tags or "*" in tags


def _is_poll(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


@require_http_methods(["GET", "HEAD"])
def live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    # Read the version before anything else: if a game lands while this request renders, the
    # page may already show it, but the tag stays older, so the next poll renders again
    # rather than missing the change. The version comes from the cache when it can: a quiet
    # poll then answers 304 without touching the database (see scoring.live_cache).
    version = live_cache.live_version(token)
    if version is None:
        raise Http404
    etag = _etag(version, token, request.LANGUAGE_CODE)
    poll = _is_poll(request)
    if poll and _matches(etag, request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
        response["ETag"] = etag
        return _headers(response, poll=True)
    if poll:
        response = HttpResponse(_board(request, token, etag))
        response["ETag"] = etag
        return _headers(response, poll=True)
    # The full page. When a QR code is shown to a room, two hundred phones open it within a
    # second: for a visitor with no session (every phone that scanned the code) it too is
    # rendered once per version and language, with markers where this request's CSP nonce
    # and CSRF token go. Anyone else gets a page of their own around the shared board.
    if _plain_visitor(request):
        return _headers(_shared_page(request, token, etag), poll=False)
    sitting = _sitting_or_404(token)
    response = render(request, "scoring/live.html", _page_context(request, token, etag, sitting))
    return _headers(response, poll=False)


def _plain_visitor(request: HtmxHttpRequest) -> bool:
    # No session cookie: anonymous, with no messages waiting in a session. No messages cookie,
    # no query string (the language switch sends the full path back): the page is the same
    # for every such visitor but for the nonce and the CSRF token.
    return not (
        request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        or request.COOKIES.get("messages")
        or request.GET
    )


def _page_context(
    request: HtmxHttpRequest, token: str, etag: str, sitting: Sitting
) -> dict[str, Any]:
    return {
        "sitting": sitting,
        "rules": services.rules_of(sitting),
        "poll_seconds": POLL_SECONDS,
        "board": mark_safe(_board(request, token, etag, sitting)),  # rendered by our template
    }


def _shared_page(request: HtmxHttpRequest, token: str, etag: str) -> HttpResponse:
    key = f"live-page:{etag}"
    cached = cache.get(key)
    if cached is None:
        sitting = _sitting_or_404(token)
        # Fresh random markers: no sitting or player name can contain them.
        nonce_mark, csrf_mark = secrets.token_hex(16), secrets.token_hex(16)
        context = _page_context(request, token, etag, sitting)
        context.update({"csp_nonce": nonce_mark, "csrf_token": csrf_mark})
        page = render_to_string("scoring/live.html", context, request=request)
        cached = (nonce_mark, csrf_mark, page)
        cache.set(key, cached, BOARD_CACHE_SECONDS)
    nonce_mark, csrf_mark, page = cached
    page = page.replace(nonce_mark, str(get_nonce(request))).replace(csrf_mark, get_token(request))
    return HttpResponse(page)


def _board(request: HtmxHttpRequest, token: str, etag: str, sitting: Sitting | None = None) -> str:
    """The board of this version and language, rendered once for everyone watching it.

    After a save every watching phone polls within two seconds with the same old tag. The
    fragment holds no nonce, CSRF token or user, so one copy serves them all. The first
    request to miss claims the render; the others (in any process sharing the cache) wait a
    moment for its result rather than rendering the same board again, and render it
    themselves only if it does not come.
    """
    key = f"live-board:{etag}"
    board = cache.get(key)
    if board is not None:
        return str(board)
    if not cache.add(f"{key}:claim", 1, RENDER_CLAIM_SECONDS):
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.01)
            board = cache.get(key)
            if board is not None:
                return str(board)
    sitting = sitting or _sitting_or_404(token)
    board = render_to_string(
        "scoring/live.html#board", _live_context(sitting, etag), request=request
    )
    probe.note_render(request)
    cache.set(key, board, BOARD_CACHE_SECONDS)
    return board


def _sitting_or_404(token: str) -> Sitting:
    # A link revoked in the last few milliseconds is gone.
    return get_object_or_404(Sitting, live_token=token)


def _headers(response: HttpResponse, *, poll: bool) -> HttpResponse:
    if poll:
        # The page sends If-None-Match itself, so the browser's cache never answers for it.
        patch_cache_control(response, private=True, no_cache=True)
    else:
        # The full page holds a CSP nonce: a cached copy would have its scripts refused.
        add_never_cache_headers(response)
    patch_vary_headers(response, ["HX-Request"])
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _live_context(sitting: Sitting, etag: str) -> dict[str, Any]:
    return {
        **live_board(sitting),
        "poll_seconds": POLL_SECONDS,
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }


# --- The owner's side: turning the link on and off --------------------------------------

LIVE_ACTIONS = {
    "enable": (services.live_link_enable, gettext_lazy("Liên kết xem đang bật.")),
    "regenerate": (
        services.live_link_regenerate,
        gettext_lazy("Đã tạo liên kết mới; liên kết cũ không còn mở được."),
    ),
    "revoke": (services.live_link_revoke, gettext_lazy("Đã tắt liên kết xem.")),
}


def live_link(request: HttpRequest, url_name: str, token: str | None) -> dict[str, str | None]:
    """A live page's address and its QR code for the settings page (both None while off)."""
    if not token:
        return {"url": None, "qr": None}
    url = request.build_absolute_uri(reverse(url_name, args=[token]))
    # segno escapes the title; the rest of the SVG is fixed markup.
    return {
        "url": url,
        "qr": mark_safe(vietqr.qr_svg(url, title=_("Mã QR mở trang xem trực tiếp"))),
    }


@login_required
@require_http_methods(["GET", "POST"])
def sitting_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_owner(request.user, pk)
    if request.method == "POST":
        action, done = LIVE_ACTIONS.get(request.POST.get("action", ""), (None, ""))
        if action is None:
            return HttpResponseBadRequest()
        action(sitting=sitting, user=request.user)
        messages.success(request, done)
        return redirect("sitting_live", pk=sitting.pk)
    context = {"sitting": sitting, **live_link(request, "live", sitting.live_token)}
    return render(request, "scoring/live_settings.html", context)
