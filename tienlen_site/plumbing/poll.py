"""Pages that poll themselves: the scorekeeper's board, a sitting's live page, a group's.

Each renders its ETag into the page (``hx-headers``), and every few seconds htmx asks again
with that tag in If-None-Match. A poll whose tag still names the current version is answered
304 with nothing rendered; any other gets the fresh fragment and its new tag.

The tag is built from what the view already knows before rendering (the version, the
language, the page of games, the link's token), so the 304 costs no rendering. If-None-Match
is compared weakly (RFC 9110 13.1.2), as Django's own conditional responses compare it:
GZipMiddleware turns the tag of every compressed fragment weak, and a client echoes back the
``W/"…"`` form it received.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language


def poll_etag(version: object, *parts: object, token: str = "") -> str:
    """The strong tag of one rendering: the version, any other parts, the language (the same
    version reads differently in English) and, for a live link, its token hashed in so one
    link's tag never matches another's (or a regenerated link's)."""
    fields = [str(version), *map(str, parts), get_language()]
    if token:
        fields.append(hashlib.sha256(token.encode()).hexdigest()[:12])
    return '"' + "-".join(fields) + '"'


def _unchanged(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match already holds ``etag`` (weakly compared)."""
    tags = {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}
    return etag in tags or "*" in tags


def poll_response(
    request: HttpRequest, etag: str, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """A poll's answer: 304 if nothing is new since ``etag``, else ``render()``; tagged.

    The page sends If-None-Match itself, so the browser's own cache is told never to answer
    for it; the fragment and the full page share an address, hence Vary: HX-Request.
    """
    response = HttpResponseNotModified() if _unchanged(request, etag) else render()
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response
