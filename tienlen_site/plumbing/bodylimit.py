"""Refuse a request larger than the largest legitimate one, before anything reads it: a body
(``RequestSizeMiddleware``), or an address (``RequestLineMiddleware``).

Django parses a POST body the first time anything touches ``request.POST`` (the CSRF check
does, for every visitor, logged in or not), and writes an uploaded file above
``FILE_UPLOAD_MAX_MEMORY_SIZE`` to a temporary file on disk. Without this middleware a 200 MB
upload to the log-in page was read and written to disk before being refused.

The limit is ``settings.MAX_REQUEST_BYTES`` (see docs/deployment.md; the proxy
in front must use the same number). The answer is a 413 page in the site's look and the
visitor's language; the body is never read, so refusing costs nothing.

A body sent in chunks without a ``Content-Length`` is refused with 411: Django (under WSGI)
reads such a body as empty, so the form would be judged without its fields. Browsers always
send the length of a form.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation

#: What a declared length with more digits than any count could have counts as: more than
#: any limit, so it is refused.
TOO_LONG = 2**63 - 1
_FULLWIDTH = re.compile("[\uff01-\uff5e\u3000]")
_COUNT = re.compile(r"[+-]?[0-9]+", re.ASCII)


def declared_length(request: HttpRequest) -> int | None:
    """The body's length as the request declares it; None if it does not, or not as a count.

    Read the way the site reads any typed number (docs/numbers.md): spaces around it and
    full-width digits are allowed, nothing else; more than 19 digits count as :data:`TOO_LONG`.
    """
    raw = request.META.get("CONTENT_LENGTH")
    if not isinstance(raw, str):
        return None
    if len(raw) > 160:
        return TOO_LONG
    clean = _FULLWIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group()), raw).strip()
    if not _COUNT.fullmatch(clean):
        return None
    if len(clean.lstrip("+-").lstrip("0")) > 19:
        return TOO_LONG
    value = int(clean)
    return value if 0 <= value <= TOO_LONG else None


def _chunked(request: HttpRequest) -> bool:
    encoding = request.META.get("HTTP_TRANSFER_ENCODING", "").strip().lower()
    return bool(encoding) and encoding != "identity"


class RequestSizeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.MAX_REQUEST_BYTES
        length = declared_length(request)
        if length is not None and length > limit:
            return self.refuse(request, 413, length)
        if length is None and _chunked(request):
            return self.refuse(request, 411, None)
        return self.get_response(request)

    def refuse(self, request: HttpRequest, status: int, length: int | None) -> HttpResponse:
        response = render(
            request,
            "scoring/too_large.html",
            {
                "limit": settings.MAX_REQUEST_BYTES,
                "length": length,
                "status": status,
                "max_file": settings.MAX_SESSION_FILE_BYTES,
            },
            status=status,
        )
        # The unread body is still on its way: the connection cannot carry another request.
        response["Connection"] = "close"
        return response


class RequestLineMiddleware:
    """Refuse an address longer than any the site makes, with 414, before anything can copy it.

    Every page's address is short: ids, a 43-character token, a method's name, a few dates.
    An address of thousands of characters was copied by the trailing-slash and log-in
    redirects into ``Location``, and an answer's headers above the proxy's buffer made nginx
    drop it and count the app server as failed. The limits are ``MAX_PATH_CHARS`` and
    ``MAX_QUERY_CHARS`` (settings), counted as the address arrived (percent-encoded).

    First in ``MIDDLEWARE``, so no redirect runs before it (the HTTPS one copies the address
    too). The other middleware has not run, so the page stands alone: the language cookie is
    read here, and its headers are set here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.META.get("PATH_INFO", "")
        query = request.META.get("QUERY_STRING", "")
        if len(path) > settings.MAX_PATH_CHARS or len(query) > settings.MAX_QUERY_CHARS:
            return self.refuse(request)
        return self.get_response(request)

    def refuse(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in self.languages else settings.LANGUAGE_CODE
        with translation.override(language):
            body = render_to_string(
                "scoring/too_long.html",
                {
                    "language": language,
                    "max_path": settings.MAX_PATH_CHARS,
                    "max_query": settings.MAX_QUERY_CHARS,
                },
            )
        response = HttpResponse(body, status=414)
        response["Content-Language"] = language
        response["Content-Security-Policy"] = "default-src 'none'; style-src 'self'"
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "no-store"
        return response
