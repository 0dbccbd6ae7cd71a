"""Saving one game costs a fixed, small number of SQL statements.

The save locks the sitting (and its group), checks the period is open, moves the version,
reads the members and the latest game number, and writes the game, its seats, its payments
and its history entry. Each of those reads happens once; a second read of the members or of
the latest game is a regression this test names.
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Game, Payment
from tests.factories import bulk_games, first_out, open_sitting

pytestmark = pytest.mark.django_db(transaction=True)

# The most statements one save may run, on either database.
MOST = 18


def _save(sitting, owner) -> list[str]:
    rec = first_out("An", Bình=3, Chi=5, Dũng=13)
    rec["hands"]["Dũng"]["heo"] = ["2H"]
    with CaptureQueriesContext(connection) as ctx:
        game, created = services.game_record(
            sitting=sitting, user=owner, record=rec, token=uuid.uuid4()
        )
    assert created
    assert Payment.objects.filter(game=game).count() == 3
    return [q["sql"] for q in ctx.captured_queries]


def _reads_of(statements: list[str], table: str) -> list[str]:
    quoted = f'"{table}"'
    return [s for s in statements if s.lstrip().startswith("SELECT") and f"FROM {quoted}" in s]


@pytest.mark.parametrize("games", [0, 30])
def test_a_save_runs_at_most_eighteen_statements(owner, games):
    sitting = open_sitting(owner)
    if games:
        bulk_games(sitting, owner, games)
    statements = _save(sitting, owner)
    assert len(statements) <= MOST, "\n".join(statements)
    assert Game.objects.filter(sitting=sitting).count() == games + 1


def test_a_save_reads_the_members_and_the_latest_game_once(owner):
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, 3)
    statements = _save(sitting, owner)
    assert len(_reads_of(statements, "scoring_membership")) == 1, "\n".join(statements)
    # The latest number is read with the token's game, the close that may freeze the sitting
    # and the history's head, in one statement under the lock.
    latest = [
        s
        for s in statements
        if s.lstrip().startswith("SELECT") and 'FROM "scoring_game"' in s and '"number"' in s
    ]
    assert len(latest) == 1, "\n".join(statements)
    assert _reads_of(statements, "scoring_periodclose") == latest, "\n".join(statements)
    assert _reads_of(statements, "scoring_historyentry") == latest, "\n".join(statements)
