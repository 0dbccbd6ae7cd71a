"""The whole save request in a fixed, small number of SQL statements, the board it answers
included.

What the record form sends when the scorekeeper taps "Lưu" (htmx): the session and the user
are read, the sitting found, the form checked, the game written (``services.game_record``,
tests/services/test_save_queries.py), and the board drawn again for the next game. Every
statement the connection runs is counted, transactions and savepoints included, from the
request's first to its last, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Game
from tests.factories import bulk_games, open_sitting

pytestmark = pytest.mark.django_db(transaction=True)

# The most statements the save request runs, by database (issue 35). On PostgreSQL, in the
# order they run: the session, the user, the sitting, its players; BEGIN, the group's shared
# lock, the sitting's lock, one read of what the write needs under them (the token's game,
# the latest number, the close that may freeze the sitting, the history's head), the
# version's move, the game, its seats, its payments, the stored totals, the history entry,
# COMMIT; then the board: the balances, the games' counts with the history's head and the
# book's last check, the page of games, their payments, their seats. SQLite has no group
# lock but writes the stored totals in two statements.
MOST = {"sqlite": 20, "postgresql": 20}
HX = {"HX-Request": "true"}


def _post(client, sitting, token: str):
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "An",
        "cards_1": "3",
        "cards_2": "5",
        "cards_3": "13",
        "token": token,
        "action": "save",
    }
    return client.post(f"/s/{sitting.pk}/games/", data, headers=HX)


@pytest.mark.parametrize("games", [0, 30])
def test_a_save_request_runs_a_bounded_number_of_statements(owner, owner_client, games):
    sitting = open_sitting(owner)
    if games:
        bulk_games(sitting, owner, games)
    owner_client.get(sitting.get_absolute_url())  # the page the scorekeeper saves from
    with CaptureQueriesContext(connection) as ctx:
        response = _post(owner_client, sitting, str(uuid.uuid4()))
    statements = [q["sql"] for q in ctx.captured_queries]
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="board"' in body or "board" in body
    assert Game.objects.filter(sitting=sitting).count() == games + 1
    most = MOST[connection.vendor]
    assert len(statements) <= most, f"{len(statements)} statements:\n" + "\n".join(statements)


def test_the_same_save_sent_twice_answers_the_board_within_the_same_bound(owner, owner_client):
    sitting = open_sitting(owner)
    token = str(uuid.uuid4())
    _post(owner_client, sitting, token)
    with CaptureQueriesContext(connection) as ctx:
        response = _post(owner_client, sitting, token)
    assert response.status_code == 200
    assert Game.objects.filter(sitting=sitting).count() == 1
    statements = [q["sql"] for q in ctx.captured_queries]
    most = MOST[connection.vendor]
    assert len(statements) <= most, f"{len(statements)} statements:\n" + "\n".join(statements)
