"""One place that decides who may see or change a sitting, a player or an invitation.

Anyone who is neither the owner nor an invited co-scorekeeper gets a 404 for every page and
action of the sitting, so a sitting's existence is not revealed by a 403. Players belong to
one scorekeeper, and an invitation is seen only by the account invited, the same way.
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.models import Game, Invitation, Player, Sitting


def sittings_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Sitting]:
    if not user.is_authenticated:
        return Sitting.objects.none()
    return Sitting.objects.filter(Q(owner=user) | Q(scorekeepers=user)).distinct()


def get_sitting_for_user(user: AbstractBaseUser | AnonymousUser, pk: int) -> Sitting:
    if not user.is_authenticated:
        raise Http404
    sitting = get_object_or_404(Sitting, pk=pk)
    if sitting.owner_id != user.pk and not sitting.scorekeepers.filter(pk=user.pk).exists():
        raise Http404
    return sitting


def get_sitting_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Sitting:
    """Actions only the owner may take (inviting, the live link). Others: 404 as well."""
    sitting = get_sitting_for_user(user, pk)
    if sitting.owner_id != user.pk:
        raise Http404
    return sitting


def get_game_for_user(user: AbstractBaseUser | AnonymousUser, pk: int, number: int) -> Game:
    sitting = get_sitting_for_user(user, pk)
    game = get_object_or_404(Game, sitting=sitting, number=number)
    game.sitting = sitting
    return game


def get_player_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Player:
    """Players belong to one scorekeeper; everyone else gets a 404, as for sittings."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(Player.objects.select_related("merged_into"), pk=pk, owner=user)


def get_invitation_for_invitee(user: AbstractBaseUser | AnonymousUser, pk: int) -> Invitation:
    """Only the invited account sees an invitation; for anyone else it does not exist."""
    if not user.is_authenticated:
        raise Http404
    invitations = Invitation.objects.select_related("sitting", "invited_by")
    return get_object_or_404(invitations, pk=pk, invitee=user)
