"""Migration 0024: players an earlier import wrote without a skeleton get one, but for a
look-alike of a player already holding it (it keeps its name, outside the constraint)."""

from __future__ import annotations

import pytest

from tests.migrations import latest, migrate_to

BEFORE = [("scoring", "0023_labels_in_players_words")]
AFTER = [("scoring", "0024_imported_player_skeletons")]


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_imported_players_get_their_skeleton():
    old = migrate_to(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="nhap")
    group = old.get_model("scoring", "Group").objects.create(owner=user, name="Nhập")
    Player = old.get_model("scoring", "Player")
    for name in ("An", "Аn", "Bình"):  # the second is Cyrillic: a look-alike of the first
        Player.objects.create(owner=user, group=group, name=name, skeleton=None)
    try:
        new = migrate_to(AFTER)
        skeletons = dict(new.get_model("scoring", "Player").objects.values_list("name", "skeleton"))
        assert skeletons["An"] and skeletons["Bình"]
        assert skeletons["Аn"] is None
    finally:
        # Forward to the latest migration again: the tests after this one in the same
        # database need the tables of the migrations after 0024.
        migrate_to(latest())
