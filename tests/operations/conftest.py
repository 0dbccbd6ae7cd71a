"""Databases for the backup tests: the one under test, and new empty ones to restore into.

PostgreSQL: a scratch database is created next to the test database (its name starts with
the test database's, so CI's clean-up finds any left behind) and dropped afterwards. SQLite:
a file in the test's temporary folder. Commands run in a subprocess with ``DATABASE_URL``
pointing there, as an operator runs them.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.reliability.realserver import ROOT, server_env, sqlite_url


def run(url: str, *args: str, module: str = "") -> subprocess.CompletedProcess[str]:
    """``manage.py args`` (or ``python -m module args``) against ``url``; never raises."""
    command = ["-m", module, *args] if module else ["manage.py", *args]
    return subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env=server_env(url),
        capture_output=True,
        text=True,
        timeout=600,
    )


def ok(url: str, *args: str, module: str = "") -> str:
    """Like :func:`run`, and its stdout; fails the test with its stderr otherwise."""
    result = run(url, *args, module=module)
    assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stderr[-3000:]}"
    return result.stdout


def _admin():
    import psycopg

    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def postgres_url(name: str) -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


@pytest.fixture
def scratch(transactional_db, tmp_path) -> Iterator[Callable[..., str]]:
    """``scratch()``: the URL of a new, empty database of the kind under test.
    ``scratch(copy=True)``: a copy of the test database as it stands (migrated, no ledger)."""
    made: list[str] = []

    def make(*, copy: bool = False) -> str:
        if connection.vendor == "sqlite":
            path = tmp_path / f"scratch-{len(made)}.sqlite3"
            if copy:
                from tests.reliability.realserver import database_url_for_test

                folder = tmp_path / f"copy-{len(made)}"
                folder.mkdir()
                source = Path(database_url_for_test(folder).removeprefix("sqlite:///"))
                source.rename(path)
            made.append(str(path))
            return sqlite_url(path)
        name = f"{connection.settings_dict['NAME']}_scratch_{uuid.uuid4().hex[:8]}"
        template = connection.settings_dict["NAME"]
        if copy:
            connection.close()  # a template database must have no one connected
        with _admin() as admin:
            suffix = f' TEMPLATE "{template}"' if copy else ""
            admin.execute(f'CREATE DATABASE "{name}"{suffix}')
        made.append(name)
        return postgres_url(name)

    yield make
    if connection.vendor == "postgresql" and made:
        with _admin() as admin:
            for name in made:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
