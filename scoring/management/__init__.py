"""What the site's management commands share: reading a file argument, finding ``--owner``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from scoring.engine.readtext import text_problem
from scoring.ledger import sessionfile


def read_session_file(name: str) -> bytes:
    """FILE, or stdin for ``-``: up to the size limit and one byte, enough to tell it is over."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(sessionfile.MAX_FILE_BYTES + 1)
        with Path(name).open("rb") as handle:
            return handle.read(sessionfile.MAX_FILE_BYTES + 1)
    except OSError as error:
        raise CommandError(f"cannot read {name}: {error.strerror or error}") from None


def owner_named(name: str) -> Any:
    """The user ``--owner`` names; a name no username could be is never looked up."""
    owner = None if text_problem(name) else get_user_model().objects.filter(username=name).first()
    if owner is None:
        raise CommandError(f"--owner: no user named {name!r}")
    return owner
