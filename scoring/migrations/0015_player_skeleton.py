"""Each player's skeleton (what the name looks like), so one group cannot gain two look-alike
players even when two phones add them at the same instant (docs/names.md).

The skeleton is filled for every player; where a group already has several unmerged players
that look alike (kept from before the look-alike check), the first of them (the oldest) holds
the skeleton and the others keep none, so they keep their names and the constraint holds.
"""

from django.db import migrations, models


def fill(apps, schema_editor):
    from scoring.engine.readtext import skeleton

    Player = apps.get_model("scoring", "Player")
    taken: set[tuple[int, str]] = set()
    changed = []
    for player in Player.objects.order_by("id").only("id", "group_id", "name", "merged_into_id"):
        key = skeleton(player.name)
        if player.merged_into_id is None:
            if (player.group_id, key) in taken:
                continue
            taken.add((player.group_id, key))
        player.skeleton = key
        changed.append(player)
    Player.objects.bulk_update(changed, ["skeleton"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_group_live_leaderboard"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="skeleton",
            field=models.TextField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("merged_into__isnull", True), ("skeleton__isnull", False)),
                fields=("group", "skeleton"),
                name="player_skeleton_unique_per_group",
            ),
        ),
    ]
