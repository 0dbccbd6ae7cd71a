"""Backup files of the whole database, and putting one back (``manage.py backup`` / ``restore``).

A backup is one gzipped tar holding ``manifest.json`` and the database: ``database.dump``
(``pg_dump --format=custom``) or ``database.sqlite3`` (a copy through SQLite's online backup
API). Both are taken while the site serves, from one consistent snapshot, and the manifest's
list of books (every sitting's and every group's history chain: its head hash, fingerprint and
length) is read from that same snapshot, so a restore can show that every book came back as it
was. The manifest also holds the size and SHA-256 of the database member: a file is read whole,
its gzip stream to the end (its CRC-32 and length), and every member against the manifest before
anything is restored (``opened``). See docs/operations.md.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import itertools
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DatabaseError, connection, connections, transaction
from django.db.migrations.loader import MigrationLoader

from scoring.engine import chain
from scoring.ledger import verify
from scoring.models import Group, GroupHistoryEntry, HistoryEntry, Membership, Player, Sitting

FORMAT = "so-tien-len-backup"
FORMAT_VERSION = 2
# Format 1 (before 2026-12) had no checksums: still read, its gzip stream checked, and said so.
READABLE_FORMATS = (1, 2)
MANIFEST = "manifest.json"
# The database's member of the tar, by vendor.
MEMBERS = {"postgresql": "database.dump", "sqlite": "database.sqlite3"}
VENDORS = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}

# ``make backup``'s files: what ``--keep`` may delete, and nothing else.
# Two in the same second get -2, -3… (``_link_new``).
DATED = re.compile(r"^tienlen-(\d{8}T\d{6}Z)(?:-(\d+))?\.tar\.gz$")

# OPTIONS of a PostgreSQL DATABASES entry that are Django's or psycopg's, not libpq's.
_NOT_LIBPQ = {
    "pool",
    "server_side_binding",
    "isolation_level",
    "assume_role",
    "prepare_threshold",
    "cursor_factory",
}


class BackupError(Exception):
    """A problem the operator can act on, in one line; nothing was written or restored."""


@dataclass(frozen=True)
class Book:
    """One history chain as a snapshot holds it."""

    kind: str  # "sitting" or "group"
    id: int
    name: str
    head: str
    entries: int
    # A sitting's: its head's short form; a group's: its seal's (docs/ledger-check.md), the
    # one ``verify_ledger`` and the pages show (``verify.covers_of``).
    fingerprint: str

    @property
    def label(self) -> str:
        return f"{self.kind} {self.id} ({self.name})"


@dataclass(frozen=True)
class Snapshot:
    """What the manifest records of the database: its migrations and its books."""

    migrations: dict[str, str]
    books: list[Book]


# --- Reading a snapshot through any DB-API cursor ---------------------------------------


def _books_sql(book: type[Sitting] | type[Group], history: type[Any]) -> str:
    q = connection.ops.quote_name
    table, entries = q(book._meta.db_table), q(history._meta.db_table)
    key = q(history._meta.get_field(history.chain_of).column)
    return (
        f"SELECT b.id, b.name, "
        f"COALESCE((SELECT e.hash FROM {entries} e WHERE e.{key} = b.id "
        f"ORDER BY e.id DESC LIMIT 1), ''), "
        f"(SELECT COUNT(*) FROM {entries} e WHERE e.{key} = b.id) "
        f"FROM {table} b ORDER BY b.id"
    )


def _day(value: Any) -> str:
    """A date column as ISO text (SQLite's plain cursor reads text, psycopg a ``date``)."""
    return value if isinstance(value, str) else str(value.isoformat())


def _moment(value: Any) -> datetime:
    """A datetime column, aware (SQLite's plain cursor reads UTC text without a zone)."""
    at = datetime.fromisoformat(value) if isinstance(value, str) else value
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _group_fingerprints(
    cursor: Any, heads: dict[str, dict[int, tuple[str, str, int]]]
) -> dict[int, str]:
    """Every group's fingerprint, from the seal over what it covers (``verify.covers_of``, the
    function ``verify_ledger`` uses), read in plain SQL through ``cursor``."""
    q = connection.ops.quote_name
    sitting, player = q(Sitting._meta.db_table), q(Player._meta.db_table)
    membership = q(Membership._meta.db_table)
    cursor.execute(f"SELECT id, group_id, name, date FROM {sitting} ORDER BY id")
    sittings: dict[int, list[tuple[str, str, str]]] = {}
    for pk, group, name, day in cursor.fetchall():
        head = heads["sitting"].get(int(pk), ("", "", 0))[1]
        sittings.setdefault(int(group), []).append((str(name), _day(day), head))
    cursor.execute(
        f"SELECT id, group_id, name, created_at, merged_into_id, bank_bin, bank_account, "
        f"bank_holder FROM {player} ORDER BY id"
    )
    players = {
        int(pk): (int(group), (int(pk), str(name), _moment(at), merged, bin_, account, holder))
        for pk, group, name, at, merged, bin_, account, holder in cursor.fetchall()
    }
    cursor.execute(
        f"SELECT DISTINCT m.player_id, s.group_id FROM {membership} m "
        f"JOIN {sitting} s ON s.id = m.sitting_id"
    )
    members: dict[int, set[int]] = {}
    for pk, (group, _row) in players.items():
        members.setdefault(group, set()).add(pk)
    for pk, group in cursor.fetchall():
        members.setdefault(int(group), set()).add(int(pk))
    return {
        pk: verify.group_fingerprint(
            verify.covers_of(
                head,
                sittings.get(pk, []),
                [players[p][1] for p in sorted(members.get(pk, set())) if p in players],
            )
        )
        for pk, (_name, head, _count) in heads["group"].items()
    }


def snapshot(cursor: Any) -> Snapshot:
    """The last applied migration of each app and every book's head, read with ``cursor``
    (Django's, or a plain ``sqlite3`` one on a copy): plain SQL that both databases speak."""
    cursor.execute("SELECT app, name FROM django_migrations")
    applied: dict[str, list[str]] = {}
    for app, name in cursor.fetchall():
        applied.setdefault(app, []).append(name)
    heads: dict[str, dict[int, tuple[str, str, int]]] = {}
    for kind, model, history in (
        ("sitting", Sitting, HistoryEntry),
        ("group", Group, GroupHistoryEntry),
    ):
        cursor.execute(_books_sql(model, history))
        heads[kind] = {
            int(pk): (str(name), str(head), int(count))
            for pk, name, head, count in cursor.fetchall()
        }
    books = [
        Book("sitting", pk, name, head, count, chain.fingerprint(head))
        for pk, (name, head, count) in heads["sitting"].items()
    ]
    seals = _group_fingerprints(cursor, heads)
    books += [
        Book("group", pk, name, head, count, seals[pk])
        for pk, (name, head, count) in heads["group"].items()
    ]
    # Django numbers an app's migrations, so its last applied one sorts last.
    return Snapshot({app: max(names) for app, names in sorted(applied.items())}, books)


def project_version() -> str:
    try:
        return metadata.version("so-tien-len")
    except metadata.PackageNotFoundError:  # a checkout run without being installed
        with open(Path(settings.BASE_DIR) / "pyproject.toml", "rb") as file:
            return str(tomllib.load(file)["project"]["version"])


def project_commit() -> str | None:
    """The git commit the code runs from (with ``+changes`` when files differ from it), or
    None outside a git checkout: the version alone stays the same between releases."""
    git = shutil.which("git")
    if git is None:
        return None
    base = str(settings.BASE_DIR)
    try:
        asked = {"capture_output": True, "text": True, "timeout": 30, "check": False}
        head = subprocess.run([git, "-C", base, "rev-parse", "HEAD"], **asked)  # type: ignore[call-overload]
        if head.returncode != 0:
            return None
        status = [git, "-C", base, "status", "--porcelain", "--untracked-files=no"]
        changed = subprocess.run(status, **asked)  # type: ignore[call-overload]
    except (OSError, subprocess.SubprocessError):
        return None
    return str(head.stdout).strip() + ("+changes" if str(changed.stdout).strip() else "")


def code_label(data: dict[str, Any]) -> str:
    """A manifest's (or this code's) version, with its commit when known: ``0.1.0 (3f2a…)``."""
    commit = data.get("commit")
    return f"{data.get('version')}" + (f" (commit {str(commit)[:12]})" if commit else "")


def manifest(
    vendor: str, taken: Snapshot, at: datetime, members: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "version": project_version(),
        "commit": project_commit(),
        "vendor": vendor,
        "created_at": at.astimezone(UTC).isoformat(),
        "migrations": taken.migrations,
        "members": members,
        "books": [asdict(book) for book in taken.books],
    }


def _digest(path: Path) -> dict[str, Any]:
    sha = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(1 << 20):
            sha.update(chunk)
    return {"size": path.stat().st_size, "sha256": sha.hexdigest()}


# --- PostgreSQL's programs ----------------------------------------------------------------


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} was not found on PATH: install the PostgreSQL client programs of the "
            f"server's major version or newer (Debian: apt install postgresql-client)"
        )
    return found


