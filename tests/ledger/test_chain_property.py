"""Hypothesis: any sequence of writes through the services leaves a book that verifies, in
the database (``verify_ledger``) and as its exported file (``verify_session``)."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import engine, services
from scoring.engine.samples import NAMES, random_record
from scoring.ledger import replay, sessionfile, verify
from scoring.models import Game, Settlement
from scoring.services.common import Conflict, InvalidInput
from tests.factories import open_sitting, player
from tests.hypothesis_counts import examples

pytestmark = pytest.mark.django_db

PRESETS = sorted(engine.PRESETS)
STEP = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 2**32)),
    st.tuples(st.just("edit"), st.integers(0, 50), st.integers(0, 2**32)),
    st.tuples(st.just("void"), st.integers(0, 50)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
    st.tuples(st.just("settle"), st.integers(0, 3), st.integers(1, 3), st.integers(1, 50)),
    st.tuples(st.just("settle_void"), st.integers(0, 10)),
    st.tuples(st.just("live")),
)


def _apply(sitting, user, step, undone: list) -> None:
    kind = step[0]
    games = list(Game.objects.filter(sitting=sitting).order_by("number"))
    rules = engine.PRESETS[sitting.rules["id"]]
    try:
        if kind == "record":
            record = random_record(rules, random.Random(step[1]))
            services.game_record(sitting=sitting, user=user, record=record, token=uuid.uuid4())
        elif kind == "edit" and games:
            game = games[step[1] % len(games)]
            record = random_record(rules, random.Random(step[2]))
            services.game_edit(game=game, user=user, record=record, expected_revision=game.revision)
        elif kind == "void" and games:
            services.game_void(game=games[step[1] % len(games)], user=user, reason="sai")
        elif kind == "restore" and games:
            services.game_restore(game=games[step[1] % len(games)], user=user)
        elif kind == "undo":
            entry = services.sitting_undo(sitting=sitting, user=user)
            if entry is not None and entry.undone_by is not None:
                undone.append(entry.undone_by.pk)
        elif kind == "redo" and undone:
            services.sitting_redo(sitting=sitting, user=user, undo_id=undone.pop())
        elif kind == "settle":
            payer = NAMES[step[1]]
            payee = NAMES[(step[1] + step[2]) % 4]
            services.settlement_record(
                sitting=sitting, user=user, payer=player(sitting, payer),
                payee=player(sitting, payee), amount=step[3] * 1000,
            )  # fmt: skip
        elif kind == "settle_void":
            settlements = list(Settlement.objects.filter(sitting=sitting).order_by("id"))
            if settlements:
                chosen = settlements[step[1] % len(settlements)]
                services.settlement_void(settlement=chosen, user=user, reason="nhầm")
        elif kind == "live":
            services.sitting_live_link(sitting=sitting, user=user, action="regenerate")
    except (Conflict, InvalidInput):
        pass  # a refused write writes nothing; the book must still verify


@given(preset=st.sampled_from(PRESETS), steps=st.lists(STEP, max_size=14))
@settings(
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_any_sequence_of_service_writes_leaves_a_book_that_verifies(owner, preset, steps):
    sitting = open_sitting(owner, preset=preset, players=list(NAMES), stake=1000)
    undone: list[int] = []
    for step in steps:
        _apply(sitting, owner, step, undone)
    verdict = verify.verify_sitting(sitting)
    assert verdict.ok, (verdict.mismatch, steps)
    data = json.loads(sessionfile.session_json(sitting))
    checked = replay.check_session_file(data)
    assert checked.mismatch is None, (checked.mismatch, steps)
    assert checked.fingerprint == verdict.fingerprint
