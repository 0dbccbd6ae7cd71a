from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_history_chain"),
    ]

    operations = [
        migrations.AddField(
            model_name="group",
            name="live_leaderboard",
            field=models.BooleanField(
                default=False, verbose_name="bảng xếp hạng trên liên kết xem"
            ),
        ),
    ]
