"""Migration 0026: the checkpoint ``verify_ledger --since`` goes on from moves from
``LedgerCheck`` onto the book's ``BookCheck``, beside the verdict kept there; backwards it
becomes a ``LedgerCheck`` again."""

from __future__ import annotations

import pytest

from scoring.ledger import verify
from scoring.models import BookCheck, Sitting
from tests.factories import FIRST, SECOND, new_group, open_sitting, record
from tests.migrations import latest, migrate_to

BEFORE = [("scoring", "0025_archive_tasks")]
AFTER = [("scoring", "0026_checkpoint_on_book_check")]
CHECKPOINT = ("checkpoint_entry", "checkpoint_hash", "checkpoint_at")


def _checkpoints(model, *fields: str) -> dict[tuple[int | None, int | None], tuple]:
    rows = model.objects.values_list("sitting_id", "group_id", *fields)
    return {(sitting, group): tuple(rest) for sitting, group, *rest in rows}


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_a_ledger_check_survives_as_the_book_checks_checkpoint(owner):
    group = new_group(owner, "Thứ Bảy")
    shown = open_sitting(owner, group=group)
    record(shown, owner, FIRST)
    quiet = open_sitting(owner, group=group, name="Bàn hai")
    record(quiet, owner, SECOND)
    assert verify.verify_group(group).ok  # a checkpoint for the group and each sitting
    # A verdict kept on one of them (a mismatch shown then), beside its checkpoint.
    BookCheck.objects.filter(sitting=shown).update(ok=False, message_vi="sai", game=1)
    made = _checkpoints(BookCheck, *CHECKPOINT)
    assert len(made) == 3 and all(entry for entry, _hash, _at in made.values())

    try:
        old = migrate_to(BEFORE)
        # Backwards: each checkpoint is a LedgerCheck again.
        assert (
            _checkpoints(old.get_model("scoring", "LedgerCheck"), "entry_id", "hash", "checked_at")
            == made
        )
        # A site of then: only the shown sitting has a kept verdict.
        old.get_model("scoring", "BookCheck").objects.exclude(sitting_id=shown.pk).delete()

        new = migrate_to(AFTER)
        NewCheck = new.get_model("scoring", "BookCheck")
        assert _checkpoints(NewCheck, *CHECKPOINT) == made
        kept = NewCheck.objects.get(sitting_id=shown.pk)
        assert (kept.ok, kept.message_vi, kept.game) == (False, "sai", 1)
        for book in (
            NewCheck.objects.get(sitting_id=quiet.pk),
            NewCheck.objects.get(group_id=group.pk),
        ):
            # Made for the checkpoint: agreeing, as the check that made the checkpoint found.
            assert (book.ok, book.message_vi, book.message_en, book.game) == (True, "", "", None)
            assert book.checked_at == book.checkpoint_at
    finally:
        # The tests after this one in the same database need the latest tables.
        migrate_to(latest())

    # --since goes on from the carried checkpoint: nothing new, nothing read.
    verdict = verify.verify_sitting(Sitting.objects.get(pk=quiet.pk), since=True)
    _entry, _hash, at = made[(quiet.pk, None)]
    assert verdict.ok and verdict.since == at and verdict.entries == 0
    assert verify.verify_group(group, since=True).since == made[(None, group.pk)][2]
