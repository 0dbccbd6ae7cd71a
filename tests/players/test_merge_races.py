"""A merge and a save that writes a row for the same player, at the same moment, both finish.

The merge locked the two player rows FOR UPDATE and then the sittings; a save holds its
sitting and then writes a seat whose foreign-key check waits for the player row: each waited
for the other, and PostgreSQL broke the deadlock by failing one of them.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from scoring import services
from scoring.models import Game, Seat, Sitting
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_merge_and_a_save_touching_the_same_player_both_finish(owner):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises writers by itself")
    group = new_group(owner, "Cuối tuần")
    first = open_in_group(group, owner, ["Bình", "Dũng", "Em"])
    won(first, owner, "Dũng", {"Bình": 3, "Em": 2})
    second = open_in_group(group, owner, ["An", "Chi", "Bình Sài Gòn"])
    won(second, owner, "An", {"Chi": 3, "Bình Sài Gòn": 2})
    keep, duplicate = group_player(group, "Bình"), group_player(group, "Bình Sài Gòn")
    errors: list[str] = []
    holding = threading.Event()

    def save() -> None:
        """What a save does: its sitting first, then a row naming the player. Django's foreign
        keys are checked at commit (DEFERRABLE INITIALLY DEFERRED), so that is where it waited
        for the merge's lock on the player."""
        try:
            with transaction.atomic():
                Sitting.objects.select_for_update().get(pk=second.pk)
                holding.set()
                _wait_for_a_lock_wait()  # the merge has its player rows, waits for the sitting
                Game.objects.filter(sitting=second).update(led_by=duplicate)
        except Exception as error:
            errors.append(f"save: {error!r}")
        finally:
            connections.close_all()

    def merge() -> None:
        try:
            holding.wait(10)
            services.player_merge(keep=keep, duplicate=duplicate, user=owner)
        except Exception as error:
            errors.append(f"merge: {error!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save), threading.Thread(target=merge)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id == keep.pk
    assert not Seat.objects.filter(player=duplicate).exists()
    assert Seat.objects.filter(game__sitting=second, player=keep).count() == 1
    assert set(Game.objects.filter(sitting=second).values_list("led_by", flat=True)) == {keep.pk}


def _wait_for_a_lock_wait(timeout: float = 30) -> None:
    """Until another backend of this database waits for a lock (the merge, on the sitting)."""
    deadline = time.monotonic() + timeout
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            # The statistics views are read once per transaction unless the snapshot is cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.05)
    raise AssertionError("the merge never waited for the sitting")
