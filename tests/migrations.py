"""Moving the test database to a migration and back, for the tests of a data migration."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]) -> Any:
    """Migrate the test database to ``targets`` and return the app registry as it stood
    there (the models of that moment, for writing rows the way an older site did)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    """Every app's latest migration: where a test leaves the database for those after it."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
