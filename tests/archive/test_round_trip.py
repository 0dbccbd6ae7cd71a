"""A group moves servers with its fingerprint: archived, imported as a new group (here into
the same database, as another server would hold it), and compared."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.engine import chain
from scoring.ledger import archive, archive_file, verify
from scoring.ledger.group_export import export_dict, statement_csv_rows
from scoring.ledger.group_statements import STATEMENT_COLUMNS
from scoring.models import Group, GroupHistoryEntry, HistoryEntry, Sitting
from scoring.services import group_archive

pytestmark = pytest.mark.django_db


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


def _books(group: Group) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every book of the group, as a person sees it: its fingerprint and each entry's fields
    (what the chain covers) with its hash."""
    books = [
        (
            verify.fingerprint_of(group),
            [
                (json.dumps(chain.fields(e), sort_keys=True), e.hash)
                for e in chain.entries(GroupHistoryEntry, group.pk)
            ],
        )
    ]
    for sitting in Sitting.objects.filter(group=group).order_by("id"):
        books.append(
            (
                verify.fingerprint_of(sitting),
                [
                    (json.dumps(chain.fields(e), sort_keys=True), e.hash)
                    for e in chain.entries(HistoryEntry, sitting.pk)
                ],
            )
        )
    return books


def _standing(group: Group) -> dict:
    data = export_dict(group)
    data.pop("name")
    return data


def _statements(group: Group) -> list[list[object]]:
    """Every player's statement rows, but for the sitting's id (this server's number)."""
    skip = STATEMENT_COLUMNS.index("sitting_id")
    return [row[:skip] + row[skip + 1 :] for row in statement_csv_rows(group)]


def test_the_archive_imports_as_the_same_group(rich_group, stranger, tmp_path: Path):
    path = tmp_path / "nhom.json.gz"
    code, _out, err = _run("export_group", str(rich_group.pk), "--format", "archive",
                           "--output", str(path))  # fmt: skip
    assert code == 0, err
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    code, out, err = _run("import_group", str(path), "--owner", stranger.get_username())
    assert code == 0, err
    new = Group.objects.get(pk=int(out.strip().splitlines()[-1]))
    assert new.pk != rich_group.pk and new.owner == stranger
    assert new.name == rich_group.name

    assert _books(new) == _books(rich_group)
    assert verify.fingerprint_of(new) in err
    assert _standing(new) == _standing(rich_group)
    assert _statements(new) == _statements(rich_group)
    assert verify.verify_group(new).ok
    assert _run("verify_ledger", "--group", str(new.pk))[0] == 0
    # Nothing points back at the first group, and what belongs to a server stayed behind.
    assert not new.sittings.filter(live_token__isnull=False).exists()
    assert not new.players.filter(link_token__isnull=False).exists()
    assert not new.scorekeepers.exists()


def test_the_same_group_gives_the_same_archive(rich_group):
    first = archive.archive_build(rich_group)
    second = archive.archive_build(rich_group)
    first.pop("exported_at"), second.pop("exported_at")
    assert first == second
    assert not {k for k in _keys(first) if k == "id" or k.endswith("_id") or k == "pk"}


def _keys(value: object) -> set[str]:
    """Every key of the document, but inside rule sets (a preset's own "id" is its name)."""
    if isinstance(value, list):
        return set().union(*map(_keys, value)) if value else set()
    if isinstance(value, dict):
        inner = [_keys(v) for k, v in value.items() if k != "rules"]
        return set(value).union(*inner)
    return set()


def test_the_owners_group_name_taken_gets_a_number(rich_group):
    data = archive_file.archive_read(archive.archive_bytes(rich_group, compress=True))
    imported = group_archive.group_import(owner=rich_group.owner, data=data)
    assert imported.group.name == f"{rich_group.name} (2)"
    assert imported.renamed_from == rich_group.name
    assert verify.fingerprint_of(imported.group) == verify.fingerprint_of(rich_group)
    assert gzip.decompress(archive.archive_bytes(rich_group, compress=True))
