"""``manage.py export_group ID --format json|csv|archive``: a group's standing ledger on stdout.

``json`` prints ``{"version": 1, "name", "players", "sittings", "settlements", "balances",
"settle_up", "stats"}`` (``scoring.ledger.group_export.export_dict``); ``csv`` every player's
statement rows in the columns of a player's statement download (``scoring.text.csvfile``: a
byte-order mark, text that would start a formula escaped). ``archive`` writes everything of
the group (``scoring.ledger.archive``) for ``import_group`` on another server, to
``--output FILE`` (gzipped when FILE ends in ``.gz``) or stdout. ``export_group --list --owner
USER`` prints the groups USER owns or keeps score for, one ``id<TAB>name`` per line. Bad
input: a message on stderr, a non-zero exit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import limits
from scoring.ledger import archive
from scoring.ledger.group_export import export_dict, statement_csv_rows
from scoring.ledger.group_statements import STATEMENT_COLUMNS
from scoring.models import Group
from scoring.text.csvfile import csv_text
from scoring.text.numbers import command_int


class Command(BaseCommand):
    help = (
        "Print a group's ledger as JSON or its statement rows as CSV, or write its archive "
        "(everything, for import_group); --list its groups."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", nargs="?", help="the group's id (see --list)")
        parser.add_argument("--format", choices=("json", "csv", "archive"), default="json")
        parser.add_argument(
            "--output", help="with --format archive: the file to write (.gz: gzipped)"
        )
        parser.add_argument("--list", action="store_true", help="list --owner's groups")
        parser.add_argument("--owner", help="username, with --list")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list"]:
            self._list(options["owner"])
            return
        if options["id"] is None:
            raise CommandError("give a group id, or --list --owner USER")
        pk = command_int(str(options["id"]), f"{options['id']!r} is not a group id")
        group = Group.objects.filter(pk=pk).first()
        if group is None:
            raise CommandError(f"no group with id {options['id']}")
        if options["format"] == "archive":
            self._archive(group, options["output"])
        elif options["output"]:
            raise CommandError("--output goes with --format archive")
        elif options["format"] == "json":
            data = export_dict(group)
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n", ending="")
        else:
            rows = statement_csv_rows(group)
            self.stdout.write(csv_text(STATEMENT_COLUMNS, rows), ending="")

    def _archive(self, group: Group, output: str | None) -> None:
        try:
            data = archive.archive_bytes(group, compress=bool(output and output.endswith(".gz")))
        except archive.ArchiveTooLarge as error:
            raise CommandError(
                f"group {group.pk} is too large to archive: {error.size} bytes of JSON, and "
                f"import_group reads at most {limits.MAX_ARCHIVE_BYTES}; nothing was written"
            ) from None
        if not output or output == "-":
            self.stdout.write(data.decode(), ending="")
            return
        try:
            Path(output).write_bytes(data)
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
        self.stderr.write(f"{output}: group {group.pk} “{group.name}”, {len(data)} bytes")

    def _list(self, username: str | None) -> None:
        if not username:
            raise CommandError("--list needs --owner USER")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"--owner: no user named {username!r}")
        for pk, name in Group.objects.for_user(user).order_by("pk").values_list("pk", "name"):
            self.stdout.write(f"{pk}\t{name}")
