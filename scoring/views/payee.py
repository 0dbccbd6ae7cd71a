"""The payee's side: "đã nhận" on a payment (by a scorekeeper, or by the payee through their
own link), and each player's own link: its settings page and the page it opens.

A player's link needs no account. Like the live links it is a 43-character secret in the
address, stored as it is (so the scorekeeper can copy it again), answered with ``noindex``,
no referrer to other sites and no caching; a revoked, replaced or freed link stops at once
(the page looks the token up on every request) and its address then says what happened and
what to do (``link_gone``, 410). The page (``scoring.ledger.player_page``) shows that
player's result tonight and their latest games, their balance, statement, what they owe (with
VietQR codes) and the payments to them waiting for "đã nhận", and follows the table like the
live link; of the others, nothing the group's live link does not show already (names, and
the payments they made to this player or received from them).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.access import get_group_for_user, get_player_for_owner, get_sitting_for_user
from scoring.ledger import gone
from scoring.ledger.player_page import link_version
from scoring.ledger.player_page import player_page as player_page_model
from scoring.ledger.standing import group_settlements
from scoring.models import Group, Player, Settlement
from scoring.views.links import POLL_SECONDS, link_and_qr, link_change, link_gone, private
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    wants_fragment,
)
from tienlen_site.plumbing.poll import poll_etag, poll_response

LINK_DONE = {
    "enable": gettext_lazy("Đã bật liên kết riêng."),
    "regenerate": gettext_lazy("Đã tạo liên kết riêng mới; liên kết cũ không còn mở được."),
    "revoke": gettext_lazy("Đã tắt liên kết riêng."),
}


def _receipt(request: HttpRequest, settlement: Settlement, user: Any, by_payee: bool) -> None:
    """Confirm or take back "đã nhận" as the form asks; a message either way, never a 500."""
    action = request.POST.get("action", "confirm")
    try:
        if action == "undo":
            done = services.settlement_unconfirm(
                settlement=settlement, user=user, by_payee=by_payee
            )
            text = _("Đã bỏ xác nhận: khoản này lại chờ xác nhận.")
        else:
            done = services.settlement_confirm(settlement=settlement, user=user, by_payee=by_payee)
            text = _("Đã xác nhận đã nhận.")
    except services.Conflict as error:
        messages.error(request, error.message)
        return
    if done is None:
        text = (
            _("Khoản này đang chờ xác nhận.") if action == "undo" else _("Khoản này đã nhận rồi.")
        )
    messages.success(request, text)


# --- The scorekeeper's side --------------------------------------------------------------


@login_required
@require_POST
def settlement_receipt(request: AuthenticatedHttpRequest, settlement_id: int) -> HttpResponse:
    """A scorekeeper of the sitting (or the group) confirms "đã nhận" for the payee, or takes
    it back. Anyone else: 404, as for every page of a sitting."""
    settlement = get_object_or_404(Settlement, pk=settlement_id)
    if settlement.sitting_id is not None:
        get_sitting_for_user(request.user, settlement.sitting_id)
        back = reverse("sitting_settle", args=[settlement.sitting_id])
    else:
        assert settlement.group_id is not None
        get_group_for_user(request.user, settlement.group_id)
        back = reverse("group_settle", args=[settlement.group_id])
    _receipt(request, settlement, request.user, by_payee=False)
    target = request.POST.get("next", "")
    # Only a path of this site (the home page's list sends "/"); anything else goes back to
    # the settle page. Never ``redirect(target)``: it would try a typed word as a view name.
    safe = target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return HttpResponseRedirect(
        target if safe and len(target) < 2000 else f"{back}#settlement-{settlement.pk}"
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_link_settings(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Give a player their own link: copy it, show its QR code, or hand it to the phone's
    share sheet; replace it or turn it off."""
    player = get_player_for_owner(request.user, pk)
    if player.merged_into is not None:
        raise Http404
    if request.method == "POST":

        def change(action: str) -> None:
            services.player_link(player=player, user=request.user, action=action)

        return link_change(request, change, LINK_DONE)
    group = Group.objects.get(pk=player.group_id)
    title = _("Mã QR mở trang riêng của %(name)s") % {"name": player.name}
    context = {
        "player": player,
        "group": group,
        **link_and_qr(request, "player_link", player.link_token, title),
    }
    return render(request, "scoring/player_link_settings.html", context)


# --- The player's own page ---------------------------------------------------------------


def _player(token: str) -> Player | None:
    return Player.objects.unmerged().filter(link_token=token).select_related("group").first()


@require_http_methods(["GET", "HEAD"])
def player_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The player's page follows the table: it polls itself every few seconds with its ETag
    (the group's ledger version), answered 304 after one query while nothing moved, and
    otherwise with its board alone, swapped in place (``static/js/live.js``)."""
    found = link_version(token)
    if found is None:
        return link_gone(request, gone.player_link_gone(token))
    player_id, version = found
    etag = poll_etag(f"p{version}", token=token)

    def page(template: str = "scoring/player_link.html") -> HttpResponse:
        player = _player(token)
        if player is None or player.pk != player_id:  # turned off a moment ago
            return link_gone(request, gone.player_link_gone(token))
        context = {
            "page": player_page_model(player),
            "token": token,
            "poll_seconds": POLL_SECONDS,
            "poll_headers": json.dumps({"If-None-Match": etag}),
        }
        return render(request, template, context)

    if wants_fragment(request):
        response = poll_response(request, etag, lambda: page("scoring/player_link.html#board"))
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "same-origin"
        return response
    response = private(page())
    response["ETag"] = etag
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
def player_receipt(request: HttpRequest, token: str, settlement_id: str) -> HttpResponse:
    """The payee confirms "đã nhận" (or takes it back) on a payment to them; a payment of
    another player, or of another group, is a 404."""
    player = _player(token)
    if player is None:
        return link_gone(request, gone.player_link_gone(token))
    settlement = get_object_or_404(
        group_settlements(player.group).filter(payee=player), pk=settlement_id
    )
    _receipt(request, settlement, None, by_payee=True)
    return private(redirect(f"{reverse('player_link', args=[token])}#settlement-{settlement.pk}"))
