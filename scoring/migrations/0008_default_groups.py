"""Every owner gets a default group ("Nhóm của <username>"), and every existing player and
sitting moves into its owner's default group. Nothing else changes: totals are per sitting and
every sitting keeps its games, payments and settlements."""

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    Group = apps.get_model("scoring", "Group")
    Player = apps.get_model("scoring", "Player")
    Sitting = apps.get_model("scoring", "Sitting")
    User = apps.get_model(*_user_model().split("."))
    owner_ids = set(Player.objects.values_list("owner_id", flat=True)) | set(
        Sitting.objects.values_list("owner_id", flat=True)
    )
    for user in User.objects.filter(pk__in=owner_ids).order_by("pk"):
        group = Group.objects.filter(owner=user, is_default=True).first()
        if group is None:
            name = f"Nhóm của {user.username}"[:80]
            if Group.objects.filter(owner=user, name=name).exists():
                name = f"{name} ({user.pk})"[:80]
            group = Group.objects.create(owner=user, name=name, is_default=True)
        Player.objects.filter(owner=user, group__isnull=True).update(group=group)
        Sitting.objects.filter(owner=user, group__isnull=True).update(group=group)


def backwards(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("scoring", "Player")
    Sitting = apps.get_model("scoring", "Sitting")
    Player.objects.update(group=None)
    Sitting.objects.update(group=None)


def _user_model() -> str:
    from django.conf import settings

    return str(settings.AUTH_USER_MODEL)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_groups"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
