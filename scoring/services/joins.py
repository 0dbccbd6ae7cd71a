""" "Mời cả bàn": the whole table joins from one QR code.

The scorekeeper turns a sitting's join code on (``join_code``, the same three actions as the
read-only links). Each player who scans it taps their own name (``join_claim``): that name is
taken for the sitting and the phone gets the player's own link, exactly the link a scorekeeper
turns on by hand (``Player.link_token``, turned on here when it is off). A name already taken
is refused: only the scorekeeper frees it (``join_reset``), which turns off the link it handed
out, so whoever holds it loses it at once.

One link, one phone. Each claim keeps which phone made it (the hash of its ``tl_phone``
cookie). A name whose link a phone took, at this table or any other of the group, is refused
to every other phone (``NameTaken``, and ``join_refused`` notes the ask for the scorekeeper);
the phone that holds it takes the same name at another table tonight and keeps its one link.
One phone takes one name per sitting. Freeing a name frees it everywhere: the link is off, so
no phone holds it.

A code lasts one night: until 06:00 the morning after the sitting's day, in the site's zone
(``night_end``), or until it is turned off or the sitting is closed into a period. The code's
changes are written to the sitting's history; a claim and a reset to the group's, like every
change to a player's link. No token is ever written to a history.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import (
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    JoinClaim,
    JoinCode,
    JoinRefusal,
    Membership,
    Player,
    RetiredLink,
    Sitting,
)
from scoring.services.common import (
    Conflict,
    InvalidInput,
    bump_group,
    lock_sitting_row,
    refuse_if_frozen,
)
from scoring.services.links import _switch, retire_player_link

#: A night at the table ends at this hour of the next morning (the site's zone).
NIGHT_ENDS = time(6)


def night_end(day: date, now: datetime) -> datetime:
    """When a join code made ``now`` for a sitting dated ``day`` stops working: 06:00 the
    morning after ``day``; for a sitting whose night is already over, the next 06:00."""
    zone = timezone.get_default_timezone()
    end = datetime.combine(day + timedelta(days=1), NIGHT_ENDS, tzinfo=zone)
    if end > now:
        return end
    local = timezone.localtime(now, zone)
    next_day = local.date() + timedelta(days=1 if local.time() >= NIGHT_ENDS else 0)
    return datetime.combine(next_day, NIGHT_ENDS, tzinfo=zone)


def open_code(sitting: Sitting) -> JoinCode | None:
    """The sitting's join code that still works by the clock (newest first), or None. Whether
    the sitting is closed into a period is the caller's to check."""
    return (
        JoinCode.objects.filter(
            sitting_id=sitting.pk, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )
        .order_by("-created_at", "-id")
        .first()
    )


def _is_keeper(group: Group, user: User) -> bool:
    return group.owner_id == user.pk or group.scorekeepers.filter(pk=user.pk).exists()


@transaction.atomic(durable=True)
def join_code(*, sitting: Sitting, user: User, action: str) -> JoinCode | None:
    """Turn the sitting's join code on ("enable" keeps a working one), replace it
    ("regenerate": the old code stops at once) or turn it off ("revoke"). Only the sitting's
    owner; a sitting closed into a period gets no new code. Returns the working code, None
    while off. The names already taken stay taken."""
    locked = lock_sitting_row(sitting)
    if locked.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ bàn mới đổi được mã mời cả bàn."))
    current = open_code(locked)
    switch = _switch(current.token if current else None, action, JoinCode.new_token)
    if switch is None:
        return current
    if switch.token is not None:
        refuse_if_frozen(locked)
    now = timezone.now()
    JoinCode.objects.filter(sitting=locked, revoked_at__isnull=True).update(revoked_at=now)
    code = None
    if switch.token is not None:
        code = JoinCode.objects.create(
            sitting=locked, token=switch.token, created_by=user,
            expires_at=night_end(locked.date, now),
        )  # fmt: skip
    HistoryEntry.objects.create(
        sitting=locked, user=user, action=HistoryEntry.Action.LIVE,
        before={"join": switch.was_on}, after={"join": code is not None},
        note_code=f"join_{switch.note}",
    )  # fmt: skip
    return code


def _lock_group(group_id: int) -> Group:
    return Group.objects.select_for_update().get(pk=group_id)


class NameTaken(Conflict):
    """The name asked for is held by another phone; ``player`` is that name's player."""

    def __init__(self, message: str, *, player: Player) -> None:
        super().__init__(message)
        self.player = player


