"""``manage.py verify_ledger --sitting ID`` (or ``--group ID``, or ``--all``): check a book.

Recomputes the history's hash chain and checks every derived row against it
(``scoring.ledger.verify``). All agree: the fingerprint on stdout, exit 0. Otherwise one line
on stderr naming the first mismatch (the game number or the history entry), exit 1. ``--all``
checks every sitting and group for a periodic check from cron (``make verify-books``): silent
when every book agrees (``-v 2`` prints each fingerprint), one line on stderr per book that
disagrees and exit 1. Never a traceback on what the database holds. Each verdict is kept as
the book's last check (``services.book_check_record``): while it disagrees, the sitting's
page, its live link and the group's page show the first mismatch. A whole ``--all`` run (not
``--since``) is noted for ``/healthz``, with how many books it found disagreeing.

Each book found agreeing leaves a checkpoint; ``--since`` checks only what came after it
(the entries since, and the games and settlements they touched), a book without one whole.
A periodic ``--all --since`` is cheap; a whole check now and then still looks at everything.
A whole check also compares each sitting's stored totals (``scoring.ledger.totals``) with its
games and payments, so a total changed behind the site's back is named.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring import services
from scoring.ledger import verify
from scoring.ledger.totals import stored_totals_problems
from scoring.models import Group, Routine, Sitting
from scoring.text.numbers import command_int


class Command(BaseCommand):
    help = "Check a sitting's or a group's book against its hash chain; exit 1 on a mismatch."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--sitting", help="the sitting's id (as in /s/<id>/)")
        which.add_argument("--group", help="the group's id (its sittings are checked too)")
        which.add_argument("--all", action="store_true", help="every sitting and every group")
        parser.add_argument(
            "--since",
            action="store_true",
            help="check only what came after the last check that found the book agreeing",
        )
        parser.add_argument(
            "--lang", choices=("en", "vi"), default="en", help="language of the messages"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"]):
            if options["all"]:
                self._all(int(options["verbosity"]), since=options["since"])
                return
            kind = "sitting" if options["sitting"] is not None else "group"
            pk = command_int(str(options[kind]), f"--{kind}: not a {kind} id")
            model = Sitting if kind == "sitting" else Group
            book = model.objects.filter(pk=pk).first()
            if book is None:
                raise CommandError(f"no {kind} with id {pk}")
            again = functools.partial(_check, book, since=options["since"])
            verdict = again()
            services.book_check_record(
                book=book, verdict=verdict, lang=options["lang"], again=again
            )
            if not verdict.ok:
                assert verdict.mismatch is not None
                raise CommandError(verdict.mismatch.message, returncode=1)
            if not options["since"]:
                if isinstance(book, Sitting):
                    problems = stored_totals_problems(sitting_ids=[book.pk])
                else:
                    problems = stored_totals_problems(group=book)
                if problems:
                    raise CommandError("\n".join(problems), returncode=1)
            self.stdout.write(verdict.fingerprint)

    def _all(self, verbosity: int, *, since: bool) -> None:
        failed = 0
        books: list[Sitting | Group] = [
            *Sitting.objects.order_by("id"),
            *Group.objects.order_by("id"),
        ]
        agreeing: list[int] = []
        lang = translation.get_language()
        for book in books:
            kind = "sitting" if isinstance(book, Sitting) else "group"
            again = functools.partial(_check, book, since=since, sittings=False)
            verdict = again()
            services.book_check_record(book=book, verdict=verdict, lang=lang, again=again)
            if verdict.ok:
                if isinstance(book, Sitting):
                    agreeing.append(book.pk)
                if verbosity >= 2:
                    self.stdout.write(f"{kind} {book.pk}: {verdict.fingerprint}")
            else:
                failed += 1
                assert verdict.mismatch is not None
                self.stderr.write(f"{kind} {book.pk}: {verdict.mismatch.message}")
        if not since:
            # The stored totals of each sitting found agreeing, against its games and payments
            # (one that disagrees was named above already).
            for line in stored_totals_problems(sitting_ids=agreeing):
                failed += 1
                self.stderr.write(line)
            # A whole check of every book: /healthz tells its age (and what it found).
            services.routine_record(
                name=Routine.Name.BOOKS, detail=f"{len(books)} books", problems=failed
            )
        if failed:
            raise CommandError(f"{failed} book(s) disagree with their history", returncode=1)


def _check(book: Sitting | Group, *, since: bool, sittings: bool = True) -> verify.Verdict:
    if isinstance(book, Sitting):
        return verify.verify_sitting(book, since=since)
    return verify.verify_group(book, sittings=sittings, since=since)
