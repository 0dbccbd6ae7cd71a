""" "Mời cả bàn": the scorekeeper's page with the sitting's join code, and the page the code
opens, where each player taps their own name and gets their own link on that phone.

The join page needs no account. Like the player's own link it is a 43-character secret in the
address, answered with ``noindex``, no referrer to other sites and no caching; a code turned
off, replaced, past its night or of a sitting closed into a period stops at once, and then
answers what happened and what to do (``links.link_gone``), never a bare 404. Like the
other links it has no rate limit of its own (a guess of 43 random characters is not a
practical attack); what a holder of the code can do is bounded: each name of the sitting is
taken once, and only the scorekeeper frees it.

The phone keeps the links it took in a cookie (``MY_LINKS``, HttpOnly, a little over a year):
scanning the code again opens that phone's own page, and the installed app, which starts at
the home page, opens it too for a visitor who is not signed in.

Each phone is also told apart by a random cookie of its own (``PHONE``, set by the join page,
stored only as a hash on the claims): one phone takes one name per sitting, and a name whose
link one phone holds is refused to every other (``services.join_claim``). A request without
it takes no name: a client that keeps no cookies cannot take every name of the table. The
refusal is noted for the scorekeeper, who sees it beside the name on "Mời cả bàn".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.access import get_sitting_for_owner
from scoring.ledger.gone import join_code_gone
from scoring.ledger.standing import close_covering
from scoring.models import JoinClaim, JoinCode, JoinRefusal, Membership, Player, Sitting
from scoring.text.numbers import int_param
from scoring.views.links import (
    keep_link,
    keep_phone,
    link_and_qr,
    link_change,
    link_gone,
    my_player,
    phone_of,
    private,
)
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, login_required, wants_fragment

JOIN_DONE = {
    "enable": gettext_lazy("Đã bật mã mời cả bàn."),
    "regenerate": gettext_lazy("Đã tạo mã mời mới; mã cũ không còn dùng được."),
    "revoke": gettext_lazy("Đã tắt mã mời cả bàn. Ai đã vào bàn vẫn giữ trang riêng của mình."),
}


# --- The scorekeeper's page --------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A name of the sitting on "Mời cả bàn": taken when a phone holds its link (through this
    sitting's code at ``claimed_at``, or another table's: ``elsewhere``, that table's name),
    and ``asked``: another phone asked for it while it was taken (``asked_times`` times)."""

    player: Player
    claimed_at: datetime | None
    elsewhere: str = ""
    asked: datetime | None = None
    asked_times: int = 0


def _seats(sitting: Sitting) -> list[Seat]:
    members = list(Membership.objects.filter(sitting=sitting).select_related("player"))
    claims: dict[int, tuple[datetime, str]] = {}
    rows = (
        JoinClaim.objects.filter(player_id__in=[m.player_id for m in members])
        .order_by("claimed_at", "id")
        .values_list("player_id", "sitting_id", "claimed_at", "sitting__name")
    )
    for player_id, sitting_id, claimed_at, name in rows:
        if sitting_id == sitting.pk:
            claims[player_id] = (claimed_at, "")
        else:
            claims.setdefault(player_id, (claimed_at, name))
    asked = {r.player_id: r for r in JoinRefusal.objects.filter(sitting=sitting)}
    seats = []
    for m in members:
        at, elsewhere = claims.get(m.player_id, (None, ""))
        refusal = asked.get(m.player_id)
        seats.append(
            Seat(
                m.player, at, elsewhere,
                refusal.asked_at if refusal and at else None,
                refusal.times if refusal and at else 0,
            )
        )  # fmt: skip
    return seats


@login_required
@require_http_methods(["GET", "POST"])
def sitting_join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The sitting's join code: its QR code and address, who has joined (with "Gỡ tên" for
    a name taken by the wrong phone, and a notice when another phone asked for a name already
    taken), and the buttons that turn it on, replace it or off."""
    sitting = get_sitting_for_owner(request.user, pk)
    if request.method == "POST":

        def change(action: str) -> None:
            services.join_code(sitting=sitting, user=request.user, action=action)

        return link_change(request, change, JOIN_DONE)
    closed = close_covering(sitting)
    code = None if closed else services.open_code(sitting)
    context: dict[str, object] = {
        "sitting": sitting,
        "code": code,
        "closed": closed,
        "seats": _seats(sitting),
        **link_and_qr(
            request,
            "join",
            code.token if code is not None else None,
            _("Mã QR mời cả bàn %(name)s") % {"name": sitting.name},
        ),
    }
    if wants_fragment(request, "joined"):
        return render(request, "scoring/sitting_join.html#joined", context)
    return render(request, "scoring/sitting_join.html", context)


@login_required
@require_POST
def sitting_join_reset(request: AuthenticatedHttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Free a name taken through the join code: its link is turned off at once."""
    sitting = get_sitting_for_owner(request.user, pk)
    player = get_object_or_404(Player, pk=player_id, memberships__sitting=sitting)
    if services.join_reset(sitting=sitting, player=player, user=request.user):
        messages.success(
            request,
            _("Đã gỡ tên %(name)s; liên kết đã phát cho tên này không còn mở được.")
            % {"name": player.name},
        )
    else:
        messages.info(request, _("Tên %(name)s chưa có ai chọn.") % {"name": player.name})
    return redirect(f"{reverse('sitting_join', args=[sitting.pk])}#joined")


# --- The page the code opens -------------------------------------------------------------


def _open_code(token: str) -> JoinCode | None:
    code = (
        JoinCode.objects.filter(token=token, revoked_at__isnull=True, expires_at__gt=timezone.now())
        .select_related("sitting")
        .first()
    )
    if code is None or close_covering(code.sitting) is not None:
        return None
    return code


def _join_page(
    request: HttpRequest, code: JoinCode, *, error: str = "", status: int = 200
) -> HttpResponse:
    context = {
        "code": code,
        "sitting": code.sitting,
        "seats": _seats(code.sitting),
        "error": error,
    }
    return private(render(request, "scoring/join.html", context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def join_page(request: HttpRequest, code: str) -> HttpResponse:
    """The sitting's players: each taps their own name and this phone gets their own link
    (kept in a cookie, then opened). A phone that already holds the link of one of this
    sitting's players goes straight to it."""
    join = _open_code(code)
    if join is None:
        gone = join_code_gone(code)
        assert gone is not None  # not open a moment ago; a code never opens again
        return link_gone(request, gone, my_player(request))
    mine = my_player(request, join.sitting)
    if mine is not None and mine.link_token:
        return private(redirect("player_link", mine.link_token))
    if request.method != "POST":
        return keep_phone(request, _join_page(request, join))
    phone = phone_of(request)
    if not phone:
        error = _("Máy này chưa giữ cookie nên chưa chọn tên được. Bật cookie rồi quét lại mã.")
        return keep_phone(request, _join_page(request, join, error=error, status=400))
    player_id = int_param(request.POST, "player")
    if player_id is None:
        return _join_page(request, join, error=_("Hãy bấm vào tên của bạn."), status=422)
    try:
        player = services.join_claim(code=join, player_id=player_id, phone=phone)
    except services.InvalidInput as error:
        return _join_page(request, join, error=error.message, status=422)
    except services.NameTaken as error:
        services.join_refused(sitting=join.sitting, player=error.player, phone=phone)
        return _join_page(request, join, error=error.message, status=409)
    except services.Conflict as error:
        return _join_page(request, join, error=error.message, status=409)
    assert player.link_token is not None
    response = redirect("player_link", player.link_token)
    return private(keep_link(request, response, player.link_token))
