"""Sharing a sitting by consent: invite, accept or decline, withdraw, remove, leave.

Only an accepted invitation makes someone a co-scorekeeper (``Sitting.scorekeepers``), and
every step writes a history entry naming the co-scorekeeper, in the same transaction as the
change (the sitting row is locked first, see ``scoring.services.common``). An answer to an
invitation that is no longer pending, or removing someone who is not a co-scorekeeper, changes
nothing and returns False.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import HistoryEntry, Invitation, Sitting
from scoring.services.common import (
    account_named,
    bump,
    lock_sitting,
    lock_sitting_row,
    refuse_invitation,
)
from scoring.services.groups import ANSWERS, answer, group_answer


def _history(sitting: Sitting, user: User, action: str, username: str) -> None:
    HistoryEntry.objects.create(
        sitting=sitting, user=user, action=action, after={"scorekeeper": username}
    )


@transaction.atomic(durable=True)
def invitation_send(*, sitting: Sitting, user: User, username: str) -> Invitation:
    """Invite ``username``; the same pending invitation whether or not the account exists.

    Refusals (InvalidInput) only concern people the owner can already see: themselves, a
    co-scorekeeper, a username already invited.
    """
    username = username.strip()
    locked = lock_sitting(sitting)
    refuse_invitation(locked, username, _("Bạn là chủ bàn này rồi."), _("%(u)s đã ghi sổ bàn này."))
    invitee = account_named(username)
    invitation = Invitation.objects.create(
        sitting=locked, username=username, invitee=invitee, invited_by=user
    )
    _history(locked, user, HistoryEntry.Action.SHARED, username)
    return invitation


def _lock_pending(invitation: Invitation) -> tuple[Sitting, Invitation | None]:
    assert invitation.sitting is not None
    sitting = lock_sitting_row(invitation.sitting)
    current = Invitation.objects.filter(pk=invitation.pk, status=Invitation.Status.PENDING).first()
    return sitting, current


#: The sitting's history entry for each answer (who may give it: ``groups.ANSWERS``).
_ACTIONS = {
    Invitation.Status.ACCEPTED: HistoryEntry.Action.INVITE_ACCEPTED,
    Invitation.Status.DECLINED: HistoryEntry.Action.INVITE_DECLINED,
    Invitation.Status.WITHDRAWN: HistoryEntry.Action.INVITE_WITHDRAWN,
}


@transaction.atomic(durable=True)
def _answer_invitation(invitation: Invitation, user: User, status: Invitation.Status) -> bool:
    if invitation.group_id is not None:  # an invitation to a group
        return group_answer(invitation=invitation, user=user, status=status) is not None
    sitting, current = _lock_pending(invitation)
    # The owner's right to take an invitation back is checked by the view that offers it.
    if current is None or (ANSWERS[status][1] == "invitee" and current.invitee_id != user.pk):
        return False
    bump([sitting])
    answer(current, status)
    if status == Invitation.Status.ACCEPTED:
        sitting.scorekeepers.add(user)
    _history(sitting, user, _ACTIONS[status], current.username)
    return True


def invitation_accept(*, invitation: Invitation, user: User) -> bool:
    """The invitee says yes. False when the invitation is no longer pending (withdrawn)."""
    return _answer_invitation(invitation, user, Invitation.Status.ACCEPTED)


def invitation_decline(*, invitation: Invitation, user: User) -> bool:
    return _answer_invitation(invitation, user, Invitation.Status.DECLINED)


def invitation_withdraw(*, invitation: Invitation, user: User) -> bool:
    """The owner takes back an invitation nobody has answered yet."""
    return _answer_invitation(invitation, user, Invitation.Status.WITHDRAWN)


@transaction.atomic(durable=True)
def scorekeeper_remove(*, sitting: Sitting, user: User, keeper: User) -> bool:
    """The owner takes a co-scorekeeper off the sitting (``user`` is the owner)."""
    locked = lock_sitting_row(sitting)
    if not locked.scorekeepers.filter(pk=keeper.pk).exists():
        return False
    bump([locked])
    locked.scorekeepers.remove(keeper)
    _history(locked, user, HistoryEntry.Action.KEEPER_REMOVED, keeper.get_username())
    return True


@transaction.atomic(durable=True)
def scorekeeper_leave(*, sitting: Sitting, user: User) -> bool:
    """A co-scorekeeper takes themselves off the sitting."""
    locked = lock_sitting_row(sitting)
    if not locked.scorekeepers.filter(pk=user.pk).exists():
        return False
    bump([locked])
    locked.scorekeepers.remove(user)
    _history(locked, user, HistoryEntry.Action.KEEPER_LEFT, user.get_username())
    return True


def sitting_share(*, sitting: Sitting, user: User, invitee: User) -> None:
    """Invite and accept in one step, for tools acting for both people (demo data, load runs).

    The site never calls this: there, only the invitee accepts.
    """
    invitation = invitation_send(sitting=sitting, user=user, username=invitee.get_username())
    invitation_accept(invitation=invitation, user=invitee)


def pending_for(user: User) -> list[Invitation]:
    return list(
        Invitation.objects.filter(invitee=user, status=Invitation.Status.PENDING)
        .select_related("sitting", "group", "invited_by")
        .order_by("-created_at", "-id")
    )
