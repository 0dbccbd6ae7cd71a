"""``manage.py import_session FILE --owner USERNAME [--group NAME]``: a session file becomes a
new sitting in the group NAME of the owner (created if missing), or in the owner's default
group without ``--group``.

All or nothing, through the same checks as the upload page. On success the new sitting's id
is printed alone on the last line of stdout (so a script can ``tail -n1``) and the group's id
alone on the last line of stderr; warnings go to stderr before it. Bad input never gives a
traceback: every problem goes to stderr, a game's with its number and field path, nothing is
saved, and the exit code is non-zero.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.ledger import sessionfile
from scoring.management import owner_named, read_session_file
from scoring.models import Group
from scoring.services import InvalidInput, group_create
from scoring.services import bulk_import as importer


class Command(BaseCommand):
    help = "Import a session JSON file as a new sitting owned by --owner; prints its id last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="session JSON file, or - for stdin")
        parser.add_argument("--owner", required=True, help="username of the new sitting's owner")
        parser.add_argument(
            "--group",
            help="name of the owner's group to import into (created if missing); "
            "default: the owner's default group",
        )
        parser.add_argument(
            "--lang", choices=("en", "vi"), default="en", help="language of problem messages"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"]):
            owner = owner_named(options["owner"])
            group = self._group(owner, options["group"])
            raw = read_session_file(options["file"])
            try:
                if len(raw) > sessionfile.MAX_FILE_BYTES:
                    # Only the limit and one byte were read: say the file's real size.
                    message = sessionfile.too_large_message(self._size(options["file"]))
                    raise sessionfile.SessionFileError([sessionfile.FileProblem("", message)])
                data = sessionfile.session_read(raw)
                imported = importer.session_import(
                    owner=owner,
                    data=data,
                    source=_printable(Path(options["file"]).name),
                    group=group,
                )
            except sessionfile.SessionFileError as error:
                for problem in error.problems:
                    self.stderr.write(str(problem))
                if error.more:
                    self.stderr.write(f"… and {error.more} more")
                raise CommandError(
                    f"{error.total} problem(s) in {options['file']}; nothing imported",
                    returncode=1,
                ) from None
            for warning in imported.warnings:
                self.stderr.write(f"warning: {warning}")
            sitting = imported.sitting
            self.stdout.write(
                f"Imported “{sitting.name}” ({sitting.games.count()} games) for {owner}."
            )
            self.stdout.write(str(sitting.pk))
            self.stderr.write(str(sitting.group_id))

    def _group(self, owner: Any, name: str | None) -> Group:
        """The owner's group of that name, created if missing; the default group without."""
        if name is None:
            return Group.objects.default_for(owner)
        clean = " ".join(name.split())
        group = Group.objects.filter(owner=owner, name=clean).first()
        if group is not None:
            return group
        try:
            return group_create(owner=owner, name=clean).value
        except InvalidInput as error:
            raise CommandError(f"--group: {error.message}") from None

    def _size(self, name: str) -> int | None:
        """The size of a regular file; None for stdin or a pipe, where only "more" is known."""
        path = Path(name)
        try:
            return path.stat().st_size if name != "-" and path.is_file() else None
        except OSError:
            return None


def _printable(name: str) -> str:
    """A file name for the sitting's history, without characters that would show wrongly."""
    return "".join(ch for ch in name if ch.isprintable())
