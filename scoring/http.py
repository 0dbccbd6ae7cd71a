"""The request types the views are written against.

``django_htmx.middleware.HtmxMiddleware`` puts ``request.htmx`` on every request; a view behind
``login_required`` also knows ``request.user`` is a real account. Annotating a view with these
lets the type checker see both (django-htmx's "HtmxHttpRequest" pattern). A page that htmx
can refresh answers its fragment when ``wants_fragment``.
"""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User


def wants_fragment(request: HtmxHttpRequest) -> bool:
    """Whether to answer with the page's fragment: an htmx request, except the one htmx sends
    to restore a page from history (that one needs the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request
