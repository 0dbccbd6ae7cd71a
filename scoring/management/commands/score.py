"""``manage.py score``: score game records from the command line with the engine.

A thin wrapper around :func:`scoring.engine.cli.score`, which does the work (``manage.py``
runs that directly, without setting Django up, when given only this command's options). Bad
input never gives a traceback: every problem goes to stderr as ``path: message``, nothing goes
to stdout, and the exit code is non-zero.
"""

from __future__ import annotations

import sys
from argparse import ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import PRESETS
from scoring.engine.cli import LANGUAGES, Refused, indent_option, score, stop_writing


class Command(BaseCommand):
    help = (
        "Score one game record (or a JSON array of records) and print the payments as JSON: "
        '{"transfers": [{"from", "to", "amount", "reason", "detail"}], "net": {player: amount}}.'
    )

    # Pure computation: no database, so no system checks (they would need one).
    requires_system_checks = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rules",
            required=True,
            help=f"a preset id ({', '.join(PRESETS)}) or the path of a rule-set JSON file",
        )
        parser.add_argument("--stake", required=True, help="đồng per unit, a positive integer")
        parser.add_argument(
            "--lang", choices=LANGUAGES, default="en", help="language of problem messages"
        )
        parser.add_argument(
            "--indent",
            type=_indent,
            default=None,
            help="indent the JSON by this many spaces (default: 2 for one record; an array of "
            "records is printed compact, one result per line)",
        )
        parser.add_argument(
            "file", nargs="?", default="-", help="record JSON file, or - for stdin (default)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            score(
                rules=options["rules"],
                stake=options["stake"],
                lang=options["lang"],
                indent=options["indent"],
                file=options["file"],
                out=self.stdout.write,
                err=self.stderr.write,
            )
        except Refused as exc:
            raise CommandError(str(exc), returncode=1) from None
        except BrokenPipeError:
            stop_writing(sys.stdout)  # the reader left; end as the quick path does
            sys.exit(1)


def _indent(text: str) -> int:
    try:
        return indent_option(text)
    except ValueError as exc:
        raise ArgumentTypeError(str(exc)) from None
