"""The read-only links, one shape: a sitting's live link, a group's, a player's own.

Each is ``<thing>_link(*, <thing>, user, action)`` with ``action`` one of ``LINK_ACTIONS``:
"enable" keeps the link people have, "regenerate" replaces it (the old address stops working
the moment this commits), "revoke" turns it off. Each returns the token, None while off.
``_switch`` decides, for all three, what an action does to a link; asking for what is already
so (enable when on, revoke when off) writes nothing. A change moves the version of the book
the link belongs to, so open pages see it on their next poll, and writes one history entry in
that book. The token itself is never written to a history: co-scorekeepers can read it, and
the link is for handing out.

A player's link that stops (turned off, replaced, or freed through "Mời cả bàn") leaves a
``RetiredLink`` behind, by the hash of its token, so its address answers what happened
(``scoring.views.gone``); the names it took through join codes are free again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import (
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    JoinClaim,
    Player,
    RetiredLink,
    Sitting,
)
from scoring.services.common import InvalidInput, bump, bump_group, lock_sitting_row

LINK_ACTIONS = ("enable", "regenerate", "revoke")


@dataclass(frozen=True)
class _Switch:
    """What an action does to a link: its new token, whether it was on, and the history
    note's ending (``on``, ``new``, ``off``: ``live_on``, ``link_new``… in scoring.text.wording)."""

    token: str | None
    was_on: bool
    note: str


def _switch(token: str | None, action: str, new_token: Callable[[], str]) -> _Switch | None:
    """None when the link is already as asked."""
    if action not in LINK_ACTIONS:
        raise InvalidInput(_("Không rõ thao tác."))
    was_on = token is not None
    if action == "revoke":
        return _Switch(None, was_on, "off") if was_on else None
    if action == "regenerate":
        return _Switch(new_token(), was_on, "new" if was_on else "on")
    return None if was_on else _Switch(new_token(), was_on, "on")


@transaction.atomic(durable=True)
def sitting_live_link(*, sitting: Sitting, user: User, action: str) -> str | None:
    """The sitting's live page (``/live/<token>/``); the sitting's version moves on a change."""
    locked = lock_sitting_row(sitting)
    switch = _switch(locked.live_token, action, Sitting.new_live_token)
    if switch is not None:
        bump([locked])  # before the token changes: the cache forgets the old link's version
        locked.live_token = switch.token
        locked.save(update_fields=["live_token"])
        HistoryEntry.objects.create(
            sitting=locked, user=user, action=HistoryEntry.Action.LIVE,
            before={"live": switch.was_on}, after={"live": switch.token is not None},
            note_code=f"live_{switch.note}",
        )  # fmt: skip
    sitting.live_token = locked.live_token
    return locked.live_token


def _lock_group(group: Group) -> Group:
    return Group.objects.select_for_update().get(pk=group.pk)


@transaction.atomic(durable=True)
def group_live_link(*, group: Group, user: User, action: str) -> str | None:
    """The group's live page (``/gl/<token>/``); only its owner may change it. The group's
    version moves on a change."""
    locked = _lock_group(group)
    if locked.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ nhóm mới đổi được liên kết xem."))
    switch = _switch(locked.live_token, action, Group.new_live_token)
    if switch is not None:
        bump_group(locked, group)
        locked.live_token = switch.token
        locked.save(update_fields=["live_token"])
        GroupHistoryEntry.objects.create(
            group=locked, user=user, action=GroupHistoryEntry.Action.LIVE,
            before={"live": switch.was_on}, after={"live": switch.token is not None},
        )  # fmt: skip
    group.live_token = locked.live_token
    return locked.live_token


@transaction.atomic(durable=True)
def player_link(*, player: Player, user: User, action: str) -> str | None:
    """The player's own page (``/p/<token>/``); any scorekeeper of the group may change it. A
    change writes the group's history and moves its version on."""
    if action not in LINK_ACTIONS:
        raise InvalidInput(_("Không rõ thao tác."))
    group = _lock_group(Group(pk=player.group_id))
    if group.owner_id != user.pk and not group.scorekeepers.filter(pk=user.pk).exists():
        raise InvalidInput(_("Chỉ người ghi sổ của nhóm mới đổi được liên kết này."))
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.merged_into_id is not None:
        raise InvalidInput(_("Người chơi này đã được gộp vào người khác."))
    switch = _switch(locked.link_token, action, Player.new_link_token)
    if switch is not None:
        if locked.link_token is not None:
            reason = RetiredLink.Reason.REPLACED if switch.token else RetiredLink.Reason.REVOKED
            retire_player_link(locked, reason)
        locked.link_token = switch.token
        locked.save(update_fields=["link_token"])
        bump_group(group)
        GroupHistoryEntry.objects.create(
            group=group, user=user, action=GroupHistoryEntry.Action.PLAYER_LINK,
            before={"player": locked.name, "link": switch.was_on},
            after={"player": locked.name, "link": switch.token is not None},
            note_code=f"link_{switch.note}",
        )  # fmt: skip
    player.link_token = locked.link_token
    return locked.link_token


def retire_player_link(
    player: Player, reason: RetiredLink.Reason, sitting: Sitting | None = None
) -> None:
    """Called with the player's row locked, before its link changes: keep what became of the
    current link (by its hash) and free every name it took through a join code, since no
    phone holds it any more. The caller writes the new token."""
    assert player.link_token is not None
    RetiredLink.objects.update_or_create(
        token_hash=RetiredLink.hash_of(player.link_token),
        defaults={"player": player, "reason": reason, "sitting": sitting},
    )
    JoinClaim.objects.filter(player=player).delete()
