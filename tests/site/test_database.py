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
    from tienlen_site.settings import database_from_url, postgres_session_options

    pg = database_from_url("postgres://u:p%40ss@db.example:5433/tienlen?sslmode=require")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "tienlen",
        "u",
        "p@ss",
        "db.example",
        5433,
    )
    # The web's bounded waits ride along as the connection's startup options (settings.py).
    assert pg["OPTIONS"] == {"sslmode": "require", "options": postgres_session_options()}
    lite = database_from_url("sqlite:////tmp/x.sqlite3")
    assert str(lite["NAME"]) == "/tmp/x.sqlite3"
    assert lite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_it_refuses_an_unknown_database_scheme():
    from django.core.exceptions import ImproperlyConfigured

    from tienlen_site.settings import database_from_url

    with pytest.raises(ImproperlyConfigured):
        database_from_url("mysql://x@y/z")


def test_it_decodes_a_socket_host():
    from tienlen_site.settings import database_from_url

    pg = database_from_url("postgres://u@%2Fvar%2Frun%2Fpostgresql/db")
    assert pg["HOST"] == "/var/run/postgresql"
    assert (pg["USER"], pg["NAME"], pg["PORT"]) == ("u", "db", "")


def test_sqlite_names_are_the_project_folder_relative_or_absolute():
    from tienlen_site.settings import BASE_DIR, database_from_url

    assert database_from_url("sqlite:///")["NAME"] == BASE_DIR / "db.sqlite3"
    assert database_from_url("sqlite:///w1.sqlite3")["NAME"] == BASE_DIR / "w1.sqlite3"
    assert str(database_from_url("sqlite:////tmp/a%20b.sqlite3")["NAME"]) == "/tmp/a b.sqlite3"


def test_postgres_connections_follow_the_pool_variables(monkeypatch):
    from tienlen_site.settings import database_from_url, postgres_session_options

    for name in ("DB_POOL", "CONN_MAX_AGE", "DB_TRANSACTION_POOLER", "TEST_DATABASE_NAME"):
        monkeypatch.delenv(name, raising=False)
    url = "postgres://u@db/tienlen?sslmode=require&sslmode=disable"
    plain = database_from_url(url)
    assert plain["CONN_MAX_AGE"] == 60 and plain["CONN_HEALTH_CHECKS"] is True
    assert plain["DISABLE_SERVER_SIDE_CURSORS"] is False
    # The last value, as a query string reads; then the web's bounded waits.
    assert plain["OPTIONS"] == {"sslmode": "disable", "options": postgres_session_options()}
    assert plain["TEST"] == {"NAME": None}

    monkeypatch.setenv("DB_TRANSACTION_POOLER", "1")
    monkeypatch.setenv("TEST_DATABASE_NAME", "test_tienlen_ci")
    pooler = database_from_url(url)
    assert pooler["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert pooler["TEST"] == {"NAME": "test_tienlen_ci"}
    assert "options" not in pooler["OPTIONS"]  # PgBouncer refuses them: set on the role

    monkeypatch.setenv("DB_POOL", "8")
    pooled = database_from_url(url)
    assert pooled["CONN_MAX_AGE"] == 0
    assert pooled["OPTIONS"] == {
        "sslmode": "disable",
        "pool": {"min_size": 1, "max_size": 8, "timeout": 10},
    }
