"""Backup files of the whole database, and putting one back (``manage.py backup`` / ``restore``).

A backup is one gzipped tar holding ``manifest.json`` and the database: ``database.dump``
(``pg_dump --format=custom``) or ``database.sqlite3`` (a copy through SQLite's online backup
API). Both are taken while the site serves, from one consistent snapshot, and the manifest's
list of books (every sitting's and every group's history chain: its head hash, fingerprint and
length) is read from that same snapshot, so a restore can show that every book came back as it
was. See docs/operations.md.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader

from scoring.engine import chain
from scoring.models import Group, GroupHistoryEntry, HistoryEntry, Sitting

FORMAT = "so-tien-len-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
# The database's member of the tar, by vendor.
MEMBERS = {"postgresql": "database.dump", "sqlite": "database.sqlite3"}
VENDORS = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}

# ``make backup``'s files: what ``--keep`` may delete, and nothing else.
DATED = re.compile(r"^tienlen-\d{8}T\d{6}Z\.tar\.gz$")

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

    @property
    def fingerprint(self) -> str:
        return chain.fingerprint(self.head)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.id} ({self.name})"

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "fingerprint": self.fingerprint}


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


def snapshot(cursor: Any) -> Snapshot:
    """The last applied migration of each app and every book's head, read with ``cursor``
    (Django's, or a plain ``sqlite3`` one on a copy): plain SQL that both databases speak."""
    cursor.execute("SELECT app, name FROM django_migrations")
    applied: dict[str, list[str]] = {}
    for app, name in cursor.fetchall():
        applied.setdefault(app, []).append(name)
    books = []
    for kind, model, history in (
        ("sitting", Sitting, HistoryEntry),
        ("group", Group, GroupHistoryEntry),
    ):
        cursor.execute(_books_sql(model, history))
        books += [
            Book(kind, int(pk), str(name), str(head), int(count))
            for pk, name, head, count in cursor.fetchall()
        ]
    # Django numbers an app's migrations, so its last applied one sorts last.
    return Snapshot({app: max(names) for app, names in sorted(applied.items())}, books)


def project_version() -> str:
    try:
        return metadata.version("so-tien-len")
    except metadata.PackageNotFoundError:  # a checkout run without being installed
        with open(Path(settings.BASE_DIR) / "pyproject.toml", "rb") as file:
            return str(tomllib.load(file)["project"]["version"])


def manifest(vendor: str, taken: Snapshot, at: datetime) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "version": project_version(),
        "vendor": vendor,
        "created_at": at.astimezone(UTC).isoformat(),
        "migrations": taken.migrations,
        "books": [book.as_json() for book in taken.books],
    }


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


def _run(args: list[str], env: dict[str, str]) -> None:
    result = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        said = " / ".join(lines[-3:]) or f"exit status {result.returncode}"
        raise BackupError(f"{Path(args[0]).name} failed: {said}")


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


def dated_name(at: datetime) -> str:
    return f"tienlen-{at.astimezone(UTC):%Y%m%dT%H%M%SZ}.tar.gz"


@contextmanager
def _scratch(beside: Path) -> Iterator[Path]:
    """A temporary folder next to ``beside`` (same disk, so the final rename is atomic)."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=f".{beside.name}.", suffix=".partial",
                                       dir=beside.parent))  # fmt: skip
    except OSError as error:
        raise BackupError(f"cannot write in {beside.parent}: {error.strerror}") from error
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write(path: Path) -> dict[str, Any]:
    """Write a backup of the configured database to ``path``; its manifest.

    Built in a temporary folder beside ``path`` and renamed into place whole: on any error
    nothing is left behind and an older file of that name is untouched."""
    vendor = connection.vendor
    if vendor not in MEMBERS:
        raise BackupError(f"backups of a {vendor} database are not supported")
    if path.is_dir():
        raise BackupError(f"{path} is a folder: give the name of the file to write")
    at = datetime.now(UTC)
    with _scratch(path) as folder:
        database = folder / MEMBERS[vendor]
        taken = _dump_postgresql(database) if vendor == "postgresql" else _copy_sqlite(database)
        data = manifest(vendor, taken, at)
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
            os.replace(packed, path)
        except OSError as error:
            raise BackupError(f"cannot write {path}: {error.strerror or error}") from error
    return data


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` of ``make backup``'s dated files in ``folder``
    (nothing else there is touched); the files deleted."""
    dated = sorted(p for p in folder.iterdir() if DATED.match(p.name) and p.is_file())
    old = dated[: max(0, len(dated) - keep)]
    for path in old:
        path.unlink()
    return old


