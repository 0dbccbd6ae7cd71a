"""``manage.py import_group FILE --owner USERNAME``: a group's archive (``export_group ID
--format archive``) becomes a new group of USERNAME, on this server or another.

All or nothing, in one transaction, through the same checks as the "Nhập nhóm" page
(``scoring.services.group_archive``): every history entry's hash must recompute, every book
must keep its fingerprint and its rows must follow from its history. On success the group
and each sitting's fingerprint go to stderr and the new group's id is printed alone on the
last line of stdout (so a script can ``tail -n1``). Bad input never gives a traceback: the
problem goes to stderr naming the book and the entry, nothing is saved, and the exit code is
non-zero. On PostgreSQL the app's tables are then ``ANALYZE``d, so the planner knows the new
rows before autovacuum gets to them.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.ledger import archive_file, verify
from scoring.ledger.sessionfile import SessionFileError
from scoring.management import backups, owner_named
from scoring.services import group_archive


class Command(BaseCommand):
    help = "Import a group archive as a new group owned by --owner; prints its id last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="archive file (.json or .json.gz), or - for stdin")
        parser.add_argument("--owner", required=True, help="username of the new group's owner")
        parser.add_argument(
            "--lang", choices=("en", "vi"), default="en", help="language of problem messages"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"]):
            owner = owner_named(options["owner"])
            try:
                # Read as a stream (the file is never held whole): the sittings are read as
                # the import reaches them.
                with self._open(options["file"]) as source:
                    data = archive_file.archive_read(source)
                    imported = group_archive.group_import(owner=owner, data=data)
            except OSError as error:
                raise CommandError(
                    f"cannot read {options['file']}: {error.strerror or error}"
                ) from None
            except SessionFileError as error:
                for problem in error.problems:
                    self.stderr.write(str(problem))
                raise CommandError(
                    f"{options['file']} not imported; nothing was saved", returncode=1
                ) from None
            group = imported.group
            if imported.renamed_from:
                self.stderr.write(
                    f"{owner} already has a group named “{imported.renamed_from}”: "
                    f"imported as “{group.name}”"
                )
            self.stderr.write(f"group {verify.fingerprint_of(group)}")
            for sitting in group.sittings.order_by("id"):
                self.stderr.write(f"sitting “{sitting.name}” {verify.fingerprint_of(sitting)}")
            self.stdout.write(
                f"Imported “{group.name}” ({imported.sittings} sittings, {imported.games} games)"
                f" for {owner}."
            )
            self.stdout.write(str(group.pk))
            # A whole group written in bulk: the planner's statistics of its tables, now.
            backups.analyze([m._meta.db_table for m in apps.get_app_config("scoring").get_models()])

    def _open(self, name: str) -> AbstractContextManager[IO[bytes]]:
        if name == "-":
            return nullcontext(sys.stdin.buffer)  # not closed: it is the process's
        return Path(name).open("rb")
