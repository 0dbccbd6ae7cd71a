"""``manage.py backup FILE`` (or ``--into DIR --keep N``, or ``--check FILE``).

A consistent copy of the whole database, taken while the site serves, with a manifest read
from the same snapshot (``scoring.management.backups``). Prints the file and the count of
books, and notes the time for ``/healthz``. ``--into`` names the file by the UTC time in DIR
and deletes the dated files there that ``--keep N`` and ``--daily/--weekly/--monthly`` do not
keep. Any problem: one line on stderr, exit 1, and no file (an older one of the same name is
untouched).

``--check FILE`` reads a backup whole, as ``restore`` does before touching a database (its
gzip stream to the end, every member against its size and SHA-256), and says what it holds or
what is wrong; it opens no database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scoring import services
from scoring.management import backups
from scoring.models import Routine


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
            help="with --into: keep the newest N dated backups in DIR (and what the next keep)",
        )
        for period, unit in (("daily", "days"), ("weekly", "weeks"), ("monthly", "months")):
            parser.add_argument(
                f"--{period}",
                type=int,
                default=0,
                metavar="N",
                help=f"with --keep: keep also the newest backup of each of the last N {unit}",
            )
        parser.add_argument(
            "--check", metavar="FILE", help="check a backup file whole; restore nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"] is not None:
            self._check(Path(options["check"]))
            return
        into, keep = options["into"], options["keep"]
        periods = [options["daily"], options["weekly"], options["monthly"]]
        if (options["file"] is None) == (into is None):
            raise CommandError("give either a FILE or --into DIR (or --check FILE)")
        if keep is not None and (into is None or keep < 1):
            raise CommandError("--keep N needs --into DIR and N of at least 1")
        if any(periods) and keep is None:
            raise CommandError("--daily, --weekly and --monthly go with --keep N")
        if any(n < 0 for n in periods):
            raise CommandError("--daily, --weekly and --monthly take 0 or more")
        if into is not None and not Path(into).is_dir():
            raise CommandError(
                f"{into} is not a folder: create it first (mkdir -p {into}), owned by the user "
                f"that runs the backup"
            )
        try:
            path = backups.write(
                Path(options["file"] or "."), into=Path(into) if into is not None else None
            )
            data = backups.read_manifest(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            raise CommandError(f"the database could not be read: {error}".strip()) from error
        self.stdout.write(f"{path}: {_summary(data)}")
        try:
            services.routine_record(name=Routine.Name.BACKUP, detail=str(path))
        except DatabaseError as error:
            self.stderr.write(f"/healthz cannot be told of this backup (run migrate): {error}")
        if into is not None and keep is not None:
            rule = backups.Retention(keep, *periods)
            for old in backups.prune(Path(into), rule):
                self.stdout.write(f"deleted {old}")

    def _check(self, path: Path) -> None:
        try:
            with backups.opened(path) as backup:
                data = backup.manifest
                member = backups.MEMBERS[data["vendor"]]
                if backup.checksummed:
                    digest = data["members"][member]
                    whole = (
                        f"whole: its gzip stream, and {member} ({digest['size']} bytes) against "
                        f"its SHA-256 {digest['sha256'][:16]}…"
                    )
                else:
                    whole = (
                        f"its gzip stream is whole; written by {backups.code_label(data)}, "
                        f"before backups carried checksums, so {member} has none to check"
                    )
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"{path}: {whole}")
        self.stdout.write(f"{path}: {_summary(data)}, written by {backups.code_label(data)}")


def _summary(data: dict[str, Any]) -> str:
    books = data["books"]
    sittings = sum(book["kind"] == "sitting" for book in books)
    return (
        f"{len(books)} books ({sittings} sittings, {len(books) - sittings} groups), "
        f"{backups.VENDORS[data['vendor']]}, {data['created_at']}"
    )
