import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_default_groups"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_unique_per_owner",
        ),
        migrations.AlterField(
            model_name="player",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="scoring.group",
                verbose_name="nhóm",
            ),
        ),
        migrations.AlterField(
            model_name="sitting",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sittings",
                to="scoring.group",
                verbose_name="nhóm",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("merged_into__isnull", True)),
                fields=("group", "name"),
                name="player_name_unique_per_group",
            ),
        ),
    ]
