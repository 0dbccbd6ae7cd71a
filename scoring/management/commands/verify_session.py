"""``manage.py verify_session FILE``: check a session file offline, with no database.

The file's ``history`` (written by ``export_session --format json`` and the download) is
rechained entry by entry, its head compared with the file's ``fingerprint``, and replayed:
the games, their void marks, the settlements and the totals must be what it gives
(``scoring.ledger.replay``). All agree: the fingerprint on stdout, exit 0; otherwise one
line on stderr naming the first mismatch, exit 1. The database is never opened.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.ledger import replay, sessionfile
from scoring.management import read_session_file


class Command(BaseCommand):
    help = "Check a session JSON file's history offline; exit 1 on a mismatch."
    requires_system_checks: list[str] = []  # the checks would open the database
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="session JSON file, or - for stdin")
        parser.add_argument(
            "--lang", choices=("en", "vi"), default="en", help="language of the messages"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"]):
            try:
                data = sessionfile.session_read(read_session_file(options["file"]))
            except sessionfile.SessionFileError as error:
                raise CommandError(str(error.problems[0]), returncode=1) from None
            checked = replay.check_session_file(data)
            if checked.mismatch is not None:
                raise CommandError(checked.mismatch.message, returncode=1)
            self.stdout.write(checked.fingerprint)
