"""The bulk import writes exactly the rows the per-game services write, in a few queries.

``one_by_one`` is how a session file was imported before the bulk writer: every game through
``services.game_record`` (and ``game_void``), every settlement through
``services.settlement_record`` (and ``settlement_void``). Each test imports the same file both
ways for the same owner and compares every row: games, seats, payments, settlements, the
history in order, the sitting's version, the exported file.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import engine, services
from scoring.ledger import sessionfile, verify
from scoring.models import Game, HistoryEntry, Payment, Player, Seat, Settlement, Sitting
from scoring.services import bulk_import as importer
from tests.factories import plain, session


def one_by_one(owner, data: Any, source: str = "") -> Sitting:
    """The per-game service path, as the import used to write."""
    checked = sessionfile.session_check(data)
    sitting = services.sitting_open(
        owner=owner,
        name=checked.name,
        date=checked.date,
        rules=checked.rules,
        stake=checked.stake,
        player_names=checked.players,
    )
    for game in checked.games:
        saved, _created = services.game_record(
            sitting=sitting, user=owner, record=game.record, token=uuid.uuid4()
        )
        if game.void:
            services.game_void(game=saved, user=owner, reason=game.void_reason)
    players = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    for s in checked.settlements:
        settlement = services.settlement_record(
            sitting=sitting,
            user=owner,
            payer=players[s.payer],
            payee=players[s.payee],
            amount=s.amount,
        )
        if s.void:
            services.settlement_void(settlement=settlement, user=owner, reason=s.void_reason)
    HistoryEntry.objects.create(
        sitting=sitting,
        user=owner,
        action=HistoryEntry.Action.IMPORTED,
        note=source[:200],
        after={"games": len(checked.games), "settlements": len(checked.settlements)},
    )
    sitting.refresh_from_db()
    return sitting


# Columns that differ between any two sittings by construction: ids (compared through what
# they point at instead), the clock, each game's fresh submission token, and the history's
# hash (it covers the clock and the ids; tests/ledger/test_chain.py checks it).
UNCOMPARED = {"id", "created_at", "updated_at", "at", "submission_token", "hash"}


def columns(obj: Any, **through: dict[Any, Any]) -> dict[str, Any]:
    """Every column of a row, so a column added later is compared too; ``through`` maps the
    ids of a foreign key (``game_id``) to what they stand for (the game's number)."""
    row = {}
    for f in type(obj)._meta.concrete_fields:
        if f.attname in UNCOMPARED:
            continue
        value = getattr(obj, f.attname)
        row[f.attname] = through[f.attname].get(value, value) if f.attname in through else value
    return row


def rows(sitting: Sitting) -> dict[str, Any]:
    """Everything the ledger holds for a sitting, in order."""
    numbers = dict(sitting.games.values_list("pk", "number"))
    settlements = list(sitting.settlements.order_by("created_at", "id"))
    order = {s.pk: i for i, s in enumerate(settlements)}
    history = list(sitting.history.order_by("id"))
    position = {entry.pk: i for i, entry in enumerate(history)}
    here = {"sitting_id": {sitting.pk: "this sitting"}}
    return {
        "sitting": columns(sitting),
        "members": [columns(m, **here) for m in sitting.memberships.all()],
        "games": [columns(g, **here) for g in sitting.games.order_by("number")],
        "seats": [
            columns(s, game_id=numbers)
            for s in Seat.objects.filter(game__sitting=sitting).order_by("game__number", "position")
        ],
        "payments": [
            columns(p, game_id=numbers)
            for p in Payment.objects.filter(game__sitting=sitting).order_by("game__number", "id")
        ],
        "settlements": [columns(s, **here) for s in settlements],
        "history": [
            columns(h, game_id=numbers, settlement_id=order, undoes_id=position, **here)
            for h in history
        ],
        # The order every history page reads them in ("-at", "-id").
        "history_newest_first": list(sitting.history.values_list("action", "game__number")),
        # Less its history, whose times, ids and hashes are the sitting's own.
        "file": {
            k: v
            for k, v in sessionfile.session_build(sitting).items()
            if k not in ("history", "fingerprint")
        },
        "verifies": verify.verify_sitting(sitting).ok,
    }


def both_ways(owner, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    reference = rows(one_by_one(owner, data, source="ban.json"))
    bulk = rows(importer.session_import(owner=owner, data=data, source="ban.json").sitting)
    return reference, bulk


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_it_writes_the_rows_the_per_game_services_write(owner, preset):
    reference, bulk = both_ways(owner, session(preset, games=25, seed=7))
    assert bulk == reference
    assert len(bulk["games"]) == 25 and bulk["payments"] and bulk["seats"]


def test_it_matches_the_services_on_voids_and_reasons(owner):
    data = session("dem-la", games=6)
    data["games"][0]["void"] = True
    data["games"][0]["void_reason"] = "  " + "x" * 198 + " y  "  # cut at 200, then trimmed
    data["games"][3]["void"] = True
    data["games"][3]["void_reason"] = "   "  # blank: the import's own reason
    data["settlements"] += [
        {"from": "Dũng", "to": "An", "amount": 7000, "void": True, "void_reason": ""},
        {"from": "Bình", "to": "Chi", "amount": 1, "void_reason": "not void, ignored"},
    ]
    reference, bulk = both_ways(owner, data)
    assert bulk == reference
    assert [g["status"] for g in bulk["games"]].count("void") == 3


def test_it_reuses_the_owners_players_as_the_services_do(owner):
    first = importer.session_import(owner=owner, data=plain()).sitting
    reference, bulk = both_ways(owner, plain())
    assert bulk == reference
    assert {m["player_id"] for m in bulk["members"]} == set(
        first.members.values_list("pk", flat=True)
    )
    assert Player.objects.filter(owner=owner).count() == 3


def test_an_undo_after_an_import_takes_back_the_same_step(owner):
    data = session("nhat-nhi-ba-bet", games=5)
    data["games"][-1] = {**data["games"][-1], "void": True, "void_reason": "sai"}
    sittings = [
        one_by_one(owner, data),
        importer.session_import(owner=owner, data=data).sitting,
    ]
    undone = [services.sitting_undo(sitting=s, user=owner) for s in sittings]
    assert [(u.action, u.game.number) for u in undone] == [("voided", 5), ("voided", 5)]
    assert (
        rows(Sitting.objects.get(pk=sittings[0].pk))["games"]
        == rows(Sitting.objects.get(pk=sittings[1].pk))["games"]
    )


def test_it_writes_a_file_in_the_same_number_of_queries_whatever_its_length(owner):
    importer.session_import(owner=owner, data=session("dem-la", games=1))  # the players
    counts = []
    for games in (3, 120):
        with CaptureQueriesContext(connection) as queries:
            importer.session_import(owner=owner, data=session("dem-la", games=games))
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert Game.objects.count() == 124


def test_it_leaves_nothing_when_the_last_write_fails(owner, monkeypatch):
    seen: list[int] = []
    insert = importer.insert_rows

    def failing(model, columns, rows):
        if model is HistoryEntry:
            seen.append(Game.objects.count())
            raise RuntimeError("the database went away")
        insert(model, columns, rows)

    monkeypatch.setattr(importer, "insert_rows", failing)
    with pytest.raises(RuntimeError):
        importer.session_import(owner=owner, data=session("dem-la", games=4))
    assert seen == [4]  # the games were written before it failed
    assert not Sitting.objects.exists()
    assert not Game.objects.exists()
    assert not Seat.objects.exists()
    assert not Settlement.objects.exists()
    assert not Player.objects.exists()
