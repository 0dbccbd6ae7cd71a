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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring import services
from scoring.access import get_sitting_for_owner
from scoring.ledger import live_board, live_cache, verify
from scoring.ledger.checks import witnessed_payments
from scoring.ledger.standing import close_covering
from scoring.models import Group, Sitting
from scoring.text import vietqr
from scoring.text.numbers import int_param
from tienlen_site.plumbing import probe
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    wants_fragment,
)
from tienlen_site.plumbing.poll import poll_etag, poll_response

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

POLL_SECONDS = 2
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


def link_change(
    request: HttpRequest, change: Callable[[str], object], done: Mapping[str, StrOrPromise]
) -> HttpResponse:
    """A link settings page's POST: ``change`` writes the action asked for (one of
    ``services.links.LINK_ACTIONS``, each with its words in ``done``), then back to the page."""
    action = request.POST.get("action", "")
    if action not in done:
        return HttpResponseBadRequest()
    change(action)
    messages.success(request, done[action])
    return redirect(request.path)


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


def live_settings(request: AuthenticatedHttpRequest, owner: Sitting | Group) -> HttpResponse:
    """A live link's settings page, a sitting's or a group's: its address and QR code, and the
    buttons that turn it on, replace it or turn it off (``link_change``)."""
    user = request.user

    def change(action: str) -> None:
        if isinstance(owner, Sitting):
            services.sitting_live_link(sitting=owner, user=user, action=action)
        else:
            services.group_live_link(group=owner, user=user, action=action)

    if request.method == "POST":
        return link_change(request, change, LIVE_ACTIONS)
    name, url_name = ("sitting", "live") if isinstance(owner, Sitting) else ("group", "group_live")
    context = {name: owner, **live_link(request, url_name, owner.live_token)}
    return render(request, "scoring/live_settings.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return live_settings(request, get_sitting_for_owner(request.user, pk))
