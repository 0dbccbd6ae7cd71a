"""A period now closes *through* a day (inclusive) rather than before one, and on that last
day only through the sittings there were when it was closed: a table opened the same night
after the close opens in the new period.

Existing closes keep their meaning: "before D" becomes "through D − 1", covering every
sitting of the group then dated D − 1 (none could be opened on it while it was closed).
Going back, "through D" becomes "before D + 1".

Also the last check of each book against its chain (``BookCheck``), so a book that disagrees
says so on its pages until a check passes again."""

from datetime import timedelta

import django.db.models.deletion
from django.db import migrations, models


def forwards(apps, schema_editor):
    PeriodClose = apps.get_model("scoring", "PeriodClose")
    Sitting = apps.get_model("scoring", "Sitting")
    for close in PeriodClose.objects.order_by("pk"):
        through = close.closes_through - timedelta(days=1)
        last = (
            Sitting.objects.filter(group_id=close.group_id, date=through)
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
        )
        PeriodClose.objects.filter(pk=close.pk).update(
            closes_through=through, through_sitting_id=last
        )


def backwards(apps, schema_editor):
    PeriodClose = apps.get_model("scoring", "PeriodClose")
    for close in PeriodClose.objects.order_by("pk"):
        PeriodClose.objects.filter(pk=close.pk).update(
            closes_through=close.closes_through + timedelta(days=1), through_sitting_id=None
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0017_ledger_check"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="periodclose",
            options={
                "ordering": ["-closes_through", "-id"],
                "verbose_name": "chốt sổ",
                "verbose_name_plural": "chốt sổ",
            },
        ),
        migrations.RenameField(
            model_name="periodclose", old_name="closes_before", new_name="closes_through"
        ),
        migrations.AddField(
            model_name="periodclose",
            name="through_sitting",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="scoring.sitting",
                verbose_name="đến hết bàn",
            ),
        ),
        # Between the two: while it still holds "before D", shift it.
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name="periodclose",
            name="closes_through",
            field=models.DateField(verbose_name="chốt sổ đến hết ngày"),
        ),
        migrations.CreateModel(
            name="BookCheck",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ok", models.BooleanField(default=True)),
                ("message_vi", models.CharField(blank=True, max_length=500)),
                ("message_en", models.CharField(blank=True, max_length=500)),
                ("game", models.PositiveIntegerField(blank=True, null=True)),
                ("checked_at", models.DateTimeField()),
                (
                    "group",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="book_check",
                        to="scoring.group",
                    ),
                ),
                (
                    "sitting",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="book_check",
                        to="scoring.sitting",
                    ),
                ),
            ],
            options={
                "verbose_name": "lần kiểm tra sổ",
                "verbose_name_plural": "lần kiểm tra sổ",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("group__isnull", True), ("sitting__isnull", False)),
                            models.Q(("group__isnull", False), ("sitting__isnull", True)),
                            _connector="OR",
                        ),
                        name="book_check_one_book",
                    )
                ],
            },
        ),
    ]
