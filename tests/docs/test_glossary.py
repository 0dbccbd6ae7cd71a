"""The game's terms are listed once, in the rules book's glossary (both halves)."""

import re
from pathlib import Path

from scoring import rulesbook

ROOT = Path(__file__).resolve().parents[2]


def test_both_halves_of_the_book_explain_the_same_terms_in_the_same_order():
    vi, en = rulesbook.glossary("vi"), rulesbook.glossary("en")
    assert len(vi) >= 15
    assert list(vi) == list(en)
    assert all(vi.values()) and all(en.values())


def test_the_terms_the_code_is_named_after_are_in_the_glossary():
    terms = " ".join(rulesbook.glossary("en"))
    for word in (
        "ván",
        "heo",
        "hàng",
        "thối",
        "chặt chồng",
        "cóng",
        "đền",
        "tới trắng",
        "kết 3 bích",
    ):
        assert word in terms, word


def test_no_module_keeps_its_own_copy_of_the_glossary():
    """A module's docstring points at the glossary instead of defining the terms again."""
    definition = re.compile(r"\b(cóng|thối|heo|chặt)\b[^\n]{0,3}[:(] ?(a|an|paying|chopping)\b")
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not definition.search(text), path.relative_to(ROOT)
