"""Imports of one archive at once end as one after the other would: each a group of its own,
the second named "… (2)", every fingerprint kept; never a refusal for what was only a race on
the group's name."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scoring.ledger import archive, archive_file, verify
from scoring.ledger.sessionfile import SessionFileError
from scoring.models import Group
from scoring.services import group_archive

pytestmark = pytest.mark.django_db(transaction=True)

TIMES = 4


def test_imports_of_one_archive_at_once_each_make_a_group(rich_group, stranger):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers by itself: the race is PostgreSQL's")
    raw = archive.archive_bytes(rich_group, compress=True)
    fingerprint = verify.fingerprint_of(rich_group)
    outcomes: list[str] = []
    start = threading.Barrier(TIMES)

    def upload() -> None:
        try:
            read = archive_file.archive_read(raw)
            start.wait(30)
            outcomes.append(group_archive.group_import(owner=stranger, data=read).group.name)
        except SessionFileError as error:
            outcomes.append(f"refused: {error}")
        except Exception as error:  # surfaced below
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=upload) for _ in range(TIMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    name = rich_group.name
    assert sorted(outcomes) == sorted([name] + [f"{name} ({n})" for n in range(2, TIMES + 1)])
    for group in Group.objects.filter(owner=stranger):
        assert verify.fingerprint_of(group) == fingerprint
        assert verify.verify_group(group).ok
