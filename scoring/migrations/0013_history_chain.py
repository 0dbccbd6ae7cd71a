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


def fields_by_id(entry: Any) -> dict[str, Any]:
    """An entry as this migration's chain covered it: the user, settlement, undone entry,
    sitting and period by their row ids (``0016_chain_without_ids`` re-chains every book with
    numbers and names instead; kept here as it was, so the two steps run in order)."""
    from scoring.engine import chain

    out: dict[str, Any] = {
        "action": entry.action,
        "user": entry.user_id,
        "at": chain.when(entry.at),
        "before": entry.before,
        "after": entry.after,
        "note": entry.note,
        "note_code": entry.note_code,
        "note_params": entry.note_params,
        "settlement": entry.settlement_id,
    }
    if chain.is_sittings(entry):
        out["game"] = entry.game.number if entry.game_id is not None else None
        out["revision"] = entry.revision
        out["undoes"] = entry.undoes_id
    else:
        out["sitting"] = entry.sitting_id
        out["period"] = entry.period_id
    return out


def chain_existing(apps: Any, schema_editor: Any) -> None:
    from scoring.engine import chain

    note_old_merges(apps)
    for name, key in (("HistoryEntry", "sitting_id"), ("GroupHistoryEntry", "group_id")):
        model = apps.get_model("scoring", name)
        books = model.objects.order_by().values_list(key, flat=True).distinct()
        for book in sorted(set(books)):
            rows = model.objects.filter(**{key: book}).order_by("id")
            if name == "HistoryEntry":
                rows = rows.select_related("game")
            head, changed = "", []
            for entry in rows:
                head = chain.link(head, chain.canonical(fields_by_id(entry)))
                if entry.hash != head:
                    entry.hash = head
                    changed.append(entry)
            model.objects.bulk_update(changed, ["hash"], batch_size=500)


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
