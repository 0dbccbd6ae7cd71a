"""A group's archive as it was last built, kept until the book changes.

Building the archive of a large group takes the worker minutes and hundreds of megabytes
(``docs/archive.md``), so the gzipped file is kept (``KeptArchive``, one row per group,
written by ``scoring.services.archive_tasks``) under the version of the book it was built from,
and downloaded again as it is while that version holds.

The version is :func:`scoring.ledger.standing.ledger_version` (the group's and every sitting's
version: every write to the book moves one on) and a digest of the players' names, merges and
bank accounts, which the archive carries and which a player's bank edit may change without a
sitting to move (a player who never sat). It is read before the archive is built, so a write
landing during the build leaves the kept file under an older version, never a newer one.
"""

from __future__ import annotations

import hashlib

from scoring.ledger.standing import ledger_version
from scoring.models import Group, KeptArchive, Player


def archive_version(group: Group) -> str:
    """A stamp that changes whenever anything the group's archive holds may have changed."""
    digest = hashlib.sha256()
    rows = (
        Player.objects.filter(group=group)
        .order_by("id")
        .values_list("id", "name", "merged_into_id", "bank_bin", "bank_account", "bank_holder")
    )
    for row in rows:
        digest.update(repr(row).encode())
    name = Group.objects.filter(pk=group.pk).values_list("name", flat=True).first() or ""
    digest.update(name.encode())
    return f"{ledger_version(group)}.{digest.hexdigest()[:16]}"


def kept_archive(group: Group, version: str) -> bytes | None:
    """The gzipped archive kept for ``version`` of the group's book, or None."""
    data = (
        KeptArchive.objects.filter(group=group, version=version)
        .values_list("data", flat=True)
        .first()
    )
    return None if data is None else bytes(data)
