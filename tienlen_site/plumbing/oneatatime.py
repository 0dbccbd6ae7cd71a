"""Pages whose cost grows with the games they cover run one at a time per person.

The what-if, the stats over a long range and the "Kiểm tra sổ" pages can each take a second or
more of a worker's CPU on a group with years of games. A person who sends a dozen of them at
once (a held-down reload key, a script) would take every worker and slow the site for
everyone else. So each such view is wrapped in :func:`one_at_a_time`: while one of them is
being computed for someone, a second one from the same person is answered at once with 429
"Đang tính, thử lại sau vài giây." and a ``Retry-After``, and computes nothing.

The lock is a cache key added with ``cache.add`` (atomic in Redis and in each process's memory
cache) and deleted when the view returns or raises. It is one key per person for every heavy
page, not one per page: what is bounded is the workers one person can hold. "A person" is the
signed-in account; for a page open to visitors without an account it is their session, else
their address (``tienlen_site.plumbing.clientip``).

Beside the person's lock, a heavy page takes one of ``settings.HEAVY_SLOTS`` site-wide slots
(cache keys ``heavy-slot:0``, ``heavy-slot:1``, …): ten people each opening one what-if at the
same moment could otherwise still hold every worker. With every slot taken the answer is the
same 429. With Redis as the cache (``CACHE_URL``, as several servers need anyway) the slots
count across every server; with each process's own memory they count within each process,
which for gunicorn's sync workers means no limit beyond the person's.

The keys live ``LOCK_SECONDS``, as long as gunicorn lets a request run (its 30 s worker
timeout): a request is never running once its lock has lapsed, and a worker killed in the
middle of one leaves a lock that frees itself within that time.

Redis is best-effort (``tienlen_site.plumbing.cache_backend``): when it cannot be reached ``add``
answers True, so the pages are served without the limit rather than refused. With each process's own
memory as the cache (development, one server), the limit holds within each process.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tienlen_site.plumbing.clientip import client_ip

LOCK_SECONDS = 30
RETRY_AFTER_SECONDS = 5
TEMPLATE = "busy.html"

type View = Callable[..., HttpResponse]


def person(request: HttpRequest) -> str:
    """Who is asking, as the lock counts them: the account, else the session, else the
    address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        return f"session:{session.session_key}"
    return f"ip:{client_ip(request) or 'unknown'}"


def lock_key(request: HttpRequest) -> str:
    return f"one-at-a-time:{person(request)}"


def busy_response(request: HttpRequest) -> HttpResponse:
    """429 with the page in the site's look; for htmx, only its message, to swap in place."""
    fragment = bool(getattr(request, "htmx", False))
    template = f"{TEMPLATE}#busy" if fragment else TEMPLATE
    context = {"retry_after": RETRY_AFTER_SECONDS}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def one_at_a_time(view: View) -> View:
    """Run ``view`` only when the same person has no heavy page being computed; else 429."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = lock_key(request)
        token = secrets.token_hex(8)
        if not cache.add(key, token, LOCK_SECONDS):
            return busy_response(request)
        slot = _take_slot(token)
        try:
            if slot is None:
                return busy_response(request)
            return view(request, *args, **kwargs)
        finally:
            # Only our own keys: had one lapsed and another request taken it, that one's stays.
            for held in (key, slot):
                if held is not None and cache.get(held) == token:
                    cache.delete(held)

    return wrapped


def slot_keys() -> list[str]:
    return [f"heavy-slot:{n}" for n in range(settings.HEAVY_SLOTS)]


def _take_slot(token: str) -> str | None:
    """One of the site-wide slots for a heavy page, or None when every one is taken."""
    for key in slot_keys():
        if cache.add(key, token, LOCK_SECONDS):
            return key
    return None
