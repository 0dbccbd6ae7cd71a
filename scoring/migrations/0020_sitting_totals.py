"""Each sitting's totals per player, stored (``SittingTotal``, ``SittingFlow``), filled here
for every sitting already recorded, a batch of sittings at a time, by the same function the
services keep them with (``scoring.ledger.totals.compute``) on this migration's models."""

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor):
    from scoring.ledger import totals

    sittings = apps.get_model("scoring", "Sitting")
    models_of = {
        "seats": apps.get_model("scoring", "Seat"),
        "payments": apps.get_model("scoring", "Payment"),
        "settlements": apps.get_model("scoring", "Settlement"),
    }
    total_model = apps.get_model("scoring", "SittingTotal")
    flow_model = apps.get_model("scoring", "SittingFlow")
    ids = list(sittings.objects.order_by("id").values_list("id", flat=True))
    for start in range(0, len(ids), totals.BATCH):
        book = totals.compute(ids[start : start + totals.BATCH], **models_of)
        total_rows, flow_rows = totals.rows_of(book, totals=total_model, flows=flow_model)
        total_model.objects.bulk_create(total_rows, batch_size=500)
        flow_model.objects.bulk_create(flow_rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0019_join_codes"),
    ]

    operations = [
        migrations.CreateModel(
            name="SittingFlow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.BigIntegerField()),
                (
                    "payee",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="scoring.player",
                    ),
                ),
                (
                    "payer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="scoring.player",
                    ),
                ),
                (
                    "sitting",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="flows",
                        to="scoring.sitting",
                    ),
                ),
            ],
            options={
                "verbose_name": "dòng tiền của bàn",
                "verbose_name_plural": "dòng tiền của bàn",
                "ordering": ["sitting", "payer", "payee"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("sitting", "payer", "payee"), name="sitting_flow_unique"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SittingTotal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("net", models.BigIntegerField(default=0)),
                ("games", models.PositiveIntegerField(default=0)),
                ("first", models.PositiveIntegerField(default=0)),
                ("cong", models.PositiveIntegerField(default=0)),
                ("thoi_games", models.PositiveIntegerField(default=0)),
                ("thoi", models.BigIntegerField(default=0)),
                ("toi_trang", models.PositiveIntegerField(default=0)),
                ("chat_made", models.PositiveIntegerField(default=0)),
                ("chat_made_amount", models.BigIntegerField(default=0)),
                ("chat_suffered", models.PositiveIntegerField(default=0)),
                ("chat_suffered_amount", models.BigIntegerField(default=0)),
                ("paid", models.BigIntegerField(default=0)),
                ("received", models.BigIntegerField(default=0)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="scoring.player",
                    ),
                ),
                (
                    "sitting",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="totals",
                        to="scoring.sitting",
                    ),
                ),
            ],
            options={
                "verbose_name": "tổng của bàn",
                "verbose_name_plural": "tổng của bàn",
                "ordering": ["sitting", "player"],
                "indexes": [
                    models.Index(fields=["player", "sitting"], name="sitting_total_player")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("sitting", "player"), name="sitting_total_unique"
                    )
                ],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
    ]
