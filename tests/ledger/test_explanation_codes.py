"""Payment explanations and the ledger's history notes stored as codes (migration 0011).

The migration reads each stored Vietnamese sentence back one last time: every sentence the
engine wrote becomes exactly the code and parameters the engine now produces for that payment,
and a sentence it cannot read is kept whole (code ``text``), shown as it was. The notes the
services wrote become their codes; what a person typed stays as typed.
"""

from __future__ import annotations

import importlib
import random
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import engine
from scoring.engine.samples import random_record
from tests.migrations import migrate_to

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


THOI_NOW = re.compile(
    r"thối ((?:2[♠♣♦♥]|(?:\d+ bộ )?[\w ]+?)(?: \+ (?:2[♠♣♦♥]|(?:\d+ bộ )?[\w ]+?))*)$"
)


def as_written_before(detail: str) -> str:
    """A sentence as the engine wrote it when details were stored as text (before 0011): thối
    said last ("5 lá + 2♥ thối", "2 3 đôi thông"), kết 3 bích as "kết 3♠". The engine says
    them as a player would now ("5 lá + thối 2♥", "2 bộ 3 đôi thông", "kết 3 bích")."""
    detail = detail.replace("kết 3 bích", "kết 3♠")
    match = THOI_NOW.search(detail)
    if match:
        held = match.group(1).replace(" bộ ", " ")
        detail = detail[: match.start()] + f"{held} thối"
    return detail


def test_the_old_wording_is_rebuilt_as_it_was_written():
    assert as_written_before("5 lá + thối 2♥ + tứ quý") == "5 lá + 2♥ + tứ quý thối"
    assert as_written_before("thối 2♠ + 2 bộ 3 đôi thông") == "2♠ + 2 3 đôi thông thối"
    assert as_written_before("tới trắng: sảnh rồng + thối 2♦") == "tới trắng: sảnh rồng + 2♦ thối"
    assert as_written_before("chặn kết 3 bích") == "chặn kết 3♠"


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_every_sentence_the_engine_wrote_reads_back_as_its_code(preset):
    seen = set()
    for transfer in _transfers(preset):
        written = as_written_before(transfer.detail)
        assert migration.read(written) == (transfer.code, transfer.params), written
        seen.add(transfer.code)
    assert len(seen) >= 3, seen


@pytest.mark.parametrize(
    "sentence",
    ["", "lý do lạ", "5 lá + ??? thối", "chặt: bài lạ", "đền thay An", "tới trắng: bài lạ"],
)
def test_a_sentence_it_cannot_read_is_kept_whole(sentence):
    assert migration.coded(sentence) == ("text", {"text": sentence})
    assert engine.explain(*migration.coded(sentence), "en") == sentence


SENTENCES = [
    "5 lá",
    "cóng: 13 lá ×2 + 2♥ thối",  # stored before thối was said first
    "đền thay Bình: 7 lá",
    "chặt chồng: 3 đôi thông + tứ quý",
    "bét → nhất",
    "Ghi tay: trả tiền nước",
]


NOTES = [
    ("live", "Bật liên kết xem"),
    ("voided", "Hoàn tác ghi ván"),
    ("members", "Gộp Bé vào nhà vào Bình"),
    ("moved", "Chuyển từ nhóm “Cũ” sang nhóm “Mới”"),
    ("voided", "Gộp An vào Bình"),
    ("voided", "Sai người thắng"),
]


@pytest.mark.django_db(transaction=True)
def test_the_migration_codes_every_stored_payment_and_goes_back():
    old = migrate_to(BEFORE)
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
    History = old.get_model("scoring", "HistoryEntry")
    GroupHistory = old.get_model("scoring", "GroupHistoryEntry")
    for action, note in NOTES:
        History.objects.create(sitting=sitting, action=action, note=note)
    GroupHistory.objects.create(group=group, action="settlement_voided", note="Ghi nhầm")
    for sentence in SENTENCES * 2:
        Payment.objects.create(
            game=game, revision=1, payer=binh, payee=an, amount=1000, reason="cards",
            detail=sentence,
        )  # fmt: skip

    new = migrate_to(AFTER)
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

    History = new.get_model("scoring", "HistoryEntry")
    notes = list(History.objects.order_by("id").values_list("note", "note_code", "note_params"))
    assert notes == [
        ("", "live_on", {}),
        ("", "undo_record", {}),
        ("", "merged", {"dup": "Bé vào nhà", "keep": "Bình"}),
        ("", "moved", {"src": "Cũ", "dst": "Mới"}),
        ("Gộp An vào Bình", "", {}),  # typed as a void reason: a person's words
        ("Sai người thắng", "", {}),
    ]
    GroupHistory = new.get_model("scoring", "GroupHistoryEntry")
    assert GroupHistory.objects.get().note_code == "settlement_void"

    back = migrate_to(BEFORE)
    Payment = back.get_model("scoring", "Payment")
    # Going back writes each explanation as the engine says it now ("thối 2♥", said first).
    said_now = [s.replace("2♥ thối", "thối 2♥") for s in SENTENCES]
    assert list(Payment.objects.order_by("id").values_list("detail", flat=True)) == said_now * 2
    History = back.get_model("scoring", "HistoryEntry")
    assert list(History.objects.order_by("id").values_list("action", "note")) == NOTES
    migrate_to(_latest())


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db
def test_the_ledgers_notes_read_in_the_readers_language(owner):
    from django.utils import translation

    from scoring import services
    from scoring.models import HistoryEntry
    from scoring.templatetags.money import entry_note
    from tests.factories import first_out, open_sitting, record

    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.sitting_undo(sitting=sitting, user=owner)
    services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_void(game=game, user=owner, reason="Đếm nhầm")
    entries = list(HistoryEntry.objects.filter(sitting=sitting).order_by("id"))[-3:]
    assert [(e.note, e.note_code) for e in entries] == [
        ("", "live_on"),
        ("", ""),
        ("Đếm nhầm", ""),
    ]
    undo = HistoryEntry.objects.get(sitting=sitting, note_code="undo_record")
    with translation.override("en"):
        assert entry_note(undo) == "Recording undone"
        assert entry_note(entries[0]) == "Turn on view link"
        assert entry_note(entries[2]) == "Đếm nhầm"
    with translation.override("vi"):
        assert entry_note(undo) == "Hoàn tác ghi ván"
        assert entry_note(entries[0]) == "Bật liên kết xem"


def test_a_note_with_names_is_worded_around_them():
    from django.utils import translation

    from scoring.text.wording import note_words

    merged = {"dup": "Bé", "keep": "Bình"}
    moved = {"src": "Cũ", "dst": "Mới"}
    with translation.override("en"):
        assert note_words("merged", merged) == "Merged Bé into Bình"
        assert note_words("moved", moved) == "Moved from the group “Cũ” to the group “Mới”"
        assert note_words("", {}, "Ghi tay") == "Ghi tay"
    with translation.override("vi"):
        assert note_words("merged", merged) == "Gộp Bé vào Bình"
