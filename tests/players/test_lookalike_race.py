"""Two phones adding look-alike names to one group at the same instant: one player, and the
other phone told which name the group has (the stored skeleton and its constraint), and the
migration that fills the skeletons for groups that already hold look-alikes."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from scoring import services
from scoring.engine.readtext import skeleton
from scoring.models import Player
from tests.factories import new_group
from tests.migrations import latest, migrate_to


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second", ["Án", "AN", "Аn"])  # a tone mark, full-width, Cyrillic А
def test_look_alike_names_added_at_the_same_instant_make_one_player(owner, second):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers: the second waits and then sees the first")
    group = new_group(owner, "Cuối tuần")
    first_inserted, outcome = threading.Event(), []

    def first() -> None:
        """Adds "An" and holds its transaction open until the other phone has tried."""
        try:
            with transaction.atomic():
                services.player_get_or_create(owner=owner, name="An", group=group)
                first_inserted.set()
                # The other insert waits on the constraint's index meanwhile: held for less
                # than the web's lock timeout (3 s, which this process keeps), so the other
                # waits and then sees this row instead of giving up on the lock.
                other.join(1.5)
        finally:
            connections.close_all()

    def second_phone() -> None:
        try:
            first_inserted.wait(10)
            with transaction.atomic():
                player = services.player_get_or_create(owner=owner, name=second, group=group)
            outcome.append(player.name)
        except services.InvalidInput as error:
            outcome.append(error.message)
        finally:
            connections.close_all()

    other = threading.Thread(target=second_phone)
    one = threading.Thread(target=first)
    other.start()  # before the first: it joins this one
    one.start()
    one.join(30)
    other.join(30)
    names = list(Player.objects.filter(group=group).values_list("name", flat=True))
    if second == "AN":  # the same name in another case is the same player
        assert names == ["An"] and outcome == ["An"]
    else:
        assert names == ["An"], names
        assert "trông giống “An”" in outcome[0]


@pytest.mark.django_db
def test_a_new_player_stores_what_its_name_looks_like(owner):
    group = new_group(owner, "Cuối tuần")
    player = services.player_get_or_create(owner=owner, name="Bình Sài Gòn", group=group)
    assert player.skeleton == skeleton("Bình Sài Gòn") == "binh sai gon"


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_look_alikes_a_group_already_had():
    old = migrate_to([("scoring", "0014_group_live_leaderboard")])
    User = old.get_model("auth", "User")
    Group = old.get_model("scoring", "Group")
    Player = old.get_model("scoring", "Player")
    owner = User.objects.create(username="chu")
    group = Group.objects.create(owner=owner, name="Nhóm")
    other = Group.objects.create(owner=owner, name="Nhóm khác")
    an = Player.objects.create(owner=owner, group=group, name="An")
    an_mark = Player.objects.create(owner=owner, group=group, name="Ân")  # from before the check
    an_elsewhere = Player.objects.create(owner=owner, group=other, name="An")
    merged = Player.objects.create(owner=owner, group=group, name="AN", merged_into=an)

    new = migrate_to([("scoring", "0015_player_skeleton")])
    Player = new.get_model("scoring", "Player")
    stored = dict(Player.objects.values_list("pk", "skeleton"))
    assert stored[an.pk] == "an"
    assert stored[an_mark.pk] is None  # kept its name; the oldest look-alike holds the key
    assert stored[an_elsewhere.pk] == "an"  # another group
    assert stored[merged.pk] == "an"  # merged players are outside the constraint
    migrate_to([("scoring", "0014_group_live_leaderboard")])  # and back
    migrate_to(latest())
