"""From SQLite to PostgreSQL in one command: a SQLite site's backup restored into a new, empty
PostgreSQL database moves the whole site (``backups.move``) — accounts, groups, sittings,
books and their checks — with every fingerprint kept. Runs in CI's PostgreSQL pass."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.operations.conftest import ok, run
from tests.operations.test_backup_restore import SHOW_ROWS, fingerprints
from tests.reliability.realserver import sqlite_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.long]


def rows(url: str) -> dict[str, int]:
    out = ok(url, "shell", "--verbosity", "0", "-c", SHOW_ROWS)
    return {t: int(n) for t, n in (line.split() for line in out.splitlines())}


def test_a_sqlite_site_moves_to_postgresql_with_every_fingerprint(scratch, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the move goes into PostgreSQL")
    site = sqlite_url(tmp_path / "club.sqlite3")
    ok(site, "migrate", "--no-input", "--verbosity", "0")
    ids = json.loads(ok(site, "build", module="tests.operations.ledger").splitlines()[-1])
    ok(site, "verify_ledger", "--all")  # the checks travel too
    file = tmp_path / "club.tar.gz"
    ok(site, "backup", str(file))

    target = scratch()
    said = ok(target, "restore", str(file), "--yes")
    assert "from SQLite into the PostgreSQL database" in said
    assert "8 books: every fingerprint agrees with the backup" in said
    assert fingerprints(target) == fingerprints(site)
    # Every table holds as many rows, less the note of the backup itself (taken after its
    # snapshot) and migrate's own table.
    before, after = rows(site), rows(target)
    before["scoring_routine"] -= 1
    assert {t: n for t, n in after.items() if t != "django_migrations"} == {
        t: n for t, n in before.items() if t != "django_migrations"
    }
    assert after["auth_user"] == 2 and after["scoring_bookcheck"] > 0
    for command, pk in (("export_group", ids["group"]), ("export_session", ids["sitting"])):
        assert json.loads(ok(target, command, str(pk))) == json.loads(ok(site, command, str(pk)))
    # New rows get new ids after the moved ones: the sequences moved on.
    made = run(target, "shell", "--verbosity", "0", "-c", NEW_USER)
    assert made.returncode == 0, made.stderr
    assert int(made.stdout) > max(before["auth_user"], 2)
    # Logging in works with the moved password hash.
    assert ok(target, "shell", "--verbosity", "0", "-c", LOGIN).strip() == "True"


NEW_USER = """
from django.contrib.auth import get_user_model
print(get_user_model().objects.create_user("moi_den", password="mat-khau-that-dai-2026").pk)
"""
LOGIN = """
from django.contrib.auth import get_user_model
print(get_user_model().objects.get(username="chu_so").check_password("mat-khau-that-dai-2026"))
"""
