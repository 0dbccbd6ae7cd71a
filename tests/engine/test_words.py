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
# The game terms the English interface keeps (docs/glossary.md; longest first, so "cóng cả
# làng" goes whole).
KEPT_TERMS = ("chặn kết 3 bích", "cóng cả làng", "kết 3 bích", "tới trắng", "thối", "cóng", "đền")


def _still_vietnamese(text):
    for term in KEPT_TERMS:
        text = text.replace(term, "")
    return VIETNAMESE.findall(text)


_THOI = {"heo": ["2H"], "tq": 1}


@pytest.mark.parametrize(
    ("code", "params", "vietnamese", "english"),
    [
        ("cards", {"n": 5}, "5 lá", "5 cards"),
        ("cards", {"n": 1}, "1 lá", "1 card"),
        ("cong", {"n": 13, "x": "2"}, "cóng: 13 lá ×2", "cóng: 13 cards ×2"),
        ("cong", {"n": 13, "x": "3/2"}, "cóng: 13 lá ×3/2", "cóng: 13 cards ×3/2"),
        ("cards", {"n": 5, "thoi": _THOI}, "5 lá + thối 2♥ + tứ quý",
         "5 cards + thối (2♥, four of a kind)"),
        ("thoi", {"thoi": {"heo": ["2S"], "3dt": 2}}, "thối 2♠ + 2 bộ 3 đôi thông",
         "thối (2♠, 2 × 3 consecutive pairs)"),
        ("thoi", {"thoi": {"5dt": 1}}, "thối 5 đôi thông", "thối (5 consecutive pairs)"),
        ("two_out", {"n": 13}, "về bằng heo: 13 lá", "went out on a 2: 13 cards"),
        ("two_out", {"n": 1}, "về bằng heo: 1 lá", "went out on a 2: 1 card"),
        ("toi_trang", {"hand": "6_doi"}, "tới trắng: 6 đôi", "tới trắng: six pairs"),
        ("toi_trang", {"hand": "sanh_rong", "thoi": {"heo": ["2D"]}},
         "tới trắng: sảnh rồng + thối 2♦", "tới trắng: dragon (3 to A straight) + thối (2♦)"),
        ("place", {"from": "last", "to": "first"}, "bét → nhất", "last → 1st"),
        ("place", {"from": "cong", "to": "second"}, "cóng → nhì", "cóng → 2nd"),
        ("chat", {"steps": [["heo", ["2H"]]]}, "chặt: 2♥", "chop: 2♥"),
        ("chat", {"steps": [["doi_heo", ["2S", "2H"]]]}, "chặt: đôi heo 2♠ 2♥",
         "chop: pair of 2s 2♠ 2♥"),
        ("chat", {"steps": [["3dt", []], ["tq", []]]}, "chặt chồng: 3 đôi thông + tứ quý",
         "counter-chop: 3 consecutive pairs + four of a kind"),
        ("den", {"player": "Bình", "code": "cards", "params": {"n": 7}}, "đền thay Bình: 7 lá",
         "đền for Bình: 7 cards"),
        ("den", {"player": "Anh: Tú", "code": "cong", "params": {"n": 13, "x": "2"}},
         "đền thay Anh: Tú: cóng: 13 lá ×2", "đền for Anh: Tú: cóng: 13 cards ×2"),
        ("ket_3_bich", {}, "kết 3 bích", "kết 3 bích"),
        ("chan_ket_3_bich", {}, "chặn kết 3 bích", "chặn kết 3 bích"),
        ("cong_ca_lang", {}, "cóng cả làng", "cóng cả làng (pays everyone)"),
        ("text", {"text": "lý do lạ"}, "lý do lạ", "lý do lạ"),
    ],
)  # fmt: skip
def test_it_says_each_explanation_in_both_languages(code, params, vietnamese, english):
    assert engine.explain(code, params, "vi") == vietnamese
    assert engine.explain(code, params, "en") == english


def test_a_transfer_says_its_explanation_in_vietnamese():
    rules = engine.PRESETS["dem-la"]
    record = {"players": ["An", "Bình"], "finish": ["An"], "hands": {"Bình": {"cards": 5}}}
    (transfer,) = engine.score_game(rules, record, 1000).transfers
    assert (transfer.code, transfer.params) == ("cards", {"n": 5})
    assert transfer.detail == "5 lá"


def test_it_refuses_a_code_it_does_not_know():
    with pytest.raises(ValueError, match="lạ"):
        engine.explain("lạ", {"n": 1})


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
            english = engine.explain(transfer.code, transfer.params, "en")
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
