"""``manage.py export_session ID --format json|csv|totals-csv``: a sitting on stdout.

The bytes are those of the download buttons: the JSON session file, or the payments CSV /
totals CSV (UTF-8 with a byte-order mark). Bad input: a message on stderr, a non-zero exit.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.ledger import sessionfile, sheets
from scoring.models import Sitting
from scoring.text.numbers import command_int

FORMATS = {
    "json": sessionfile.session_json,
    "csv": sheets.payments_csv,
    "totals-csv": sheets.totals_csv,
}


class Command(BaseCommand):
    help = "Print a sitting as its session JSON file or as CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", help="the sitting's id (as in /s/<id>/)")
        parser.add_argument("--format", choices=sorted(FORMATS), default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        pk = command_int(str(options["id"]), f"{options['id']!r} is not a sitting id")
        sitting = Sitting.objects.filter(pk=pk).first()
        if sitting is None:
            raise CommandError(f"no sitting with id {options['id']}")
        self.stdout.write(FORMATS[options["format"]](sitting), ending="")
