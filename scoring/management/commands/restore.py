"""``manage.py restore FILE --yes``: a backup into a new, empty database; then the books checked.

Whatever refuses the file (damaged, of the other database kind but for a SQLite file into
PostgreSQL, from newer code; a database not empty; no ``--yes``) is said before anything is
written. Exit 0 only when every book agrees with the manifest and with its history; otherwise
each one that does not is named on stderr, exit 1, and the database is emptied again so the same
command can run once more (``--keep-on-failure`` keeps it). The steps: docs/operations.md.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scoring.management import backups


class Command(BaseCommand):
    help = "Restore a backup into an empty database, then check every book's fingerprint."
    # As migrate: the system checks would open the database before a clear message can say
    # it cannot be opened.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a file written by manage.py backup")
        parser.add_argument(
            "--yes", action="store_true", help="really restore (the database must be empty)"
        )
        parser.add_argument(
            "--keep-on-failure",
            action="store_true",
            help="when a book disagrees, keep what was restored (to look into it) instead of "
            "emptying the database again",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            with backups.opened(path) as backup:
                self._restore(path, backup, yes=options["yes"], keep=options["keep_on_failure"])
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            raise CommandError(f"the database could not be used: {error}".strip()) from error

    def _restore(self, path: Path, backup: backups.Backup, *, yes: bool, keep: bool) -> None:
        manifest = backup.manifest
        backups.refuse_unusable(backup, path)
        backups.refuse_non_empty()
        where = backups.database_label()
        moving = backups.moving(backup)
        what = "moved from SQLite" if moving else "restored"
        if not yes:
            raise CommandError(
                f"{path} ({manifest['created_at']}, {len(manifest['books'])} books) would be "
                f"{what} into the {where}: run again with --yes to do it"
            )
        if not backup.checksummed:
            self.stdout.write(
                f"{path} was written by {backups.code_label(manifest)}, before backups carried "
                f"checksums: only its gzip stream could be checked"
            )
        try:
            problems, notes = self._put_back(path, backup, moving=moving, what=what)
        except (backups.BackupError, DatabaseError, CommandError) as error:
            raise CommandError(f"{error}. {self._undo(keep=False)}".strip()) from error
        for line in notes:
            self.stdout.write(line)
        if problems:
            for line in problems:
                self.stderr.write(line)
            raise CommandError(
                f"{len(problems)} book(s) disagree with the backup or with their history. "
                f"{self._undo(keep=keep)}".strip(),
                returncode=1,
            )
        again = " (after the changes named above)" if notes else ""
        self.stdout.write(
            f"{len(backup.books)} books: every fingerprint agrees with the backup{again}, and "
            f"every book with its history"
        )

    def _put_back(
        self, path: Path, backup: backups.Backup, *, moving: bool, what: str
    ) -> tuple[list[str], list[str]]:
        """Load, compare, migrate, check: the problems, and what changed on the way."""
        newer = backups.newer_migrations(backup)
        where = backups.database_label()
        created = backup.manifest["created_at"]
        if moving:
            # The file's books are compared in the file, as its own code wrote them.
            problems = backups.move(backup, newer)
            self.stdout.write(f"moved {path} ({created}) from SQLite into the {where}")
        else:
            backups.load(backup)
            self.stdout.write(f"{what} {path} ({created}) into the {where}")
            # The fingerprints first, as the file's code wrote them: a later migration may
            # change what the chain covers.
            problems = backups.compare(backup)
        if newer:
            names = ", ".join(f"{app}.{name}" for app, name in newer)
            self.stdout.write(f"applying {len(newer)} migration(s) newer than the file: {names}")
            if not moving:
                call_command("migrate", interactive=False, verbosity=0)
        notes = backups.changed_since(backup, newer) if newer and not problems else []
        backups.analyze()
        checked = io.StringIO()
        try:
            call_command("verify_ledger", all=True, stdout=io.StringIO(), stderr=checked)
        except CommandError:
            problems += [line for line in checked.getvalue().splitlines() if line.strip()]
        return problems, notes

    def _undo(self, *, keep: bool) -> str:
        how = backups.undo_how()
        if keep:
            return f"What was restored is kept to look into; to run the restore again: {how}"
        left = backups.empty()
        if left is None:
            return f"The {backups.database_label()} is empty again: the restore can run again"
        return f"The database could not be emptied again; before the next try: {left}"
