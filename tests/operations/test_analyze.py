"""The planner's statistics after a bulk write (PostgreSQL's ``ANALYZE``): a restore and
``import_group`` refresh them for the tables they filled, so the first pages after either do
not plan from an empty table's guesses. ``last_analyze`` is set only by an explicit ANALYZE
(autovacuum's is ``last_autoanalyze``)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection

from tests.operations import ledger
from tests.operations.conftest import ok
from tests.operations.test_backup_restore import backup_here

pytestmark = pytest.mark.django_db(transaction=True)

LAST = "SELECT last_analyze, now() FROM pg_stat_user_tables WHERE relname = 'scoring_game'"


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE is PostgreSQL's")


def test_a_restore_analyzes_what_it_filled(scratch, tmp_path):
    ledger.build()
    file = tmp_path / "b.tar.gz"
    backup_here(file)
    target = scratch()
    ok(target, "restore", str(file), "--yes")
    said = ok(target, "shell", "--verbosity", "0", "-c",
              f"from django.db import connection as c; k = c.cursor(); k.execute({LAST!r}); "
              "print(k.fetchone()[0] is not None)")  # fmt: skip
    assert said.strip() == "True"


def test_import_group_analyzes_the_tables_it_filled(tmp_path):
    ids = ledger.build()
    archive = tmp_path / "group.json.gz"
    call_command("export_group", str(ids["group"]), format="archive", output=str(archive))
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        (before,) = cursor.fetchone()
    call_command("import_group", str(archive), owner="ban_ghi", stdout=io.StringIO(),
                 stderr=io.StringIO())  # fmt: skip
    connection.close()  # a new session reads the statistics afresh
    with connection.cursor() as cursor:
        cursor.execute(LAST)
        analyzed, _now = cursor.fetchone()
    assert analyzed is not None and analyzed >= before
