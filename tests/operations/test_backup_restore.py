"""``manage.py backup`` and ``restore``: the restore drill of docs/operations.md, on whichever
database ``DATABASE_URL`` names (CI runs it on PostgreSQL and on SQLite).

A ledger with every kind of write is backed up, restored into a new empty database, and every
book comes back with the same fingerprint and passes its check; a backup taken while a
scorekeeper keeps saving restores to whole games only; and each refusal leaves the target as
it was.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from scoring.management import backups
from scoring.models import Game
from tests.operations import ledger
from tests.operations.conftest import ok, run
from tests.reliability.realserver import ROOT, database_url_for_test, server_env

#: The app's migrations in order, as this code knows them (the last is what a backup records).
MIGRATIONS = [
    name
    for app, name in MigrationLoader(None, ignore_no_migrations=True).graph.forwards_plan(
        MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes("scoring")[0]
    )
    if app == "scoring"
]

pytestmark = pytest.mark.django_db(transaction=True)


def fingerprints(url: str) -> list[str]:
    """``verify_ledger --all -v 2``: every book's fingerprint, recomputed, one per line."""
    return ok(url, "verify_ledger", "--all", "--verbosity", "2").splitlines()


def backup_here(path: Path) -> str:
    """``manage.py backup`` in this process, on the test database."""
    out = io.StringIO()
    call_command("backup", str(path), stdout=out)
    return out.getvalue()


def manifest_of(path: Path) -> dict[str, Any]:
    with tarfile.open(path) as tar:
        member = tar.extractfile(backups.MANIFEST)
        assert member is not None
        return dict(json.load(member))


def rewritten(
    path: Path,
    change: Callable[[dict[str, Any]], None] = lambda manifest: None,
    rename: dict[str, str] | None = None,
    alter: Callable[[bytes], bytes] | None = None,
    rehash: bool = True,
) -> Path:
    """A copy of a backup file whose manifest ``change`` edited by hand, whose members
    ``rename`` renamed and whose database ``alter`` changed; with ``rehash`` the manifest's
    sizes and SHA-256 follow, as a forger holding the file would write them."""
    copy = path.with_name(f"edited-{path.name}")
    with tarfile.open(path, "r:gz") as old:
        members = [(m, old.extractfile(m).read()) for m in old.getmembers()]  # type: ignore[union-attr]
    manifest = json.loads(next(data for m, data in members if m.name == backups.MANIFEST))
    renamed = {}
    for member, data in members:
        if member.name == backups.MANIFEST:
            continue
        if alter is not None:
            data = alter(data)
        name = (rename or {}).get(member.name, member.name)
        renamed[name] = (member, data)
        digest = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        written = manifest["members"].pop(member.name, None)
        manifest["members"][name] = digest if rehash else written
    change(manifest)
    with tarfile.open(copy, "w:gz") as new:
        text = json.dumps(manifest).encode()
        info = tarfile.TarInfo(backups.MANIFEST)
        info.size = len(text)
        new.addfile(info, io.BytesIO(text))
        for name, (member, data) in renamed.items():
            member.name, member.size = name, len(data)
            new.addfile(member, io.BytesIO(data))
    return copy


def tables_with_rows(url: str) -> str:
    return ok(url, "shell", "--verbosity", "0", "-c", SHOW_ROWS)


SHOW_ROWS = """
from django.db import connection
with connection.cursor() as c:
    for t in sorted(connection.introspection.table_names(c)):
        c.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(t)}")
        print(t, c.fetchone()[0])
"""


@pytest.mark.long
def test_the_restore_drill_brings_every_book_back(scratch, tmp_path):
    ids = ledger.build()
    url = database_url_for_test(tmp_path) if connection.vendor == "postgresql" else None
    file = tmp_path / "drill.tar.gz"
    said = backup_here(file)
    assert said.startswith(f"{file}: 8 books (6 sittings, 2 groups)")
    manifest = manifest_of(file)
    assert manifest["vendor"] == connection.vendor
    assert manifest["migrations"]["scoring"] == MIGRATIONS[-1]
    assert manifest["created_at"].endswith("+00:00")
    # A group's fingerprint is its seal's (sittings and players too), so even a group whose
    # own book is empty has one; only an empty sitting shows "—".
    groups = [b for b in manifest["books"] if b["kind"] == "group"]
    assert any(not b["entries"] for b in groups)
    assert all(b["fingerprint"] != "—" for b in groups)

    target = scratch()
    restored = ok(target, "restore", str(file), "--yes")
    assert "8 books: every fingerprint agrees with the backup" in restored
    # Every book recomputed from its rows on the restored database, as the backup recorded it.
    recomputed = fingerprints(target)
    recorded = [f"{b['kind']} {b['id']}: {b['fingerprint']}" for b in manifest["books"]]
    assert sorted(recomputed) == sorted(recorded)
    if url is not None:
        assert recomputed == fingerprints(url)
    # The standing ledger of the group and a sitting's export read the same off both.
    group = ok(target, "export_group", str(ids["group"]))
    sitting = ok(target, "export_session", str(ids["sitting"]))
    out = io.StringIO()
    call_command("export_group", str(ids["group"]), stdout=out)
    assert json.loads(group) == json.loads(out.getvalue())
    out = io.StringIO()
    call_command("export_session", str(ids["sitting"]), stdout=out)
    assert json.loads(sitting) == json.loads(out.getvalue())


