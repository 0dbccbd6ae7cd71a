# Two field labels in the players' words ("chi tiết ván", "mức tiền"): labels only, no schema change.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0022_phones_and_retired_links"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="record",
            field=models.JSONField(verbose_name="chi tiết ván"),
        ),
        migrations.AlterField(
            model_name="sitting",
            name="stake",
            field=models.BigIntegerField(verbose_name="mức tiền (đồng)"),
        ),
    ]
