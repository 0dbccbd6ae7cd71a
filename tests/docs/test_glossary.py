"""The game's terms are listed once, in the rules book's glossary (both halves)."""

import re
from pathlib import Path

from scoring.text import rulesbook

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


GLOSSARY = ROOT / "docs" / "glossary.md"


def site_glossary() -> list[tuple[str, str, str]]:
    """(Vietnamese word, its English in the catalogue, where it comes from) of docs/glossary.md."""
    rows = [line for line in GLOSSARY.read_text("utf-8").splitlines() if line.startswith("| ")]
    return [tuple(c.strip() for c in row.strip().strip("|").split("|")) for row in rows[1:]]


def catalogue() -> tuple[str, str]:
    """Every msgid and every msgstr of the English catalogue, each joined into one text."""
    text = (ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text("utf-8")
    ids = " ".join(re.findall(r'^msgid "(.*)"$', text, re.M)).lower()
    strs = " ".join(re.findall(r'^msgstr "(.*)"$', text, re.M)).lower()
    return ids, strs


def test_the_site_glossary_lists_the_words_of_the_sources():
    words = [word for word, _, _ in site_glossary()]
    for word in ("lá rác", "heo", "hàng", "chặt", "chặt chồng", "thối", "cóng", "đền",
                 "tới trắng", "nhất", "bét", "cược"):  # fmt: skip
        assert word in words, word
    assert all(english and source for _, english, source in site_glossary())


def test_every_word_of_the_site_glossary_is_shown_by_the_site_and_translated_as_it_says():
    ids, strs = catalogue()
    book = rulesbook.BOOK.read_text("utf-8").lower()
    for word, english, _ in site_glossary():
        assert word.lower() in ids or word.lower() in book, word
        assert english.lower() in strs, (word, english)
