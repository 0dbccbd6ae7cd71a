"""When the database is down, answer 503 with a page in the site's look, never a bare 500.

Two doors lead here. ``DatabaseUnavailableMiddleware`` catches a database error raised by a
view (the usual case: loading the session or the user is the first query). ``server_error``
(``handler500``) catches the rest, e.g. a session that cannot be saved after the view; it
finds the exception in ``sys.exc_info()``, because Django calls it while handling it.

The page is rendered without the request's context processors: the usual ones would read the
user or the messages, that is the session, that is the database that just failed.
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

logger = logging.getLogger("tienlen_site.plumbing.unavailable")

DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
FALLBACK = (
    '<!doctype html><html lang="vi"><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>Sổ Tiến Lên</title><h1>Sổ tạm thời không mở được</h1>"
    "<p>Máy chủ không kết nối được cơ sở dữ liệu. Hãy thử lại sau ít phút.</p>"
    '<p lang="en">The ledger cannot be opened right now. Please try again in a minute.</p>'
)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    html: str
    try:
        with translation.override(language):
            context = {"LANG": language, "retry_after": RETRY_AFTER_SECONDS}
            html = render_to_string("503.html", context)
    except Exception:  # the page about a failure must not fail in turn (e.g. static files)
        logger.exception("the 503 page could not be rendered")
        html = FALLBACK
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
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
        logger.error("database unavailable: %s %s", request.method, request.path, exc_info=True)
        return unavailable_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        return unavailable_response(request)
    return defaults.server_error(request)
