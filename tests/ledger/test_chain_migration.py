"""Migrations 0013 and 0016: the history already there gets its chain computed, exactly the
chain the site writes (a book made through the services, taken back before the chain and
forward again, has the same hashes and verifies); 0016 re-chains with names and numbers in
place of row ids, once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import services
from scoring.ledger import verify
from scoring.models import GroupHistoryEntry, HistoryEntry, Player, Sitting
from tests.factories import FIRST, SECOND, open_sitting, record, settle

CHAIN = ("scoring", "0013_history_chain")
WITHOUT_IDS = ("scoring", "0016_chain_without_ids")


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _before_chain() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return sorted(parent.key for parent in executor.loader.graph.node_map[CHAIN].parents)


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_existing_history_gets_the_chain_the_site_would_have_written(owner):
    sitting = open_sitting(owner)
    first = record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    services.game_edit(game=first, user=owner, record=SECOND, expected_revision=1)
    services.game_void(game=first, user=owner, reason="sai")
    settle(sitting, owner, "An", "Bình", 3000)
    services.group_rename(group=sitting.group, user=owner, name="Đổi tên")
    written = dict(HistoryEntry.objects.values_list("id", "hash"))
    group_written = dict(GroupHistoryEntry.objects.values_list("id", "hash"))
    assert all(written.values()) and all(group_written.values())

    _migrate(_before_chain())  # the column goes
    _migrate([CHAIN])  # and comes back, computed from the rows (by id, as then)
    _migrate(_latest())  # and again with names and numbers
    try:
        assert dict(HistoryEntry.objects.values_list("id", "hash")) == written
        assert dict(GroupHistoryEntry.objects.values_list("id", "hash")) == group_written
    finally:
        _migrate(_latest())
    # Checked with the tables of today (a check leaves a checkpoint, 0017).
    assert verify.verify_sitting(sitting).ok
    assert verify.verify_group(sitting.group).ok


@pytest.mark.django_db(transaction=True)
def test_a_merge_made_before_the_chain_still_replays_to_the_renamed_records(owner):
    sitting = open_sitting(owner, players=["An", "Bình T", "Chi", "Dũng"])
    record(
        sitting, owner, {**FIRST, "players": ["An", "Bình T", "Chi", "Dũng"], "finish": ["Bình T"]}
    )
    open_sitting(owner, name="Sau")  # "Bình" herself, in another sitting
    keep = Player.objects.get(owner=owner, name="Bình")
    duplicate = Player.objects.get(owner=owner, name="Bình T")
    services.player_merge(keep=keep, duplicate=duplicate, user=owner)
    entry = HistoryEntry.objects.get(sitting=sitting, note_code="merged")
    written = entry.hash
    # As a merge wrote it before the chain: no "renamed" in its entry.
    HistoryEntry.objects.filter(pk=entry.pk).update(after={"players": entry.after["players"]})

    _migrate(_before_chain())
    _migrate([CHAIN])
    _migrate(_latest())
    try:
        entry.refresh_from_db()
        assert entry.after["renamed"] == {"Bình T": "Bình"}
        assert entry.hash == written
    finally:
        _migrate(_latest())
    assert verify.verify_sitting(Sitting.objects.get(pk=sitting.pk)).ok


def _before(target: tuple[str, str]) -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return sorted(parent.key for parent in executor.loader.graph.node_map[target].parents)


@pytest.mark.django_db(transaction=True)
def test_0016_rechains_once_with_names_and_numbers(owner, django_user_model):
    """Before 0016 the chain covered row ids; after it, the same book hashes to what the site
    writes now (who by name, settlements and undone entries by number), and verifies."""
    partner = django_user_model.objects.create_user("binh", password="x")
    sitting = open_sitting(owner)
    record(sitting, owner, FIRST)
    second = record(sitting, owner, SECOND)
    services.game_void(game=second, user=owner, reason="sai")
    undone = services.sitting_undo(sitting=sitting, user=owner)
    assert undone is not None
    settle(sitting, owner, "An", "Bình", 3000)
    services.sitting_share(sitting=sitting, user=owner, invitee=partner)
    written = dict(HistoryEntry.objects.values_list("id", "hash"))
    names = dict(HistoryEntry.objects.values_list("id", "username"))
    assert set(names.values()) == {owner.get_username(), "binh"}

    _migrate(_before(WITHOUT_IDS))
    with connection.cursor() as cursor:  # as the site wrote them then: a hash by ids
        cursor.execute(f"UPDATE {HistoryEntry._meta.db_table} SET hash = 'old'")
    _migrate(_latest())
    try:
        assert dict(HistoryEntry.objects.values_list("id", "hash")) == written
        assert dict(HistoryEntry.objects.values_list("id", "username")) == names
        assert verify.verify_sitting(Sitting.objects.get(pk=sitting.pk)).ok
        assert verify.verify_group(sitting.group).ok
    finally:
        _migrate(_latest())
