"""``manage.py score``: score game records from the command line with the engine.

The same command as the console script ``tienlen-score``: both take the options of
:func:`scoring.engine.cli.add_arguments` and run :func:`scoring.engine.cli.score`. Bad input
never gives a traceback: every problem goes to stderr as ``path: message``, nothing goes to
stdout, and the exit code is non-zero.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine.cli import Refused, add_arguments, score, stop_writing


class Command(BaseCommand):
    help = (
        "Score one game record (or a JSON array of records) and print the payments as JSON: "
        '{"transfers": [{"from", "to", "amount", "reason", "detail"}], "net": {player: amount}}.'
    )

    # Pure computation: no database, so no system checks (they would need one).
    requires_system_checks = ()

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

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
            stop_writing(sys.stdout)  # the reader left: nothing more to say
            sys.exit(1)
