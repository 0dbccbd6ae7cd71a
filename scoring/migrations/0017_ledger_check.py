"""Where verify_ledger last found each book agreeing: what ``verify_ledger --since`` goes on from."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_chain_without_ids"),
    ]

    operations = [
        migrations.CreateModel(
            name="LedgerCheck",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("entry_id", models.PositiveBigIntegerField(default=0)),
                ("hash", models.CharField(blank=True, default="", max_length=64)),
                ("checked_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "group",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scoring.group",
                    ),
                ),
                (
                    "sitting",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scoring.sitting",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("sitting__isnull", True), ("group__isnull", True), _connector="XOR"
                        ),
                        name="ledger_check_one_book",
                    )
                ],
            },
        ),
    ]
