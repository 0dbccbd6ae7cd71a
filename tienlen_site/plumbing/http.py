"""The request types the views are written against, and the redirects they answer with.

``django_htmx.middleware.HtmxMiddleware`` puts ``request.htmx`` on every request; a view behind
``login_required`` also knows ``request.user`` is a real account. Annotating a view with these
lets the type checker see both (django-htmx's "HtmxHttpRequest" pattern). A page that htmx
can refresh answers its fragment when ``wants_fragment``, and a view sends htmx and a plain
form alike to another page with ``page_redirect``.

Nothing a request carries is copied unbounded into a header: a redirect with a query is built
by ``redirect_with_query`` from parameters the view validated, and the log-in redirect of
``login_required`` keeps the page's query only while it is short (``MAX_NEXT_CHARS``). An
answer's headers must fit the proxy's buffer; an over-long one made nginx drop the answer and
count the app server as failed (deploy/nginx/tienlen.conf).
"""

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

#: The longest value a redirect carries in its query: ids, method names, ISO dates, tokens.
MAX_QUERY_VALUE_CHARS = 64
#: The longest page address (path and query, as the browser sent it) the log-in redirect keeps
#: in ``next``; a longer one comes back to its path alone.
MAX_NEXT_CHARS = 512


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User


def wants_fragment(request: HtmxHttpRequest, part: str | None = None) -> bool:
    """Whether to answer with a fragment of the page: an htmx request, except the one htmx
    sends to restore a page from history (that one needs the whole page); on a page of several
    fragments, the one asking for ``part`` (``?part=``). The one test every view makes."""
    if not request.htmx or request.htmx.history_restore_request:
        return False
    return part is None or request.GET.get("part") == part


def page_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Go to another page: for htmx, which swaps only fragments, by telling it to load
    ``url`` as a whole page (``HX-Redirect``); otherwise a plain redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def redirect_with_query(url: str, params: Mapping[str, str | int | None]) -> HttpResponseRedirect:
    """A redirect to ``url`` carrying ``params`` (empty ones left out). Every value is one the
    view validated (a method's name, an id, a date); one longer than
    ``MAX_QUERY_VALUE_CHARS`` is a bug in the caller, never a request's text echoed back."""
    query = {key: str(value) for key, value in params.items() if value not in (None, "")}
    too_long = [key for key, value in query.items() if len(value) > MAX_QUERY_VALUE_CHARS]
    if too_long:
        raise ValueError(f"redirect parameters too long to carry: {', '.join(too_long)}")
    return HttpResponseRedirect(f"{url}?{urlencode(query)}" if query else url)


def bounded_next(request: HttpRequest) -> str:
    """Where the log-in page sends the visitor back: the page they asked for, its query
    dropped when the whole address is longer than ``MAX_NEXT_CHARS`` (each ``&`` of it
    would be written ``%26`` in the log-in address)."""
    full = request.get_full_path()
    return full if len(full) <= MAX_NEXT_CHARS else request.path


def login_required[V: Callable[..., HttpResponseBase]](view: V) -> V:
    """Django's ``login_required`` with a bounded ``next`` (``bounded_next``)."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        return redirect_to_login(bounded_next(request), settings.LOGIN_URL)

    return checked  # type: ignore[return-value]
