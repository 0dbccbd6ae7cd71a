"""The skeleton of every player an import wrote without one (docs/names.md), so the per-group
look-alike constraint holds for imported groups too.

Filled as ``0015_player_skeleton`` filled it: a player without a skeleton gets it unless an
unmerged player of the same group already holds it (an imported look-alike stays outside the
constraint and keeps its name).
"""

from django.db import migrations


def fill(apps, schema_editor):
    from scoring.engine.readtext import skeleton

    Player = apps.get_model("scoring", "Player")
    missing = Player.objects.filter(skeleton__isnull=True)
    groups = set(missing.values_list("group_id", flat=True))
    taken = set(
        Player.objects.filter(
            group_id__in=groups, merged_into__isnull=True, skeleton__isnull=False
        ).values_list("group_id", "skeleton")
    )
    changed = []
    for player in missing.order_by("id").only("id", "group_id", "name", "merged_into_id"):
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
        ("scoring", "0023_labels_in_players_words"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
    ]
