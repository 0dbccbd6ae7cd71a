"""The chain covers what a person sees, not row ids (docs/ledger-check.md, "Migration 0016").

Until here an entry's hash covered its user, settlement, undone entry, sitting and period by
their row ids: numbers another server gives otherwise, so a group moved there could not keep
its fingerprint, and deleting an account changed every entry it had written. Now the chain
covers the user's name (a new column, ``username``, filled here from the account) and the
settlement, undone entry and period by their numbers within the book
(``scoring.chain.fields``). Every book is re-chained **once**, oldest entry first, from the
rows as they are: every fingerprint changes at this migration, and only here.
"""

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def rechain_every_book(apps: Any, schema_editor: Any) -> None:
    from scoring.engine import chain

    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    name_field = getattr(user_model, "USERNAME_FIELD", "username")
    names = user_model._default_manager.filter(pk=OuterRef("user_id")).values(name_field)[:1]
    for name, key in (("HistoryEntry", "sitting_id"), ("GroupHistoryEntry", "group_id")):
        model = apps.get_model("scoring", name)
        model._default_manager.filter(user__isnull=False).update(username=Subquery(names))
        books = model._default_manager.order_by().values_list(key, flat=True).distinct()
        for book in sorted(set(books)):
            chain.rechain(model, book)


class Migration(migrations.Migration):
    # restore names this migration when a backup's fingerprints differ after it.
    rechains_books = True

    dependencies = [
        ("scoring", "0015_player_skeleton"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="grouphistoryentry",
            name="username",
            field=models.CharField(
                blank=True, editable=False, max_length=150, verbose_name="người ghi"
            ),
        ),
        migrations.AddField(
            model_name="historyentry",
            name="username",
            field=models.CharField(
                blank=True, editable=False, max_length=150, verbose_name="người ghi"
            ),
        ),
        migrations.RunPython(rechain_every_book, migrations.RunPython.noop),
    ]