# --- Reading a backup -------------------------------------------------------------------


@dataclass
class Backup:
    manifest: dict[str, Any]
    database: Path  # the extracted database file, in a temporary folder

    @property
    def books(self) -> list[Book]:
        return [
            Book(b["kind"], int(b["id"]), str(b["name"]), str(b["head"]), int(b["entries"]))
            for b in self.manifest["books"]
        ]

    def fingerprints(self) -> dict[tuple[str, int], str]:
        return {(b["kind"], int(b["id"])): str(b["fingerprint"]) for b in self.manifest["books"]}


@contextmanager
def opened(path: Path) -> Iterator[Backup]:
    """A backup file's manifest and its database, extracted to a temporary folder."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    folder = Path(tempfile.mkdtemp(prefix="tienlen-restore-"))
    try:
        try:
            with tarfile.open(path, "r:gz") as tar:
                members = {m.name: m for m in tar.getmembers() if m.isfile()}
                if MANIFEST not in members:
                    raise BackupError(f"{path} is not a backup of this site (no {MANIFEST})")
                data = json.load(tar.extractfile(members[MANIFEST]))  # type: ignore[arg-type]
                _check_manifest(path, data)
                name = MEMBERS[data["vendor"]]
                if name not in members:
                    raise BackupError(f"{path} holds no {name}")
                database = folder / name
                with tar.extractfile(members[name]) as src, open(database, "wb") as dst:  # type: ignore[union-attr]
                    shutil.copyfileobj(src, dst)
        except (tarfile.TarError, gzip.BadGzipFile, EOFError, UnicodeDecodeError) as error:
            raise BackupError(f"{path} is not a backup of this site ({error})") from error
        except json.JSONDecodeError as error:
            raise BackupError(f"{path}: its {MANIFEST} is not JSON ({error})") from error
        except OSError as error:
            raise BackupError(f"cannot read {path}: {error.strerror or error}") from error
        yield Backup(data, database)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _check_manifest(path: Path, data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path} is not a backup of this site")
    if data.get("format_version") != FORMAT_VERSION:
        raise BackupError(
            f"{path} is a backup of format {data.get('format_version')!r}; this code reads "
            f"format {FORMAT_VERSION}"
        )
    migrations, books = data.get("migrations"), data.get("books")
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
    ):
        raise BackupError(f"{path}: its {MANIFEST} is incomplete or damaged")


# --- Restoring --------------------------------------------------------------------------


def database_label() -> str:
    name = connection.settings_dict["NAME"]
    if connection.vendor == "postgresql":
        host = connection.settings_dict.get("HOST") or "localhost"
        return f"PostgreSQL database {name} on {host}"
    return f"SQLite database {name}"


def refuse_unusable(backup: Backup, path: Path) -> None:
    """Raise unless ``backup`` can go into the configured database: same vendor, and no
    migration the code here does not know (a file from newer code)."""
    vendor = backup.manifest["vendor"]
    if vendor != connection.vendor:
        raise BackupError(
            f"{path} is a backup of a {VENDORS[vendor]} database; the configured database "
            f"(DATABASE_URL) is {VENDORS.get(connection.vendor, connection.vendor)}"
        )
    known = MigrationLoader(None, ignore_no_migrations=True).graph.nodes
    for app, name in backup.manifest["migrations"].items():
        if (app, name) not in known:
            raise BackupError(
                f"{path} was made by newer code: its migration {app}.{name} is unknown to this "
                f"version ({project_version()}; the file's is {backup.manifest.get('version')}). "
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


def compare(backup: Backup) -> list[str]:
    """Every book of the manifest against the restored database: one line per book whose
    fingerprint (or head, or length) differs, that is missing, or that is new."""
    with connection.cursor() as cursor:
        here = {(b.kind, b.id): b for b in snapshot(cursor).books}
    saved = backup.fingerprints()
    problems = []
    for book in backup.books:
        now = here.pop((book.kind, book.id), None)
        written = saved[(book.kind, book.id)]
        if now is None:
            problems.append(f"{book.label}: in the backup ({written}), missing here")
        elif (written, book.head, book.entries) != (now.fingerprint, now.head, now.entries):
            problems.append(
                f"{book.label}: fingerprint {written} in the backup ({book.entries} entries), "
                f"{now.fingerprint} here ({now.entries} entries)"
            )
    problems += [f"{b.label}: here ({b.fingerprint}), not in the backup" for b in here.values()]
    return problems