def _libpq() -> tuple[str, dict[str, str]]:
    """The connection of ``DATABASES['default']`` for pg_dump and pg_restore: a conninfo
    string without the password, and an environment with it (``PGPASSWORD``), so it never
    shows on a command line."""
    from psycopg.conninfo import make_conninfo

    s = connection.settings_dict
    options = {
        key: str(value)
        for key, value in (s.get("OPTIONS") or {}).items()
        if key not in _NOT_LIBPQ and isinstance(value, str | int) and key != "password"
    }
    params = {
        "host": str(s.get("HOST") or ""),
        "port": str(s.get("PORT") or ""),
        "user": str(s.get("USER") or ""),
        "dbname": str(s["NAME"]),
        **options,
    }
    env = dict(os.environ)
    if s.get("PASSWORD"):
        env["PGPASSWORD"] = str(s["PASSWORD"])
    return make_conninfo("", **{k: v for k, v in params.items() if v}), env


def _run(args: list[str], env: dict[str, str], what: str = "") -> None:
    """Run a program; its failure is a ``BackupError`` ending with its last lines of stderr."""
    result = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        said = " / ".join(lines[-3:]) or f"exit status {result.returncode}"
        raise BackupError(f"{what or Path(args[0]).name} failed: {said}")


def _dump_postgresql(out: Path) -> Snapshot:
    """``pg_dump`` of the snapshot a REPEATABLE READ transaction exports, the manifest's books
    read in that transaction: both see the same committed saves, and none after."""
    program = _program("pg_dump")
    conninfo, env = _libpq()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor.execute("SELECT pg_export_snapshot()")
        exported = cursor.fetchone()[0]
        taken = snapshot(cursor)
        # The transaction stays open (and its snapshot importable) until pg_dump is done.
        _run(
            [program, "--format=custom", f"--snapshot={exported}", "--file", str(out),
             "--dbname", conninfo],
            env,
        )  # fmt: skip
    return taken


