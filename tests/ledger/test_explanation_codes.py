"""Payment explanations stored as the engine's code and parameters (migration 0011).

The migration reads each stored Vietnamese sentence back one last time: every sentence the
engine wrote becomes exactly the code and parameters the engine now produces for that payment,
and a sentence it cannot read is kept whole (code ``text``), shown as it was.
"""

from __future__ import annotations

import importlib
import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import engine
from scoring.engine.samples import random_record

migration = importlib.import_module("scoring.migrations.0011_explanation_codes")

BEFORE = [("scoring", "0010_settlement_submission_token")]
AFTER = [("scoring", "0011_explanation_codes")]
NAMES = ("An", "Bình: Tú", "Chi", "Dũng")


def _transfers(preset, games=300):
    rules = engine.PRESETS[preset]
    rng = random.Random(f"codes-{preset}")
    for _ in range(games):
        record = random_record(rules, rng, NAMES)
        yield from engine.score_game(rules, engine.parse_record(record, rules), 60_000).transfers


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_every_sentence_the_engine_wrote_reads_back_as_its_code(preset):
    seen = set()
    for transfer in _transfers(preset):
        assert migration.read(transfer.detail) == (transfer.code, transfer.params)
        seen.add(transfer.code)
    assert len(seen) >= 3, seen


@pytest.mark.parametrize(
    "sentence",
    ["", "lý do lạ", "5 lá + ??? thối", "chặt: bài lạ", "đền thay An", "tới trắng: bài lạ"],
)
def test_a_sentence_it_cannot_read_is_kept_whole(sentence):
    assert migration.coded(sentence) == ("text", {"text": sentence})
    assert engine.explain(*migration.coded(sentence), "en") == sentence


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


SENTENCES = [
    "5 lá",
    "cóng: 13 lá ×2 + 2♥ thối",
    "đền thay Bình: 7 lá",
    "chặt chồng: 3 đôi thông + tứ quý",
    "bét → nhất",
    "Ghi tay: trả tiền nước",
]


@pytest.mark.django_db(transaction=True)
def test_the_migration_codes_every_stored_payment_and_goes_back():
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Group = old.get_model("scoring", "Group")
    Player = old.get_model("scoring", "Player")
    Sitting = old.get_model("scoring", "Sitting")
    Game = old.get_model("scoring", "Game")
    Payment = old.get_model("scoring", "Payment")
    user = User.objects.create(username="lan")
    group = Group.objects.create(owner=user, name="Nhóm", is_default=True)
    an, binh = (Player.objects.create(owner=user, group=group, name=n) for n in ("An", "Bình"))
    sitting = Sitting.objects.create(
        owner=user, group=group, name="Bàn", date="2026-10-01", rules={"name": "dem-la"},
        rules_label="Đếm lá", stake=1000,
    )  # fmt: skip
    game = Game.objects.create(sitting=sitting, number=1, record={}, revision=1)
    for sentence in SENTENCES * 2:
        Payment.objects.create(
            game=game, revision=1, payer=binh, payee=an, amount=1000, reason="cards",
            detail=sentence,
        )  # fmt: skip

    new = _migrate(AFTER)
    Payment = new.get_model("scoring", "Payment")
    stored = list(Payment.objects.order_by("id").values_list("detail_code", "detail_params"))
    assert stored == [migration.coded(s) for s in SENTENCES * 2]
    assert stored[0] == ("cards", {"n": 5})
    assert stored[2] == ("den", {"player": "Bình", "code": "cards", "params": {"n": 7}})
    assert stored[5] == ("text", {"text": "Ghi tay: trả tiền nước"})
    assert [engine.explain(code, params, "en") for code, params in stored[:6]] == [
        "5 cards",
        "cóng: 13 cards ×2 + thối (2♥)",
        "đền for Bình: 7 cards",
        "counter-chop: 3 consecutive pairs + four of a kind",
        "last → 1st",
        "Ghi tay: trả tiền nước",
    ]

    back = _migrate(BEFORE)
    Payment = back.get_model("scoring", "Payment")
    assert list(Payment.objects.order_by("id").values_list("detail", flat=True)) == SENTENCES * 2
    _migrate(_latest())


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
