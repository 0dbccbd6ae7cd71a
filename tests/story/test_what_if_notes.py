"""The what-if's list of skipped or noted games reads like a list, each game said only when
read: its length, order, indexes and slices as the page takes them."""

from __future__ import annotations

import pytest

from scoring import engine
from scoring.ledger.reprice import GameNote, GameNotes

WHY = (engine.Problem("finish", "no_winner"),)


def notes(said: list[str]) -> GameNotes:
    def say(why: object) -> str:
        said.append("said")
        return "text" if isinstance(why, tuple) else str(why)

    segments = [
        (1, "Tối 1", ((2, 5), (0, 1), (WHY, "plain"))),
        (7, "Tối 2", ((), (), ())),
        (9, "Tối 3", ((1,), (0,), (WHY,))),
    ]
    return GameNotes(segments, say)


EXPECTED = [
    GameNote(1, "Tối 1", 2, "text"),
    GameNote(1, "Tối 1", 5, "plain"),
    GameNote(9, "Tối 3", 1, "text"),
]


def test_it_reads_as_the_list_of_its_games_in_order():
    said: list[str] = []
    games = notes(said)
    assert not said  # nothing said before it is read
    assert len(games) == 3 and bool(games)
    assert list(games) == EXPECTED
    assert [games[i] for i in range(3)] == EXPECTED
    assert [games[i] for i in range(-3, 0)] == EXPECTED
    assert games[:50] == EXPECTED and games[1:] == EXPECTED[1:] and games[::-1] == EXPECTED[::-1]


def test_only_the_games_read_are_said():
    said: list[str] = []
    games = notes(said)
    assert games[:1] == EXPECTED[:1] and len(said) == 1


@pytest.mark.parametrize("index", [3, -4])
def test_an_index_past_either_end_is_an_index_error(index):
    with pytest.raises(IndexError):
        notes([])[index]


def test_no_games_is_empty():
    games = GameNotes([], str)
    assert len(games) == 0 and not games and list(games) == [] and games[:50] == []
