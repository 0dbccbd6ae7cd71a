"""One place that decides who may see or change a sitting, a group, a player or an invitation.

Anyone who is neither the owner nor an invited co-scorekeeper (of the sitting, or of the
sitting's group) gets a 404 for every page and action of the sitting, so a sitting's existence
is not revealed by a 403. A group and its players are seen by the group's owner and the
group's scorekeepers, nobody else; an invitation only by the account invited, the same way.
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.models import Game, Group, Invitation, Player, Sitting


def sittings_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Sitting]:
    if not user.is_authenticated:
        return Sitting.objects.none()
    return Sitting.objects.filter(
        Q(owner=user) | Q(scorekeepers=user) | Q(group__owner=user) | Q(group__scorekeepers=user)
    ).distinct()


def get_sitting_for_user(user: AbstractBaseUser | AnonymousUser, pk: int) -> Sitting:
    if not user.is_authenticated:
        raise Http404
    sitting = get_object_or_404(Sitting, pk=pk)
    if (
        sitting.owner_id != user.pk
        and not sitting.scorekeepers.filter(pk=user.pk).exists()
        and not Group.objects.for_user(user).filter(pk=sitting.group_id).exists()
    ):
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


def players_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    """Players of every group the user owns or keeps score for."""
    if not user.is_authenticated:
        return Player.objects.none()
    return Player.objects.filter(group__in=Group.objects.for_user(user).values("pk"))


def get_player_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Player:
    """Players belong to a group: its owner and scorekeepers see them, everyone else gets a
    404, as for sittings."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(players_for(user).select_related("merged_into"), pk=pk)


def groups_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Group]:
    return Group.objects.for_user(user)


def get_group_for_user(user: AbstractBaseUser | AnonymousUser, pk: int) -> Group:
    """The group if ``user`` owns it or keeps score for it; 404 otherwise."""
    return get_object_or_404(Group.objects.for_user(user), pk=pk)


def get_group_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Group:
    """Actions only the group's owner may take (inviting, the live link, moving sittings)."""
    group = get_group_for_user(user, pk)
    if group.owner_id != user.pk:
        raise Http404
    return group


def get_invitation_for_invitee(user: AbstractBaseUser | AnonymousUser, pk: int) -> Invitation:
    """Only the invited account sees an invitation; for anyone else it does not exist."""
    if not user.is_authenticated:
        raise Http404
    invitations = Invitation.objects.select_related("sitting", "group", "invited_by")
    return get_object_or_404(invitations, pk=pk, invitee=user)
