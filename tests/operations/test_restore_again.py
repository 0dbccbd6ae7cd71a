"""What a restore says and leaves behind when it cannot simply agree: a failed check empties
the target so the same command can run again, and migrations that re-chain the books are
named with every fingerprint they changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tests.operations import ledger
from tests.operations.conftest import ok, run
from tests.operations.test_backup_restore import (
    backup_here,
    fingerprints,
    manifest_of,
    rewritten,
    tables_with_rows,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failed_restore_empties_its_target_and_runs_again(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    book = next(b for b in manifest_of(file)["books"] if b["entries"])

    def tamper(manifest: dict[str, Any]) -> None:
        for each in manifest["books"]:
            if (each["kind"], each["id"]) == (book["kind"], book["id"]):
                each["fingerprint"] = "7F3K-9QX2"

    edited = rewritten(file, tamper)
    target = scratch()
    for _attempt in range(2):
        result = run(target, "restore", str(edited), "--yes")
        assert result.returncode == 1
        assert "1 book(s) disagree with the backup" in result.stderr
        assert "is empty again: the restore can run again" in result.stderr
        assert "is not empty" not in result.stderr
        assert tables_with_rows(target) == ""
    # The good file then goes into the same database.
    assert "every fingerprint agrees" in ok(target, "restore", str(file), "--yes")


def test_keep_on_failure_keeps_it_and_says_how_to_go_back(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)

    def tamper(manifest: dict[str, Any]) -> None:
        manifest["books"][0]["fingerprint"] = "7F3K-9QX2"

    target = scratch()
    result = run(target, "restore", str(rewritten(file, tamper)), "--yes", "--keep-on-failure")
    assert result.returncode == 1
    how = "dropdb" if connection.vendor == "postgresql" else "rm "
    assert "kept to look into; to run the restore again: " + how in result.stderr
    assert "scoring_game" in tables_with_rows(target)


@pytest.mark.long
def test_after_a_rechaining_migration_restore_names_every_changed_fingerprint(scratch, tmp_path):
    # A site on 0015, whose hashes the chain of 0016 computes otherwise: the ledger is built,
    # taken back to 0015, and its hashes made those of another chain.
    older = scratch(copy=True)
    ok(older, "shell", "-c", "from tests.operations import ledger; ledger.build()")
    ok(older, "migrate", "scoring", "0015", "--no-input", "--verbosity", "0")
    ok(older, "shell", "-c", OLD_CHAIN)
    file = tmp_path / "older.tar.gz"
    ok(older, "backup", str(file))
    written = manifest_of(file)["books"]
    # Every sitting of this ledger has entries, so 0016 re-chains each one; a group's
    # fingerprint seals its own head and its sittings' heads, so every group changes too,
    # the one whose own book is empty included.
    sittings = [b for b in written if b["kind"] == "sitting"]
    assert sittings and all(b["entries"] for b in sittings)
    assert any(b["kind"] == "group" and not b["entries"] for b in written)
    books = [b for b in written if b["entries"] or b["kind"] == "group"]
    target = scratch()
    restored = ok(target, "restore", str(file), "--yes")
    assert (
        f"{len(books)} book(s) agreed with the backup as it was written, and their fingerprints "
        "changed since: migration scoring.0016_chain_without_ids re-chains every book"
    ) in restored
    now = dict(line.split(": ") for line in fingerprints(target))
    for book in books:
        key = f"{book['kind']} {book['id']}"
        assert f"{key} ({book['name']}): {book['fingerprint']} in the backup, {now[key]} now" in (
            restored
        )
    assert "every fingerprint agrees with the backup (after the changes named above)" in restored


# Every entry's hash replaced by another chain over the same rows (as 0015's code wrote them).
OLD_CHAIN = """
import hashlib
from django.db import connection
with connection.cursor() as c:
    for table, key in (
        ("scoring_historyentry", "sitting_id"),
        ("scoring_grouphistoryentry", "group_id"),
    ):
        c.execute(f"SELECT id, {key}, hash FROM {table} ORDER BY id")
        last = {}
        for pk, book, old in c.fetchall():
            new = hashlib.sha256((last.get(book, "") + "old" + old).encode()).hexdigest()
            last[book] = new
            c.execute(f"UPDATE {table} SET hash = %s WHERE id = %s", [new, pk])
"""
