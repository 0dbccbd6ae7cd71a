"""One row per book for what its checks leave: the checkpoint ``verify_ledger --since`` goes on
from moves from ``LedgerCheck`` onto the book's ``BookCheck``, beside the last verdict shown.

Each ``LedgerCheck`` becomes the checkpoint of the ``BookCheck`` of the same book (a sitting's
or a group's); a book that had a checkpoint and no kept verdict gets a ``BookCheck`` that
agrees, dated when its checkpoint was made (the check that made it agreed). Backwards, every
checkpoint becomes a ``LedgerCheck`` again; the ``BookCheck`` rows made here stay, agreeing,
which no page shows.
"""

from django.db import migrations, models

CHECKPOINT = ("checkpoint_entry", "checkpoint_hash", "checkpoint_at")


def carry_checkpoints(apps, schema_editor):
    LedgerCheck = apps.get_model("scoring", "LedgerCheck")
    BookCheck = apps.get_model("scoring", "BookCheck")
    db = schema_editor.connection.alias
    checks = {
        (check.sitting_id, check.group_id): check
        for check in BookCheck.objects.using(db).only("id", "sitting_id", "group_id")
    }
    changed, made = [], []
    marks = LedgerCheck.objects.using(db).order_by("id")
    for sitting, group, entry, digest, at in marks.values_list(
        "sitting_id", "group_id", "entry_id", "hash", "checked_at"
    ):
        check = checks.get((sitting, group))
        if check is None:
            check = BookCheck(
                sitting_id=sitting,
                group_id=group,
                ok=True,
                message_vi="",
                message_en="",
                game=None,
                checked_at=at,
            )
            made.append(check)
        else:
            changed.append(check)
        check.checkpoint_entry, check.checkpoint_hash, check.checkpoint_at = entry, digest, at
    BookCheck.objects.using(db).bulk_update(changed, CHECKPOINT, batch_size=500)
    BookCheck.objects.using(db).bulk_create(made, batch_size=500)


def part_checkpoints(apps, schema_editor):
    LedgerCheck = apps.get_model("scoring", "LedgerCheck")
    BookCheck = apps.get_model("scoring", "BookCheck")
    db = schema_editor.connection.alias
    marks = BookCheck.objects.using(db).filter(checkpoint_entry__isnull=False).order_by("id")
    LedgerCheck.objects.using(db).bulk_create(
        [
            LedgerCheck(
                sitting_id=sitting,
                group_id=group,
                entry_id=entry,
                hash=digest,
                checked_at=at or checked,
            )
            for sitting, group, entry, digest, at, checked in marks.values_list(
                "sitting_id", "group_id", *CHECKPOINT, "checked_at"
            )
        ],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0025_archive_tasks"),
    ]

    operations = [
        migrations.AddField(
            model_name="bookcheck",
            name="checkpoint_entry",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="bookcheck",
            name="checkpoint_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="bookcheck",
            name="checkpoint_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(carry_checkpoints, part_checkpoints),
        migrations.RemoveConstraint(
            model_name="ledgercheck",
            name="ledger_check_one_book",
        ),
        migrations.DeleteModel(
            name="LedgerCheck",
        ),
    ]