def _copy_sqlite(out: Path) -> Snapshot:
    """A copy through SQLite's online backup API, in one step (one read transaction: saves go
    on meanwhile, into the write-ahead log, and are not in the copy); its books are read from
    the copy itself."""
    connection.ensure_connection()
    source = connection.connection
    copy = sqlite3.connect(out)
    try:
        source.backup(copy)
        # One self-contained file: no write-ahead log beside it.
        copy.execute("PRAGMA journal_mode=DELETE")
        return snapshot(copy.cursor())
    finally:
        copy.close()


# --- Writing a backup -------------------------------------------------------------------


def dated_name(at: datetime, number: int = 1) -> str:
    suffix = f"-{number}" if number > 1 else ""
    return f"tienlen-{at.astimezone(UTC):%Y%m%dT%H%M%SZ}{suffix}.tar.gz"


def write(path: Path, *, at: datetime | None = None, into: Path | None = None) -> Path:
    """Write a backup of the configured database to ``path`` (or, with ``into``, to a new dated
    name in that folder); the file written. Its manifest: :func:`read_manifest`.

    Built in a temporary folder beside the target and put in place whole: on any error nothing
    is left behind and an older file of that name is untouched. A dated name is taken with a
    hard link, which fails when the name exists: two backups in the same second get two names
    (``-2``), never one file both report."""
    vendor = connection.vendor
    if vendor not in MEMBERS:
        raise BackupError(f"backups of a {vendor} database are not supported")
    at = at or datetime.now(UTC)
    if into is not None:
        path = into / dated_name(at)
    if path.is_dir():
        raise BackupError(f"{path} is a folder: give the name of the file to write")
    try:
        # Beside the target: on the same disk, so the final rename is atomic.
        scratch = tempfile.TemporaryDirectory(
            prefix=f".{path.name}.", suffix=".partial", dir=path.parent, ignore_cleanup_errors=True
        )
    except OSError as error:
        raise BackupError(f"cannot write in {path.parent}: {error.strerror}") from error
    with scratch as name:
        folder = Path(name)
        database = folder / MEMBERS[vendor]
        taken = _dump_postgresql(database) if vendor == "postgresql" else _copy_sqlite(database)
        data = manifest(vendor, taken, at, {MEMBERS[vendor]: _digest(database)})
        packed = folder / "backup.tar.gz"
        try:
            with tarfile.open(packed, "w:gz") as tar:
                text = json.dumps(data, ensure_ascii=False, indent=2).encode()
                info = tarfile.TarInfo(MANIFEST)
                info.size, info.mtime, info.mode = len(text), int(at.timestamp()), 0o600
                tar.addfile(info, io.BytesIO(text))
                tar.add(database, arcname=MEMBERS[vendor])
            with open(packed, "rb") as file:
                os.fsync(file.fileno())
            os.chmod(packed, 0o600)  # the whole ledger, users' password hashes included
            if into is None:
                os.replace(packed, path)
            else:
                path = _link_new(packed, into, at)
        except OSError as error:
            raise BackupError(f"cannot write {path}: {error.strerror or error}") from error
    return path


