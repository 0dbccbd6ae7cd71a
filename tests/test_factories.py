"""``bulk_games`` writes exactly the rows ``services.game_record`` writes for the same games."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Model

from scoring.models import Game, Sitting
from tests.factories import CHOPPED, FIRST, ROUND, bulk_games, open_sitting, record

pytestmark = pytest.mark.django_db

# What differs between two recordings of one game by nature: ids, when, the submission token,
# the history's hash (which covers when), and which sitting (the two tables compared are two
# sittings of one owner and one set of players, so every player id is the same).
NATURAL = {
    "id",
    "sitting_id",
    "game_id",
    "submission_token",
    "created_at",
    "updated_at",
    "at",
    "hash",
}


def _values(row: Model) -> dict[str, Any]:
    return {
        f.attname: getattr(row, f.attname)
        for f in row._meta.concrete_fields
        if f.attname not in NATURAL
    }


def _rows(sitting: Sitting) -> list[dict[str, Any]]:
    """Each game of the sitting with every row that points at it, in a comparable form."""
    relations = [(r.related_model, r.field.attname) for r in Game._meta.related_objects]
    games = []
    for game in sitting.games.order_by("number"):
        related = {
            model.__name__: sorted(
                (_values(row) for row in model.objects.filter(**{key: game.pk})), key=repr
            )
            for model, key in relations
        }
        games.append({"game": _values(game), **related})
    return games


def _recorded_and_bulk(owner, count, records):
    by_service = open_sitting(owner, name="ghi từng ván")
    for i in range(count):
        record(by_service, owner, records[i % len(records)])
    in_bulk = open_sitting(owner, name="ghi một lượt")
    made = bulk_games(in_bulk, owner, count, records)
    return by_service, in_bulk, made


@pytest.mark.parametrize("count", [2, 9])
def test_bulk_games_write_the_rows_the_service_writes(owner, count):
    by_service, in_bulk, made = _recorded_and_bulk(owner, count, ROUND)
    assert [g.number for g in made] == list(range(1, count + 1))
    service_rows, bulk_rows = _rows(by_service), _rows(in_bulk)
    assert len(bulk_rows) == count
    # Every kind of row the service writes for a game is there (and compared below).
    assert {"Seat", "Payment", "HistoryEntry"} <= set(service_rows[0])
    assert all(game["Seat"] and game["Payment"] and game["HistoryEntry"] for game in bulk_rows)
    assert bulk_rows == service_rows
    by_service.refresh_from_db()
    in_bulk.refresh_from_db()
    assert in_bulk.version == by_service.version


def test_bulk_games_copy_chat_cong_thoi_and_the_next_leader_too(owner):
    by_service, in_bulk, _made = _recorded_and_bulk(owner, 5, [FIRST, CHOPPED])
    rows = _rows(in_bulk)
    assert rows == _rows(by_service)
    assert {p["reason"] for g in rows for p in g["Payment"]} >= {"chat", "cong"}
    assert any(seat["thoi"] for g in rows for seat in g["Seat"])
    assert all(g["game"]["next_leader_id"] for g in rows)


def test_bulk_games_number_on_after_the_games_already_there(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, FIRST)
    made = bulk_games(sitting, owner, 6)
    assert [g.number for g in made] == [2, 3, 4, 5, 6, 7]
    assert sitting.games.count() == 7
    assert len(set(sitting.games.values_list("submission_token", flat=True))) == 7
