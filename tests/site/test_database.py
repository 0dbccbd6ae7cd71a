import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_it_runs_on_the_database_ci_asked_for():
    """CI runs the suite twice; this proves each run really used its database."""
    expected = os.environ.get("EXPECT_DB_VENDOR")
    if not expected:
        pytest.skip("EXPECT_DB_VENDOR not set (local run)")
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        if expected == "postgresql":
            cursor.execute("SELECT version()")
            assert cursor.fetchone()[0].startswith("PostgreSQL")
        else:
            cursor.execute("SELECT sqlite_version()")
            assert cursor.fetchone()[0]


def test_it_reads_database_url_forms():
    from tienlen_site.settings import database_from_url

    pg = database_from_url("postgres://u:p%40ss@db.example:5433/tienlen?sslmode=require")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "tienlen",
        "u",
        "p@ss",
        "db.example",
        5433,
    )
    assert pg["OPTIONS"] == {"sslmode": "require"}
    lite = database_from_url("sqlite:////tmp/x.sqlite3")
    assert str(lite["NAME"]) == "/tmp/x.sqlite3"
    assert lite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_it_refuses_an_unknown_database_scheme():
    from django.core.exceptions import ImproperlyConfigured

    from tienlen_site.settings import database_from_url

    with pytest.raises(ImproperlyConfigured):
        database_from_url("mysql://x@y/z")
