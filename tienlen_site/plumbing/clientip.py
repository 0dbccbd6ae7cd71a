"""The address a request comes from, as the log-in limit (django-axes) counts it.

With nothing in front of the app (``BEHIND_PROXY`` off) it is the connection's own address,
``REMOTE_ADDR``; an ``X-Forwarded-For`` header is then only the client's say-so and is ignored.

Behind ``PROXY_COUNT`` trusted proxies, each one appends the address it was connected from to
``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``), and the connection itself comes
from the last of them. Counting ``PROXY_COUNT`` entries from the right therefore lands on the
address the outermost trusted proxy saw; whatever a client wrote into the header before that
stands further left and never counts, so a client cannot choose whose failures it adds to.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, normalised (``AXES_CLIENT_IP_CALLABLE``)."""
    remote = request.META.get("REMOTE_ADDR")
    count: int = settings.PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if count < 1 or not hops:
        # No proxy, or a request that did not come through it (a health check on the
        # instance itself): the connection is all there is.
        return _normalised(remote)
    # Fewer entries than proxies: the request entered below the outermost one, and the
    # left-most entry is the address the first proxy it met saw.
    chosen = hops[-count] if len(hops) >= count else hops[0]
    return _normalised(chosen) or _normalised(remote)


def _normalised(address: str | None) -> str | None:
    """One spelling per address (``2001:DB8::1`` and ``2001:db8:0::1`` are one client);
    ``None`` for anything that is not an address."""
    try:
        return str(ipaddress.ip_address((address or "").strip()))
    except ValueError:
        return None
