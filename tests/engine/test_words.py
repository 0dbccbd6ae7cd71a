"""Payment explanations, plays and hands in English."""

import random
import re

import pytest

from scoring import engine
from scoring.engine.samples import random_record

# Vietnamese is told by its letters: every vowel with a tone or hat, and đ.
VIETNAMESE = re.compile(
    "[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]", re.IGNORECASE
)
# The game terms the English interface keeps (longest first, so "cóng cả làng" goes whole).
KEPT_TERMS = ("cóng cả làng", "tới trắng", "thối", "cóng", "đền")


def _still_vietnamese(text):
    for term in KEPT_TERMS:
        text = text.replace(term, "")
    return VIETNAMESE.findall(text)


@pytest.mark.parametrize(
    ("vietnamese", "english"),
    [
        ("5 lá", "5 cards"),
        ("1 lá", "1 card"),
        ("cóng: 13 lá ×2", "cóng: 13 cards ×2"),
        ("cóng: 13 lá ×3/2", "cóng: 13 cards ×3/2"),
        ("5 lá + 2♥ + tứ quý thối", "5 cards + thối (2♥, four of a kind)"),
        ("2♠ + 2 3 đôi thông thối", "thối (2♠, 2 × 3 consecutive pairs)"),
        ("tới trắng: 6 đôi", "tới trắng: six pairs"),
        ("tới trắng: sảnh rồng + 2♦ thối", "tới trắng: dragon (3 to A straight) + thối (2♦)"),
        ("bét → nhất", "last → 1st"),
        ("cóng → nhì", "cóng → 2nd"),
        ("chặt: 2♥", "chop: 2♥"),
        ("chặt: đôi heo 2♠ 2♥", "chop: pair of 2s 2♠ 2♥"),
        ("chặt chồng: 3 đôi thông + tứ quý", "counter-chop: 3 consecutive pairs + four of a kind"),
        ("đền thay Bình: 7 lá", "đền for Bình: 7 cards"),
        ("đền thay Anh: Tú: cóng: 13 lá ×2", "đền for Anh: Tú: cóng: 13 cards ×2"),
        ("kết 3♠", "finish on 3♠"),
        ("chặn kết 3♠", "blocked 3♠ finish"),
        ("cóng cả làng", "cóng cả làng (pays everyone)"),
    ],
)
def test_it_says_each_explanation_in_english(vietnamese, english):
    assert engine.detail_text(vietnamese, "en") == english
    assert engine.detail_text(vietnamese, "vi") == vietnamese


@pytest.mark.parametrize("unknown", ["", "lý do lạ", "5 lá + ??? thối", "chặt: bài lạ"])
def test_it_leaves_an_explanation_it_does_not_know_unchanged(unknown):
    assert engine.detail_text(unknown, "en") == unknown


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_every_explanation_the_engine_writes_has_an_english_form(preset):
    rules = engine.PRESETS[preset]
    rng = random.Random(preset)
    checked = 0
    for _ in range(400):
        record = random_record(rules, rng, ("An", "Bình", "Chi", "Dũng"))
        result = engine.score_game(rules, engine.parse_record(record, rules), 60_000)
        for transfer in result.transfers:
            checked += 1
            english = engine.detail_text(transfer.detail, "en")
            for name in record["players"]:
                english = english.replace(name, "")
            assert not _still_vietnamese(english), (transfer.detail, english)
    assert checked > 400, "the random games paid something to explain"


def test_every_play_and_hand_has_an_english_name():
    for code in engine.PLAYS:
        assert not _still_vietnamese(engine.play_label(code, "en"))
    for code in engine.HANDS:
        assert not _still_vietnamese(engine.hand_label(code, "en"))
    assert engine.play_label("doi_heo") == "đôi heo"
