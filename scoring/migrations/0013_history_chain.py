"""The history's hash chain (``scoring/chain.py``, described in docs/ledger-check.md).

Adds ``hash`` to both history models, makes ``at`` a default (set before the entry is hashed)
rather than ``auto_now_add``, indexes each book's head, and computes the chain once for the
history already there: every sitting's and every group's entries, oldest first, exactly as
the site would have chained them had it been written then. From here on the chain is
written by the models as each entry is inserted, in the entry's own transaction.
"""

from typing import Any

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def note_old_merges(apps: Any) -> None:
    """A merge made before the chain renamed its sittings' records without saying so in its
    ``members`` entry; its note (code ``merged``, the two names) says which name went where,
    so the entry gets the ``renamed`` a merge writes now, and the history still replays to the
    records it renamed."""
    model = apps.get_model("scoring", "HistoryEntry")
    for entry in model.objects.filter(note_code="merged"):
        params, after = entry.note_params or {}, entry.after or {}
        dup, keep = params.get("dup"), params.get("keep")
        if dup and keep and dup != keep and "renamed" not in after:
            entry.after = {**after, "renamed": {dup: keep}}
            entry.save(update_fields=["after"])


def chain_existing(apps: Any, schema_editor: Any) -> None:
    from scoring import chain

    note_old_merges(apps)
    for name, key in (("HistoryEntry", "sitting_id"), ("GroupHistoryEntry", "group_id")):
        model = apps.get_model("scoring", name)
        books = model.objects.order_by().values_list(key, flat=True).distinct()
        for book in sorted(set(books)):
            chain.rechain(model, book)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_settlement_confirmation"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="grouphistoryentry",
            name="hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="historyentry",
            name="hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AlterField(
            model_name="grouphistoryentry",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="historyentry",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddIndex(
            model_name="grouphistoryentry",
            index=models.Index(fields=["group", "id"], name="group_history_chain_head"),
        ),
        migrations.AddIndex(
            model_name="historyentry",
            index=models.Index(fields=["sitting", "id"], name="history_chain_head"),
        ),
        migrations.RunPython(chain_existing, migrations.RunPython.noop),
    ]