@pytest.mark.long
def test_a_backup_taken_while_saving_restores_whole_games(scratch, tmp_path):
    source = database_url_for_test(tmp_path)
    stop = tmp_path / "stop"
    count = Path(f"{stop}.count")
    saver = subprocess.Popen(
        [sys.executable, "-m", "tests.operations.ledger", "save", str(stop)],
        cwd=ROOT, env=server_env(source), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:

        def saved() -> int:
            return int(count.read_text() or 0) if count.exists() else 0

        deadline = time.monotonic() + 120
        while saved() < 3 and saver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert saved() >= 3, saver.stderr.read() if saver.poll() is not None else "too slow"
        file = tmp_path / "busy.tar.gz"
        ok(source, "backup", str(file))
        after = saved()
        while saved() == after and saver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.touch()
        out, err = saver.communicate(timeout=120)
    assert saver.returncode == 0, err
    total = json.loads(out)["saved"]
    sitting = Path(f"{stop}.sitting").read_text()

    target = scratch()
    assert "every fingerprint agrees" in ok(target, "restore", str(file), "--yes")
    audit = json.loads(ok(target, "audit", sitting, module="tests.reliability.dbtool"))
    # Every game restored has its seats, payments and history entry, as the engine prices it.
    assert audit["problems"] == []
    kept = len(audit["games"])
    assert 3 <= kept < total
    assert [g["number"] for g in audit["games"]] == list(range(1, kept + 1))
    assert audit["history"] == kept + 1  # the sitting's opening, and one entry per game


def test_a_database_with_rows_is_refused_and_left_alone(tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    ledger.build()
    before = Game.objects.count()
    with pytest.raises(CommandError, match=r"is not empty \(table scoring_\w+ has rows\)"):
        call_command("restore", str(file), yes=True)
    assert Game.objects.count() == before > 0


def test_without_yes_nothing_is_restored(scratch, tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    target = scratch()
    refused = run(target, "restore", str(file))
    assert refused.returncode == 1
    assert "run again with --yes" in refused.stderr
    assert tables_with_rows(target) == ""


def test_a_tampered_fingerprint_is_named(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    group = next(b for b in manifest_of(file)["books"] if b["kind"] == "group" and b["entries"])

    def tamper(manifest: dict[str, Any]) -> None:
        for book in manifest["books"]:
            if book["kind"] == "group" and book["id"] == group["id"]:
                book["fingerprint"] = "7F3K-9QX2"

    result = run(scratch(), "restore", str(rewritten(file, tamper)), "--yes")
    assert result.returncode == 1
    assert f"group {group['id']} (Nhóm tối thứ Hai): fingerprint 7F3K-9QX2 in the backup" in (
        result.stderr
    )
    assert f"{group['fingerprint']} here" in result.stderr
    assert "1 book(s) disagree" in result.stderr


def test_a_book_missing_or_new_is_named(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    first = next(b for b in manifest_of(file)["books"] if b["kind"] == "sitting")
    lost = {"kind": "sitting", "id": 999_999, "name": "Bàn mất", "head": "ab" * 32,
            "entries": 3, "fingerprint": "NB5A-VAXB"}  # fmt: skip

    def swap(manifest: dict[str, Any]) -> None:
        manifest["books"] = [b for b in manifest["books"] if b != first] + [lost]

    result = run(scratch(), "restore", str(rewritten(file, swap)), "--yes")
    assert result.returncode == 1
    assert "sitting 999999 (Bàn mất): in the backup (NB5A-VAXB), missing here" in result.stderr
    assert (
        f"sitting {first['id']} ({first['name']}): here ({first['fingerprint']}), not in the backup"
    ) in result.stderr


def test_a_file_from_newer_code_is_refused_naming_its_migration(scratch, tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)

    def newer(manifest: dict[str, Any]) -> None:
        manifest["migrations"]["scoring"] = "0099_from_the_future"
        manifest["version"] = "9.0.0"

    target = scratch()
    result = run(target, "restore", str(rewritten(file, newer)), "--yes")
    assert result.returncode == 1
    assert "its migration scoring.0099_from_the_future is unknown to this version" in result.stderr
    assert tables_with_rows(target) == ""


def test_a_file_of_the_other_database_kind_is_refused(tmp_path):
    if connection.vendor == "postgresql":
        pytest.skip("a SQLite file into PostgreSQL moves the site (test_move.py)")
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    other = "postgresql"
    # The file as the other kind's backup command writes it: its kind, its database's member.
    edited = rewritten(
        file,
        lambda manifest: manifest.update(vendor=other),
        rename={backups.MEMBERS[connection.vendor]: backups.MEMBERS[other]},
    )
    with pytest.raises(CommandError, match=f"is a backup of a {backups.VENDORS[other]} database"):
        call_command("restore", str(edited), yes=True)


@pytest.mark.long
def test_a_file_from_an_older_migration_is_restored_then_migrated(scratch, tmp_path):
    older = scratch(copy=True)
    ok(older, "migrate", "scoring", "0013", "--no-input", "--verbosity", "0")
    file = tmp_path / "older.tar.gz"
    ok(older, "backup", str(file))
    assert manifest_of(file)["migrations"]["scoring"] == "0013_history_chain"
    target = scratch()
    restored = ok(target, "restore", str(file), "--yes")
    newer = MIGRATIONS[MIGRATIONS.index("0013_history_chain") + 1 :]
    names = ", ".join(f"scoring.{name}" for name in newer)
    assert f"applying {len(newer)} migration(s) newer than the file: {names}" in restored
    assert f"[X] {MIGRATIONS[-1]}" in ok(target, "showmigrations", "scoring")


def test_unwritable_path_and_missing_pg_dump_leave_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(CommandError, match="cannot write in"):
        call_command("backup", str(blocker / "b.tar.gz"))
    if connection.vendor == "postgresql":
        monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
        with pytest.raises(CommandError, match="pg_dump was not found on PATH"):
            call_command("backup", str(tmp_path / "b.tar.gz"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_an_older_file_of_the_same_name_survives_a_failed_backup(tmp_path, monkeypatch):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    kept = file.read_bytes()

    def broken(_cursor: Any) -> backups.Snapshot:
        raise backups.BackupError("the snapshot failed")

    monkeypatch.setattr(backups, "snapshot", broken)
    with pytest.raises(CommandError, match="the snapshot failed"):
        call_command("backup", str(file))
    assert file.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.tar.gz"]


def test_into_a_folder_keeps_the_newest_dated_files_only(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    old = ["tienlen-20261101T030000Z.tar.gz", "tienlen-20261102T030000Z.tar.gz"]
    for name in [*old, "tienlen-20261103T030000Z.tar.gz", "notes.txt", "tienlen-manual.tar.gz"]:
        (folder / name).write_text("")
    out = io.StringIO()
    call_command("backup", into=str(folder), keep=2, stdout=out)
    left = sorted(p.name for p in folder.iterdir())
    dated = [name for name in left if backups.DATED.match(name)]
    assert dated[0] == "tienlen-20261103T030000Z.tar.gz"
    assert len(dated) == 2 and dated[1] > "tienlen-20261203"
    assert {"notes.txt", "tienlen-manual.tar.gz"} <= set(left)
    assert all(f"deleted {folder / name}" in out.getvalue() for name in old)


def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not a tar at all")
    with pytest.raises(CommandError, match="is not a backup of this site"):
        call_command("restore", str(junk), yes=True)
    with pytest.raises(CommandError, match="no such file"):
        call_command("restore", str(tmp_path / "missing.tar.gz"), yes=True)


@pytest.mark.parametrize(
    "url", ["sqlite:////nonexistent-folder/ledger.sqlite3", "postgres://postgres@127.0.0.1:9/no"]
)
def test_a_database_that_cannot_be_opened_is_one_line(url, tmp_path):
    result = run(url, "backup", str(tmp_path / "b.tar.gz"))
    assert result.returncode == 1
    assert result.stderr.startswith("CommandError: the database could not be read: ")
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_retention_keeps_days_weeks_and_months_besides_the_newest(tmp_path):
    from datetime import UTC, datetime, timedelta

    folder = tmp_path / "backups"
    folder.mkdir()
    start = datetime(2025, 1, 1, 3, 17, tzinfo=UTC)
    names = [backups.dated_name(start + timedelta(days=n)) for n in range(400)]
    for name in names:
        (folder / name).write_text("")
    (folder / "notes.txt").write_text("")
    backups.prune(folder, backups.Retention(keep=3, daily=7, weekly=5, monthly=12))
    left = sorted(p.name for p in folder.iterdir() if backups.DATED.match(p.name))
    # The newest 7 days (the newest 3 among them), then the newest of 5 ISO weeks, then of 12
    # months: the last backup of each month before, back a year.
    assert left[-7:] == names[-7:]
    months = {name[8:14] for name in left}
    assert len(months) == 12
    assert "tienlen-20250131T031700Z.tar.gz" not in left
    # The last is 2026-02-04 (a Wednesday). Weeks: Feb 1, Jan 25, 18, 11 (Feb 1 among the days);
    # months: Jan 31 (among the days), then the last day of each month back to March 2025.
    weeks = ["20260111", "20260118", "20260125"]
    ends = ["20250331", "20250430", "20250531", "20250630", "20250731", "20250831", "20250930",
            "20251031", "20251130", "20251231"]  # fmt: skip
    assert left == sorted([*names[-7:], *(f"tienlen-{d}T031700Z.tar.gz" for d in weeks + ends)])
    assert (folder / "notes.txt").exists()
