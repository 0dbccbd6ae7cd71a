"""``manage.py restore FILE --yes``: a backup into a new, empty database; then the books checked.

Refused, with nothing written, when the configured database (``DATABASE_URL``) holds any row
(the table is named), when the file is of the other database kind, or when it comes from newer
code (a migration this code does not know, named); and without ``--yes``. PostgreSQL:
``pg_restore --no-owner --no-acl`` in one transaction; SQLite: the online backup API. Then
every book's fingerprint is compared with the manifest, migrations newer than the file are
applied, and every book is checked against its history as ``verify_ledger --all`` does. Exit 0
only when every book agrees; otherwise each one that differs, is missing or fails its check is
named on stderr, exit 1.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

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

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            with backups.opened(path) as backup:
                self._restore(path, backup, yes=options["yes"])
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            raise CommandError(f"the database could not be used: {error}".strip()) from error

    def _restore(self, path: Path, backup: backups.Backup, *, yes: bool) -> None:
        manifest = backup.manifest
        backups.refuse_unusable(backup, path)
        backups.refuse_non_empty()
        where = backups.database_label()
        if not yes:
            raise CommandError(
                f"{path} ({manifest['created_at']}, {len(manifest['books'])} books) would be "
                f"restored into the {where}: run again with --yes to do it"
            )
        backups.load(backup)
        self.stdout.write(f"restored {path} ({manifest['created_at']}) into the {where}")
        # The fingerprints first, as the file's code wrote them: a later migration may change
        # what the chain covers.
        problems = backups.compare(backup)
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            names = ", ".join(f"{m.app_label}.{m.name}" for m, _backwards in plan)
            self.stdout.write(f"applying {len(plan)} migration(s) newer than the file: {names}")
            call_command("migrate", interactive=False, verbosity=0)
        checked = io.StringIO()
        try:
            call_command("verify_ledger", all=True, stdout=io.StringIO(), stderr=checked)
        except CommandError:
            problems += [line for line in checked.getvalue().splitlines() if line.strip()]
        if problems:
            for line in problems:
                self.stderr.write(line)
            raise CommandError(
                f"{len(problems)} book(s) disagree with the backup or with their history",
                returncode=1,
            )
        self.stdout.write(
            f"{len(backup.books)} books: every fingerprint agrees with the backup, and every "
            f"book with its history"
        )