@transaction.atomic(durable=True)
def join_claim(*, code: JoinCode, player_id: int, phone: str) -> Player:
    """The phone ``phone`` (the hash of its cookie) scanned ``code`` and takes the name
    ``player_id`` of its sitting. Returns the player, whose ``link_token`` is the link that
    phone now holds (turned on if it was off). Refused, nothing written: ``Conflict`` when the
    code no longer works or this phone already took another name here, ``NameTaken`` when
    another phone holds the name, ``InvalidInput`` when it is not one of the sitting's."""
    if not phone:
        raise InvalidInput(_("Máy này chưa giữ được cookie nên chưa chọn tên được."))
    sitting = Sitting.objects.get(pk=code.sitting_id)
    group = _lock_group(sitting.group_id)
    fresh = JoinCode.objects.filter(pk=code.pk).first()
    if fresh is None or fresh.revoked_at is not None or fresh.expires_at <= timezone.now():
        raise Conflict(_("Mã mời này không còn dùng được. Nhờ người ghi sổ cho mã mới."))
    try:
        refuse_if_frozen(sitting)
    except Conflict:
        raise Conflict(_("Bàn này đã chốt sổ nên không nhận thêm người vào.")) from None
    member = Membership.objects.filter(sitting=sitting, player_id=player_id).first()
    if member is None:
        raise InvalidInput(_("Tên này không có trong bàn."), field="player")
    player = Player.objects.select_for_update().get(pk=player_id)
    if player.merged_into_id is not None:
        raise InvalidInput(_("Tên này không có trong bàn."), field="player")
    mine = (
        JoinClaim.objects.filter(sitting=sitting, phone=phone)
        .exclude(player=player)
        .select_related("player")
        .first()
    )
    if mine is not None:
        raise Conflict(
            _(
                "Máy này đã chọn tên %(mine)s ở bàn này; mỗi máy chọn một tên. Chọn nhầm thì "
                "nhờ người ghi sổ gỡ tên %(mine)s."
            )
            % {"mine": mine.player.name}
        )
    claims = list(JoinClaim.objects.filter(player=player))
    if player.link_token is None:
        # Left from before a link was turned off by hand: nobody holds it any more.
        JoinClaim.objects.filter(player=player).delete()
        claims = []
    if any(claim.phone != phone for claim in claims):
        raise NameTaken(
            _(
                "Tên %(name)s đã có người chọn trên một máy khác. Nếu đó là bạn, mở trang "
                "riêng trên máy đó, hoặc nhờ người ghi sổ gỡ tên %(name)s rồi quét lại mã."
            )
            % {"name": player.name},
            player=player,
        )
    if any(claim.sitting_id == sitting.pk for claim in claims):
        return player  # this phone took it here already: the same link
    JoinClaim.objects.create(sitting=sitting, player=player, code=fresh, phone=phone)
    JoinRefusal.objects.filter(sitting=sitting, player=player).delete()
    was_on = player.link_token is not None
    if not was_on:
        player.link_token = Player.new_link_token()
        player.save(update_fields=["link_token"])
    bump_group(group)
    GroupHistoryEntry.objects.create(
        group=group, sitting=sitting, user=None, action=GroupHistoryEntry.Action.PLAYER_LINK,
        before={"player": player.name, "link": was_on},
        after={"player": player.name, "link": True},
        note_code="join_claimed",
    )  # fmt: skip
    return player


@transaction.atomic(durable=True)
def join_refused(*, sitting: Sitting, player: Player, phone: str) -> None:
    """Note for the scorekeeper that a phone asked for ``player``'s name, held by another
    phone (after ``join_claim`` refused it with ``NameTaken``). One row per name and sitting,
    so a phone asking again and again adds nothing but a count."""
    updated = JoinRefusal.objects.filter(sitting=sitting, player=player).update(
        times=F("times") + 1, asked_at=timezone.now(), phone=phone
    )
    if not updated:
        JoinRefusal.objects.get_or_create(sitting=sitting, player=player, defaults={"phone": phone})


@transaction.atomic(durable=True)
def join_reset(*, sitting: Sitting, player: Player, user: User) -> bool:
    """The scorekeeper frees a name taken through a join code (here, or at another table of
    the group by the phone that holds it): the link it handed out is turned off (its address
    says so at once, wherever it is kept) and the name is free at every table; the player
    scans again for a new link. False when no phone held the name (nothing written)."""
    group = _lock_group(sitting.group_id)
    if sitting.owner_id != user.pk and not _is_keeper(group, user):
        raise InvalidInput(_("Chỉ người ghi sổ của bàn mới gỡ được tên này."))
    locked = Player.objects.select_for_update().get(pk=player.pk)
    JoinRefusal.objects.filter(player=locked).delete()
    if not JoinClaim.objects.filter(player=locked).exists():
        return False
    was_on = locked.link_token is not None
    if was_on:
        retire_player_link(locked, RetiredLink.Reason.FREED, sitting)
    JoinClaim.objects.filter(player=locked).delete()
    locked.link_token = None
    locked.save(update_fields=["link_token"])
    bump_group(group)
    GroupHistoryEntry.objects.create(
        group=group, sitting=sitting, user=user, action=GroupHistoryEntry.Action.PLAYER_LINK,
        before={"player": locked.name, "link": was_on},
        after={"player": locked.name, "link": False},
        note_code="join_reset",
    )  # fmt: skip
    player.link_token = None
    return True
