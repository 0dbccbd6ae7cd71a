"""What the views of the secret links share (a table's or group's live link, a player's own
link, a join code); no URL points here. Their answers kept private, the page a link answers
once it no longer opens, the links this phone keeps (its cookies), and a link settings page's
POST."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import mark_safe

from scoring import services
from scoring.ledger.gone import Gone
from scoring.models import Player, Sitting
from scoring.text import vietqr

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: How often a live page and a player's own page ask whether anything moved (seconds).
POLL_SECONDS = 2

_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
#: The cookie holding the player links this phone took (newest first, dot-separated).
MY_LINKS = "tl_me"
MY_LINKS_KEPT = 5
MY_LINKS_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
#: The cookie telling this phone apart from the others at the table (random, HttpOnly).
PHONE = "tl_phone"


def my_links(request: HttpRequest) -> list[str]:
    """The player links kept on this phone, newest first (only well-formed tokens)."""
    raw = request.COOKIES.get(MY_LINKS, "")
    tokens = [t for t in raw.split(".")[: MY_LINKS_KEPT * 2] if _TOKEN.fullmatch(t)]
    return list(dict.fromkeys(tokens))[:MY_LINKS_KEPT]


def keep_link(request: HttpRequest, response: HttpResponse, token: str) -> HttpResponse:
    tokens = [token] + [t for t in my_links(request) if t != token]
    response.set_cookie(
        MY_LINKS, ".".join(tokens[:MY_LINKS_KEPT]), max_age=MY_LINKS_AGE, httponly=True,
        samesite="Lax", secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
    )  # fmt: skip
    return response


def phone_of(request: HttpRequest) -> str:
    """The hash of this phone's own cookie, "" when it sent none (or a malformed one)."""
    raw = request.COOKIES.get(PHONE, "")
    if not _TOKEN.fullmatch(raw):
        return ""
    return hashlib.sha256(raw.encode()).hexdigest()


def keep_phone(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Give the phone its own cookie when it has none yet."""
    if not phone_of(request):
        response.set_cookie(
            PHONE, secrets.token_urlsafe(32), max_age=MY_LINKS_AGE, httponly=True,
            samesite="Lax", secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
        )  # fmt: skip
    return response


def my_player(request: HttpRequest, sitting: Sitting | None = None) -> Player | None:
    """The player whose link this phone keeps (of ``sitting``'s players when given): the
    newest that still opens."""
    tokens = my_links(request)
    if not tokens:
        return None
    players = Player.objects.unmerged().filter(link_token__in=tokens)
    if sitting is not None:
        players = players.filter(memberships__sitting=sitting)
    found = {p.link_token: p for p in players}
    return next((found[t] for t in tokens if t in found), None)


def private(response: HttpResponse) -> HttpResponse:
    """No index, no referrer to other sites, never cached: a secret link's page."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    # Like the live pages, the address (a secret) is never sent to another site. Not
    # "no-referrer" though: with it, Chromium sends the page's own "đã nhận" form with
    # ``Origin: null``, which the CSRF check rightly refuses.
    response["Referrer-Policy"] = "same-origin"
    # The page holds a CSP nonce and a CSRF token, and is one person's: never cached.
    add_never_cache_headers(response)
    return response


def link_gone(request: HttpRequest, gone: Gone, mine: Player | None = None) -> HttpResponse:
    """The page a player's link or a join code answers once it no longer opens: what happened
    and what to do (410; 404 for an address never handed out), in the site's look and the
    visitor's language, never Django's own 404. ``mine``: a player's link this phone still
    holds, offered as a button."""
    context = {"gone": gone, "mine": mine}
    return private(render(request, "scoring/link_gone.html", context, status=gone.status))


def link_and_qr(
    request: HttpRequest, url_name: str, token: str | None, title: str
) -> dict[str, object]:
    """A link settings page's address of the link and its QR code, both None while it is off."""
    if not token:
        return {"url": None, "qr": None}
    url = request.build_absolute_uri(reverse(url_name, args=[token]))
    # segno escapes the title; the rest of the SVG is fixed markup.
    return {"url": url, "qr": mark_safe(vietqr.qr_svg(url, title=title))}


def link_change(
    request: HttpRequest, change: Callable[[str], object], done: Mapping[str, StrOrPromise]
) -> HttpResponse:
    """A link settings page's POST: ``change`` writes the action asked for (one of
    ``services.links.LINK_ACTIONS``, each with its words in ``done``), then back to the page,
    saying why when it was refused (a join code of a sitting closed into a period)."""
    action = request.POST.get("action", "")
    if action not in done:
        return HttpResponseBadRequest()
    try:
        change(action)
    except services.Conflict as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done[action])
    return redirect(request.path)
