"""One place that decides who may see or change a sitting.

Anyone who is neither the owner nor an invited co-scorekeeper gets a 404 for every page and
action of the sitting, so a sitting's existence is not revealed by a 403.
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from scoring.models import Game, Sitting


def sittings_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Sitting]:
    if not user.is_authenticated:
        return Sitting.objects.none()
    return Sitting.objects.filter(Q(owner=user) | Q(scorekeepers=user)).distinct()


def get_sitting_for_user(user: AbstractBaseUser | AnonymousUser, pk: int) -> Sitting:
    if not user.is_authenticated:
        raise Http404
    sitting = Sitting.objects.filter(pk=pk).first()
    if sitting is None:
        raise Http404
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
    game = Game.objects.filter(sitting=sitting, number=number).first()
    if game is None:
        raise Http404
    game.sitting = sitting
    return game