def _link_new(packed: Path, folder: Path, at: datetime) -> Path:
    for number in range(1, 1000):
        path = folder / dated_name(at, number)
        try:
            os.link(packed, path)
        except FileExistsError:
            continue
        return path
    raise BackupError(f"{folder} holds 999 backups of {at:%Y-%m-%d %H:%M:%S}: none written")


@dataclass(frozen=True)
class Retention:
    """What ``prune`` keeps: the newest ``keep`` files, and besides them the newest file of
    each of the last ``daily`` days, ``weekly`` ISO weeks and ``monthly`` months that have
    one (UTC, from the name): the old months stay reachable when a tampered book must be
    traced back to when it changed."""

    keep: int
    daily: int = 0
    weekly: int = 0
    monthly: int = 0


def _dated(path: Path) -> tuple[datetime, int] | None:
    found = DATED.match(path.name)
    if found is None or not path.is_file():
        return None
    at = datetime.strptime(found.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    return at, int(found.group(2) or 1)


def prune(folder: Path, rule: Retention) -> list[Path]:
    """Delete ``make backup``'s dated files in ``folder`` that ``rule`` does not keep (nothing
    else there is touched); the files deleted, oldest first."""
    dated = sorted(((key, p) for p in folder.iterdir() if (key := _dated(p))), reverse=True)
    kept = {p for _key, p in dated[: rule.keep]}
    for count, period in (
        (rule.daily, lambda at: at.date()),
        (rule.weekly, lambda at: at.isocalendar()[:2]),
        (rule.monthly, lambda at: (at.year, at.month)),
    ):
        seen: list[object] = []
        for (at, _number), p in dated:  # newest first: the first of each period is its newest
            if period(at) not in seen and len(seen) < count:
                seen.append(period(at))
                kept.add(p)
    old = [p for _key, p in reversed(dated) if p not in kept]
    for path in old:
        path.unlink()
    return old


# --- Reading a backup -------------------------------------------------------------------


@dataclass
class Backup:
    manifest: dict[str, Any]
    database: Path  # the extracted database file, in a temporary folder
    checksummed: bool  # False: a format 1 file, whose members carry no checksum

    @property
    def books(self) -> list[Book]:
        # Their types were checked when the file was opened (``_check_manifest``).
        return [
            Book(b["kind"], int(b["id"]), b["name"], b["head"], int(b["entries"]), b["fingerprint"])
            for b in self.manifest["books"]
        ]


@contextmanager
def opened(path: Path) -> Iterator[Backup]:
    """A backup file checked whole and its database extracted to a temporary folder (in
    ``$TMPDIR``). The gzip stream is read to its end (its CRC-32 and length checked), every
    member's size and SHA-256 against the manifest; anything wrong is named, and nothing is
    yielded."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        scratch = tempfile.TemporaryDirectory(prefix="tienlen-restore-", ignore_cleanup_errors=True)
    except OSError as error:
        raise _cannot_unpack(path, error) from error
    with scratch as folder:
        yield _unpack(path, Path(folder))


def _cannot_unpack(path: Path, error: OSError, needs: int | None = None) -> BackupError:
    where = f"{tempfile.gettempdir()} ($TMPDIR)"
    said = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        size = f"about {needs / 2**20:.1f} MiB" if needs else "the size of the unpacked database"
        return BackupError(
            f"cannot unpack {path}: no room to unpack it in {where}: {said}. It needs {size} "
            f"free there: free some, or set TMPDIR to a folder with room"
        )
    return BackupError(f"cannot unpack {path}: cannot write in {where}: {said}")


def _unpack(path: Path, folder: Path) -> Backup:
    size = path.stat().st_size
    data: Any = None
    got: dict[str, dict[str, Any]] = {}
    try:
        with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
            try:
                with tarfile.open(fileobj=stream, mode="r|") as tar:
                    for member in tar:
                        if not member.isfile():
                            continue
                        source = tar.extractfile(member)
                        assert source is not None
                        if member.name == MANIFEST:
                            text = source.read()
                            got[MANIFEST] = {"size": len(text)}
                            data = json.loads(text)
                            _check_manifest(path, data)
                            continue
                        if member.name not in MEMBERS.values():
                            raise BackupError(f"{path} holds {member.name}, which no backup has")
                        got[member.name] = _extract(path, source, folder / member.name, data)
            except tarfile.ReadError as error:
                if "empty file" in str(error):
                    raise BackupError(f"{path} is empty") from error
                raise
            # The tar ends before the gzip stream does: read on to its end, where its CRC-32
            # and length are checked.
            while stream.read(1 << 20):
                pass
    except EOFError as error:
        raise BackupError(
            f"{path} is truncated: its gzip stream stops before its end ({size} bytes on disk)."
            f" Copy the file again from where it was made"
        ) from error
    except gzip.BadGzipFile as error:
        if "Not a gzipped file" in str(error):
            raise BackupError(f"{path} is not a backup of this site (not a gzip file)") from error
        raise BackupError(
            f"{path} is damaged: its gzip stream fails its own check ({error}). Copy the file "
            f"again, or use another backup"
        ) from error
    except (zlib.error, tarfile.TarError) as error:
        raise BackupError(f"{path} is damaged: its data cannot be unpacked ({error})") from error
    except UnicodeDecodeError as error:
        raise BackupError(f"{path}: its {MANIFEST} is not text ({error})") from error
    except json.JSONDecodeError as error:
        raise BackupError(f"{path}: its {MANIFEST} is not JSON ({error})") from error
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error.strerror or error}") from error
    if data is None:
        raise BackupError(f"{path} is not a backup of this site (no {MANIFEST})")
    name = MEMBERS[data["vendor"]]
    if name not in got:
        raise BackupError(f"{path} holds no {name}")
    checksummed = data["format_version"] >= 2
    if checksummed:
        for member, want in data["members"].items():
            have = got.get(member)
            if have is None:
                raise BackupError(f"{path} holds no {member}, which its {MANIFEST} lists")
            if have != want:
                raise BackupError(
                    f"{path} is damaged or was changed: its {member} is {have['size']} bytes "
                    f"with SHA-256 {have['sha256'][:16]}…, its {MANIFEST} says {want['size']} "
                    f"bytes with {want['sha256'][:16]}…"
                )
    return Backup(data, folder / name, checksummed)


def _extract(path: Path, source: Any, target: Path, data: Any) -> dict[str, Any]:
    if data is None:
        raise BackupError(f"{path} is not a backup of this site (no {MANIFEST} first)")
    sha, length = hashlib.sha256(), 0
    needs = (data.get("members") or {}).get(target.name, {}).get("size")
    try:
        if needs and shutil.disk_usage(target.parent).free < needs:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        out = open(target, "wb")  # noqa: SIM115 (its writes and its close are each checked)
    except OSError as error:
        raise _cannot_unpack(path, error, needs) from error
    with out:
        # Only the writes are the copy's: an error reading goes up as the backup's own.
        while chunk := source.read(1 << 20):
            sha.update(chunk)
            length += len(chunk)
            try:
                out.write(chunk)
            except OSError as error:
                raise _cannot_unpack(path, error, needs) from error
        try:
            out.flush()
            os.fsync(out.fileno())
        except OSError as error:
            raise _cannot_unpack(path, error, needs) from error
    return {"size": length, "sha256": sha.hexdigest()}


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of a backup file, the file checked whole (:func:`opened`)."""
    with opened(path) as backup:
        return backup.manifest


def _check_manifest(path: Path, data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path} is not a backup of this site")
    if data.get("format_version") not in READABLE_FORMATS:
        raise BackupError(
            f"{path} is a backup of format {data.get('format_version')!r}; this code reads "
            f"format {FORMAT_VERSION}"
        )
    migrations, books, members = data.get("migrations"), data.get("books"), data.get("members")
    if (
        data.get("vendor") not in MEMBERS
        or not isinstance(migrations, dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in migrations.items())
        or not isinstance(books, list)
        or not all(
            isinstance(b, dict)
            and b.get("kind") in ("sitting", "group")
            and isinstance(b.get("id"), int)
            and all(isinstance(b.get(k), str) for k in ("name", "head", "fingerprint"))
            and isinstance(b.get("entries"), int)
            for b in books
        )
        or (
            data["format_version"] >= 2
            and not (
                isinstance(members, dict)
                and MEMBERS[data["vendor"]] in members
                and all(
                    isinstance(m, dict)
                    and isinstance(m.get("size"), int)
                    and isinstance(m.get("sha256"), str)
                    for m in members.values()
                )
            )
        )
    ):
        raise BackupError(f"{path}: its {MANIFEST} is incomplete or damaged")


# --- Restoring --------------------------------------------------------------------------


def database_label() -> str:
    name = connection.settings_dict["NAME"]
    if connection.vendor == "postgresql":
        host = connection.settings_dict.get("HOST") or "localhost"
        return f"PostgreSQL database {name} on {host}"
    return f"SQLite database {name}"


def moving(backup: Backup) -> bool:
    """A SQLite site's backup going into PostgreSQL (:func:`move`), rather than a restore."""
    return backup.manifest["vendor"] == "sqlite" and connection.vendor == "postgresql"


def refuse_unusable(backup: Backup, path: Path) -> None:
    """Raise unless ``backup`` can go into the configured database: the same vendor (or a
    SQLite file into PostgreSQL), and no migration the code here does not know (a file from
    newer code)."""
    vendor = backup.manifest["vendor"]
    if vendor != connection.vendor and not moving(backup):
        raise BackupError(
            f"{path} is a backup of a {VENDORS[vendor]} database; the configured database "
            f"(DATABASE_URL) is {VENDORS.get(connection.vendor, connection.vendor)}"
        )
    known = MigrationLoader(None, ignore_no_migrations=True).graph.nodes
    here = {"version": project_version(), "commit": project_commit()}
    for app, name in backup.manifest["migrations"].items():
        if (app, name) not in known:
            raise BackupError(
                f"{path} was made by newer code: its migration {app}.{name} is unknown to this "
                f"version ({code_label(here)}; the file's is {code_label(backup.manifest)}). "
                f"Upgrade the code first, then restore"
            )


def refuse_non_empty() -> None:
    """Raise, naming a table, unless the configured database holds no rows (PostgreSQL: no
    tables at all, as pg_restore creates them)."""
    with connection.cursor() as cursor:
        # The site's own tables first: the one named is then most likely one of the ledger's.
        tables = sorted(
            connection.introspection.table_names(cursor),
            key=lambda name: (not name.startswith("scoring_"), name),
        )
        for table in tables:
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
            if cursor.fetchone() is not None:
                raise BackupError(
                    f"the {database_label()} is not empty (table {table} has rows): restore "
                    f"only into a new, empty database"
                )
    if tables and connection.vendor == "postgresql":
        raise BackupError(
            f"the {database_label()} already has tables ({tables[0]}, …), though empty: "
            f"restore only into a new database (createdb), without running migrate first"
        )


def load(backup: Backup) -> None:
    """Put the backup's database into the configured one (already checked empty)."""
    if connection.vendor == "postgresql":
        program = _program("pg_restore")
        conninfo, env = _libpq()
        connection.close()
        # One transaction: a failure leaves the database as empty as it was.
        _run(
            [program, "--no-owner", "--no-acl", "--single-transaction", "--exit-on-error",
             "--dbname", conninfo, str(backup.database)],
            env,
        )  # fmt: skip
        return
    connection.ensure_connection()
    source = sqlite3.connect(backup.database)
    try:
        source.backup(connection.connection)
    except sqlite3.Error as error:
        raise BackupError(f"cannot write the {database_label()}: {error}") from error
    finally:
        source.close()
        connection.close()


def compare(backup: Backup, cursor: Any = None) -> list[str]:
    """Every book of the manifest against the restored database (or the one ``cursor``
    reads): one line per book whose fingerprint (or head, or length) differs, that is
    missing, or that is new."""
    here = _books_here(cursor)
    problems = []
    for book in backup.books:
        now = here.pop((book.kind, book.id), None)
        written = book.fingerprint
        if now is None:
            problems.append(f"{book.label}: in the backup ({written}), missing here")
            continue
        fingerprint = now.fingerprint
        if book.kind == "group" and not backup.checksummed:
            # A format 1 file was written while a group's fingerprint was its own history's
            # head alone (before it also covered its sittings and players): compared so, and
            # the new fingerprint is named with the migrations newer than the file.
            fingerprint = chain.fingerprint(now.head)
        if (written, book.head, book.entries) != (fingerprint, now.head, now.entries):
            problems.append(
                f"{book.label}: fingerprint {written} in the backup ({book.entries} entries), "
                f"{fingerprint} here ({now.entries} entries)"
            )
    problems += [f"{b.label}: here ({b.fingerprint}), not in the backup" for b in here.values()]
    return problems


def _books_here(cursor: Any = None) -> dict[tuple[str, int], Book]:
    """The books of the configured database, or of the one ``cursor`` reads, by kind and id."""
    with nullcontext(cursor) if cursor is not None else connection.cursor() as reading:
        return {(b.kind, b.id): b for b in snapshot(reading).books}


def newer_migrations(backup: Backup) -> list[tuple[str, str]]:
    """The migrations of this code that the file's database had not applied, in order."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    done: set[tuple[str, str]] = set()
    for app, name in backup.manifest["migrations"].items():
        done.update(graph.forwards_plan((app, name)))
    plan: list[tuple[str, str]] = []
    for leaf in graph.leaf_nodes():
        plan += [
            node for node in graph.forwards_plan(leaf) if node not in done and node not in plan
        ]
    return plan


def changed_since(backup: Backup, applied: list[tuple[str, str]]) -> list[str]:
    """After ``applied`` migrations: one line per book whose fingerprint is no longer the
    manifest's, with the reason (a migration marked ``rechains_books`` re-chains every book),
    or nothing."""
    here = _books_here()
    moved = [
        (book, here[(book.kind, book.id)])
        for book in backup.books
        if (book.kind, book.id) in here
        and here[(book.kind, book.id)].fingerprint != book.fingerprint
    ]
    if not moved:
        return []
    nodes = MigrationLoader(None, ignore_no_migrations=True).graph.nodes
    rechaining = [f"{a}.{n}" for a, n in applied if getattr(nodes[(a, n)], "rechains_books", False)]
    why = (
        f"migration {', '.join(rechaining)} re-chains every book (docs/ledger-check.md): each "
        f"fingerprint changes there, once"
        if rechaining
        else f"the migrations newer than the file ({', '.join(f'{a}.{n}' for a, n in applied)}) "
        f"changed them"
    )
    lines = [
        f"{len(moved)} book(s) agreed with the backup as it was written, and their fingerprints "
        f"changed since: {why}. The players' noted fingerprints are the old ones:"
    ]
    lines += [
        f"  {old.label}: {old.fingerprint} in the backup, {new.fingerprint} now"
        for old, new in moved
    ]
    return lines


def analyze(tables: list[str] | None = None) -> None:
    """Fresh planner statistics after a bulk write (PostgreSQL's ``ANALYZE``; autovacuum gets
    there only later, and until then the planner guesses from an empty table): every table,
    or ``tables``. Nothing on SQLite, whose planner needs none to use the indexes."""
    if connection.vendor != "postgresql":
        return
    names = ", ".join(connection.ops.quote_name(table) for table in tables or [])
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {names}".strip())


def undo_how() -> str:
    """What an operator runs to make the configured database new and empty again."""
    s = connection.settings_dict
    if connection.vendor == "postgresql":
        owner = f" -O {s['USER']}" if s.get("USER") else ""
        return f"dropdb {s['NAME']} && createdb{owner} {s['NAME']}"
    return f"rm {s['NAME']}"


def empty() -> str | None:
    """Drop what a failed restore put into the configured database, so the same command can
    run again; None when it is new and empty again, else the commands that make it so."""
    try:
        connection.close()
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            blank = sqlite3.connect(":memory:")
            try:
                blank.backup(connection.connection)
            finally:
                blank.close()
        else:
            with transaction.atomic(), connection.cursor() as cursor:
                q = connection.ops.quote_name
                for kind, catalog, column in (
                    ("VIEW", "pg_views", "viewname"),
                    ("TABLE", "pg_tables", "tablename"),
                    ("SEQUENCE", "pg_sequences", "sequencename"),
                ):
                    cursor.execute(
                        f"SELECT {column} FROM {catalog} WHERE schemaname = current_schema()"
                    )
                    names = [q(row[0]) for row in cursor.fetchall()]
                    if names:
                        cursor.execute(f"DROP {kind} IF EXISTS {', '.join(names)} CASCADE")
        refuse_non_empty()
    except (BackupError, DatabaseError, sqlite3.Error):
        return undo_how()
    finally:
        connection.close()
    return None


# --- From SQLite to PostgreSQL ------------------------------------------------------------

MOVED = "tienlen_moved_from"


def _migrate_copy(database: Path) -> None:
    """The SQLite file's database brought to this code's migrations, by ``manage.py migrate``
    in a process of its own (its data migrations use the default database)."""
    _run(
        [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "migrate", "--no-input"],
        {**os.environ, "DATABASE_URL": f"sqlite:///{database.resolve()}"},
        "the SQLite file's migrations",
    )


def move(backup: Backup, applied: list[tuple[str, str]]) -> list[str]:
    """A SQLite site's backup into the configured (new, empty) PostgreSQL database: the
    file's books compared with its manifest as its own code wrote them (the lines that
    differ are returned), the file migrated to this code (``applied``), the PostgreSQL schema
    made by ``migrate``, then every row of every model copied as it is (ids, times and
    hashes kept, so every fingerprint stays), in one transaction."""
    source = sqlite3.connect(backup.database)
    try:
        problems = compare(backup, source.cursor())
    finally:
        source.close()
    if applied:
        _migrate_copy(backup.database)
    call_command("migrate", interactive=False, verbosity=0)
    conf = connections.configure_settings(
        {"default": connections.settings["default"],
         MOVED: {"ENGINE": "django.db.backends.sqlite3", "NAME": str(backup.database)}}
    )[MOVED]  # fmt: skip
    connections.settings[MOVED] = conf
    try:
        _copy_rows()
    finally:
        connections[MOVED].close()
        del connections[MOVED]
        del connections.settings[MOVED]
    return problems


def _copy_rows() -> None:
    models = [
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.managed and not m._meta.proxy
    ]
    q = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        # migrate's own rows (content types, permissions, the default groups) give way to the
        # site's, ids and all; foreign keys are checked at the commit (Django makes them
        # DEFERRABLE INITIALLY DEFERRED on PostgreSQL), so the order of tables is free.
        tables = ", ".join(q(m._meta.db_table) for m in models)
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        for model in models:
            # raw: the rows as they are (auto_now times kept), as loaddata writes them.
            into: Any = model._base_manager.using("default")
            fields = list(model._meta.local_concrete_fields)
            batch = max(1, 30000 // max(1, len(fields)))
            rows = model._base_manager.using(MOVED).order_by("pk").iterator(chunk_size=batch)
            for chunk in itertools.batched(rows, batch):
                into._insert(chunk, fields, raw=True)
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)
