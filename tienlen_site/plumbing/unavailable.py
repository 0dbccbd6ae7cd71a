"""When the database is down, answer 503 with a page in the site's look, never a bare 500.

Two doors lead here. ``DatabaseUnavailableMiddleware`` catches a database error raised by a
view (the usual case: loading the session or the user is the first query). ``server_error``
(``handler500``) catches the rest, e.g. a session that cannot be saved after the view; it
finds the exception in ``sys.exc_info()``, because Django calls it while handling it.

The page is rendered without the request's context processors: the usual ones would read the
user or the messages, that is the session, that is the database that just failed.

A database that answers but made a request wait too long is *busy*, not down: a lock waited
for past ``lock_timeout`` or a statement past ``statement_timeout`` (settings.py), SQLite's
"database is locked" after its busy timeout, a row whose queue was full
(``tienlen_site.plumbing.waits.RowBusy``), a deadlock or serialization failure. Nothing was
written, and sending the same request again in a moment is the cure: the page says "Sổ đang
bận, thử lại" with a ``Retry-After`` of a few seconds. It is still a 503, so the pages'
pending-save queue (static/js/pending.js: any 5xx) sends a save again by itself, its token
counting it once.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views import defaults

from tienlen_site.plumbing.waits import RowBusy

logger = logging.getLogger("tienlen_site.plumbing.unavailable")

DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
#: A busy database: sent again after this long (the pending-save queue's first delay, too).
BUSY_RETRY_AFTER_SECONDS = 2
#: PostgreSQL's codes for "waited too long" and "try again": lock_not_available,
#: query_canceled (statement_timeout), serialization_failure, deadlock_detected.
BUSY_SQLSTATES = frozenset({"55P03", "57014", "40001", "40P01"})
FALLBACK = (
    '<!doctype html><html lang="vi"><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>Sổ Tiến Lên</title><h1>Sổ tạm thời không mở được</h1>"
    "<p>Máy chủ không kết nối được cơ sở dữ liệu. Hãy thử lại sau ít phút.</p>"
    '<p lang="en">The ledger cannot be opened right now. Please try again in a minute.</p>'
)


def is_busy(error: BaseException) -> bool:
    """A database that answered "not now" rather than not at all (see the module's text)."""
    if isinstance(error, RowBusy):
        return True
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "database table is locked" in str(error)


def unavailable_response(request: HttpRequest, *, busy: bool = False) -> HttpResponse:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    retry_after = BUSY_RETRY_AFTER_SECONDS if busy else RETRY_AFTER_SECONDS
    html: str
    try:
        with translation.override(language):
            context = {"LANG": language, "retry_after": retry_after, "busy": busy}
            html = render_to_string("503.html", context)
    except Exception:  # the page about a failure must not fail in turn (e.g. static files)
        logger.exception("the 503 page could not be rendered")
        html = FALLBACK
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    response["Content-Language"] = language
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        busy = is_busy(exception)
        if busy:
            logger.warning("database busy: %s %s: %s", request.method, request.path, exception)
        else:
            logger.error("database unavailable: %s %s", request.method, request.path, exc_info=True)
        return unavailable_response(request, busy=busy)


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_ERRORS):
        return unavailable_response(request, busy=is_busy(error))
    return defaults.server_error(request)
