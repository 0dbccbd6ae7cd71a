"""``manage.py backup FILE`` (or ``--into DIR --keep N``): the whole database in one file.

A consistent copy taken while the site serves (PostgreSQL: ``pg_dump`` of an exported
snapshot; SQLite: the online backup API) with a manifest: the project's version, the database
kind, each app's last migration, the time, and every book's fingerprint, read from the same
snapshot (``scoring.management.backups``). Prints the file and the count of books. ``--into``
names the file ``tienlen-<UTC date and time>.tar.gz`` in DIR and, with ``--keep N``, deletes
all but the newest N such files there (``make backup``). Any problem: one line on stderr, exit
1, and no file (an older one of the same name is untouched).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scoring.management import backups


class Command(BaseCommand):
    help = "Write a consistent backup of the whole database, with every book's fingerprint."
    # As migrate: the system checks would open the database before a clear message can say
    # it cannot be opened.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="the backup file to write (.tar.gz)")
        parser.add_argument(
            "--into", metavar="DIR", help="write tienlen-<UTC date-time>.tar.gz into DIR"
        )
        parser.add_argument(
            "--keep",
            type=int,
            metavar="N",
            help="with --into: keep only the newest N dated backups in DIR",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        into, keep = options["into"], options["keep"]
        if (options["file"] is None) == (into is None):
            raise CommandError("give either a FILE or --into DIR")
        if keep is not None and (into is None or keep < 1):
            raise CommandError("--keep N needs --into DIR and N of at least 1")
        if into is not None:
            folder = Path(into)
            if not folder.is_dir():
                raise CommandError(f"{folder} is not a folder")
            path = folder / backups.dated_name(datetime.now(UTC))
            if path.exists():
                raise CommandError(f"{path} exists already: one backup a second at most")
        else:
            path = Path(options["file"])
        try:
            data = backups.write(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            raise CommandError(f"the database could not be read: {error}".strip()) from error
        books = data["books"]
        sittings = sum(book["kind"] == "sitting" for book in books)
        self.stdout.write(
            f"{path}: {len(books)} books ({sittings} sittings, {len(books) - sittings} groups), "
            f"{backups.VENDORS[data['vendor']]}, {data['created_at']}"
        )
        if into is not None and keep is not None:
            for old in backups.prune(Path(into), keep):
                self.stdout.write(f"deleted {old}")
