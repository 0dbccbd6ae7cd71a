"""A backup proves itself before anything is restored (``backups.opened``): its gzip stream is
read to the end and every member checked against the size and SHA-256 its manifest records.
Each damage is named, and the target database is left untouched; ``backup --check`` says the
same without any database."""

from __future__ import annotations

import gzip
import io
import json
import resource
import signal
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring.engine import chain
from scoring.management import backups
from tests.operations import ledger
from tests.operations.conftest import ok, run
from tests.operations.test_backup_restore import (
    backup_here,
    manifest_of,
    rewritten,
    tables_with_rows,
)
from tests.reliability.realserver import ROOT, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def refused(target: str, file: Path) -> str:
    """``restore FILE --yes`` into ``target``, refused: its stderr (the target still empty)."""
    result = run(target, "restore", str(file), "--yes")
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    assert tables_with_rows(target) == ""
    checked = run(target, "backup", "--check", str(file))
    assert checked.returncode == 1
    assert checked.stderr == result.stderr
    return result.stderr


def test_a_whole_backup_records_and_passes_its_checksums(tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    manifest = manifest_of(file)
    member = backups.MEMBERS[connection.vendor]
    with tarfile.open(file) as tar:
        data = tar.extractfile(member).read()  # type: ignore[union-attr]
    assert manifest["members"][member]["size"] == len(data)
    assert manifest["format_version"] == 2
    out = io.StringIO()
    call_command("backup", check=str(file), stdout=out)
    assert f"{file}: whole: its gzip stream, and {member} ({len(data)} bytes)" in out.getvalue()


def test_a_broken_gzip_trailer_is_refused(scratch, tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    raw = bytearray(file.read_bytes())
    raw[-6] ^= 0xFF  # the CRC-32 of the gzip trailer; the tar inside reads whole
    broken = tmp_path / "trailer.tar.gz"
    broken.write_bytes(bytes(raw))
    with pytest.raises(gzip.BadGzipFile):
        gzip.decompress(bytes(raw))
    said = refused(scratch(), broken)
    assert "is damaged: its gzip stream fails its own check" in said


def test_a_truncated_file_says_truncated(scratch, tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    said = refused(scratch(), cut)
    assert f"{cut} is truncated: its gzip stream stops before its end" in said
    assert "not a backup of this site" not in said


def test_a_flipped_byte_in_the_dump_is_refused(scratch, tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)

    def flip(data: bytes) -> bytes:
        middle = len(data) // 2
        return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]

    # A new gzip stream around the changed byte: only the manifest's SHA-256 can see it.
    said = refused(scratch(), rewritten(file, alter=flip, rehash=False))
    member = backups.MEMBERS[connection.vendor]
    assert f"is damaged or was changed: its {member} is" in said
    assert "its manifest.json says" in said


def test_a_dump_with_a_rehashed_history_and_matching_heads_is_refused(scratch, tmp_path):
    """Someone rewrote the books and the manifest's heads to match: the dump's checksum is
    the manifest's no more. (One who rewrites that too is caught only by the fingerprints the
    players noted: docs/operations.md.)"""
    first = tmp_path / "first.tar.gz"
    backup_here(first)
    ledger.build()
    later = tmp_path / "later.tar.gz"
    backup_here(later)
    member = backups.MEMBERS[connection.vendor]
    with tarfile.open(later) as tar:
        other_dump = tar.extractfile(member).read()  # type: ignore[union-attr]
    books = manifest_of(later)["books"]

    def heads(manifest: dict[str, Any]) -> None:
        manifest["books"] = books

    forged = rewritten(first, heads, alter=lambda _data: other_dump, rehash=False)
    said = refused(scratch(), forged)
    assert f"its {member} is {len(other_dump)} bytes" in said


def test_a_manifest_without_checksums_is_refused(tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    stripped = rewritten(file, lambda manifest: manifest.pop("members"))
    with pytest.raises(CommandError, match=r"its manifest\.json is incomplete or damaged"):
        call_command("backup", check=str(stripped))


def test_an_older_format_without_checksums_restores_and_says_so(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)

    def older(manifest: dict[str, Any]) -> None:
        manifest.pop("members")
        manifest.pop("commit")
        manifest["format_version"] = 1
        # Format 1 was written while a group's fingerprint was its own history's head alone.
        for book in manifest["books"]:
            if book["kind"] == "group":
                book["fingerprint"] = chain.fingerprint(book["head"])
        assert any(book["kind"] == "group" for book in manifest["books"])

    restored = ok(scratch(), "restore", str(rewritten(file, older)), "--yes")
    assert "before backups carried checksums: only its gzip stream could be checked" in restored
    assert "every fingerprint agrees with the backup" in restored


def test_no_room_in_tmpdir_says_so_not_that_the_file_is_unreadable(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    size = manifest_of(file)["members"][backups.MEMBERS[connection.vendor]]["size"]
    unpack = tmp_path / "tmp"
    unpack.mkdir()
    target = scratch()

    def small_files() -> None:  # the unpacked database may not grow past half its size
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size // 2, size // 2))

    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(file), "--yes"],
        cwd=ROOT, env=server_env(target, TMPDIR=str(unpack)), capture_output=True, text=True,
        preexec_fn=small_files, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert f"no room to unpack it in {unpack} ($TMPDIR)" in result.stderr
    assert f"about {size / 2**20:.1f} MiB free there" in result.stderr
    assert "cannot read" not in result.stderr
    assert list(unpack.iterdir()) == []


def test_the_manifest_names_the_version_and_commit(tmp_path):
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    manifest = manifest_of(file)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip()  # fmt: skip
    if head:
        assert manifest["commit"].removesuffix("+changes") == head
    from importlib import metadata

    assert manifest["version"] == metadata.version("so-tien-len")


def test_two_backups_in_the_same_second_get_two_names(tmp_path):
    from datetime import UTC, datetime

    at = datetime(2026, 12, 3, 3, 17, tzinfo=UTC)
    first = backups.write(tmp_path, at=at, into=tmp_path)
    second = backups.write(tmp_path, at=at, into=tmp_path)
    assert first.name == "tienlen-20261203T031700Z.tar.gz"
    assert second.name == "tienlen-20261203T031700Z-2.tar.gz"
    assert json.loads(json.dumps(backups.read_manifest(second)))["created_at"] == at.isoformat()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])
