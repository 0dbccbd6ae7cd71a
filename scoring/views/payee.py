"""The payee's side: "đã nhận" on a payment (by a scorekeeper, or by the payee through their
own link), and each player's own link: its settings page and the page it opens.

A player's link needs no account. Like the live links it is a 43-character secret in the
address, stored as it is (so the scorekeeper can copy it again), answered with ``noindex``,
no referrer to other sites and no caching; a revoked or replaced link is a 404 at once (the
page looks the token up on every request). The page shows that player's balance, statement,
what they owe (with VietQR codes) and the payments to them waiting for "đã nhận"; of the
others, nothing the group's live link does not show already (names, and the payments they
made to this player or received from them).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.access import get_group_for_user, get_player_for_owner, get_sitting_for_user
from scoring.ledger import group_statements
from scoring.ledger.standing import GroupLedger, group_settlements
from scoring.models import Group, Player, Settlement
from scoring.text import vietqr
from scoring.views.live import link_change
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, login_required

LINK_DONE = {
    "enable": gettext_lazy("Đã bật liên kết riêng."),
    "regenerate": gettext_lazy("Đã tạo liên kết riêng mới; liên kết cũ không còn mở được."),
    "revoke": gettext_lazy("Đã tắt liên kết riêng."),
}
# How many payments already confirmed the player's page lists (with their undo).
RECENT_CONFIRMED = 5


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
    url = qr = None
    if player.link_token:
        url = request.build_absolute_uri(reverse("player_link", args=[player.link_token]))
        # segno escapes the title; the rest of the SVG is fixed markup.
        title = _("Mã QR mở trang riêng của %(name)s") % {"name": player.name}
        qr = mark_safe(vietqr.qr_svg(url, title=title))
    group = Group.objects.get(pk=player.group_id)
    return render(
        request, "scoring/player_link_settings.html",
        {"player": player, "group": group, "url": url, "qr": qr},
    )  # fmt: skip


# --- The player's own page ---------------------------------------------------------------


def _player_or_404(token: str) -> Player:
    player = Player.objects.unmerged().filter(link_token=token).select_related("group").first()
    if player is None:
        raise Http404
    return player


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    # Like the live pages, the address (a secret) is never sent to another site. Not
    # "no-referrer" though: with it, Chromium sends the page's own "đã nhận" form with
    # ``Origin: null``, which the CSRF check rightly refuses.
    response["Referrer-Policy"] = "same-origin"
    # The page holds a CSP nonce and a CSRF token, and is one person's: never cached.
    add_never_cache_headers(response)
    return response


@require_http_methods(["GET", "HEAD"])
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    player = _player_or_404(token)
    group = player.group
    ledger = GroupLedger.load(group)
    lines = group_statements.statement(group, player, ledger=ledger)
    mine = group_settlements(group).standing().filter(payee=player).select_related("confirmed_by")
    waiting = list(mine.awaiting().order_by("-created_at", "-id"))
    confirmed = list(
        mine.filter(confirmed_at__isnull=False).order_by("-confirmed_at", "-id")[:RECENT_CONFIRMED]
    )
    sent = list(
        group_settlements(group).awaiting().filter(payer=player).order_by("-created_at", "-id")
    )
    plan = ledger.suggested()
    context = {
        "player": player,
        "group": group,
        "token": token,
        "balance": ledger.balances.get(player.pk, 0),
        "paid": ledger.paid.get(player.pk, 0),
        "received": ledger.received.get(player.pk, 0),
        "closed": ledger.close,
        "lines": lines,
        "owes": [s for s in plan if s.payer.pk == player.pk],
        "owed": [s for s in plan if s.payee.pk == player.pk],
        "waiting": waiting,
        "confirmed": confirmed,
        "sent": sent,
    }
    return _private(render(request, "scoring/player_link.html", context))


@require_POST
def player_receipt(request: HttpRequest, token: str, settlement_id: str) -> HttpResponse:
    """The payee confirms "đã nhận" (or takes it back) on a payment to them; a payment of
    another player, or of another group, is a 404."""
    player = _player_or_404(token)
    settlement = get_object_or_404(
        group_settlements(player.group).filter(payee=player), pk=settlement_id
    )
    _receipt(request, settlement, None, by_payee=True)
    return _private(redirect(f"{reverse('player_link', args=[token])}#settlement-{settlement.pk}"))
