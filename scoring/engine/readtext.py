"""Text people see: names, sitting names, void reasons, rule-set names. Honest on every screen.

One place decides what a shown text may hold (docs/names.md says the same for users):

* it is stored in Unicode NFC, so ``Bình`` typed as one letter per character and ``Bình`` typed
  as ``i`` plus combining marks (what some phones and macOS send) are the same name;
* runs of whitespace become one space, and the ends are trimmed;
* control and format characters are refused, with the character named: C0/C1 controls (NUL,
  BEL, …), the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C)
  that can make ``Bình −12k`` display as ``Bình k21−``, zero-width characters (U+200B–U+200D,
  U+2060, U+FEFF), the soft hyphen, and unpaired surrogates a database cannot store;
* more than two combining marks on one letter is refused (Vietnamese needs at most two, and
  piles of marks spill over the lines around them).

Two names are *confusable* when their :func:`skeleton` is equal: the same after case-folding,
NFKC (full-width and mathematical letters become plain ones), dropping every mark (accents,
Vietnamese tones and vowel marks; ``đ`` reads as ``d``) and mapping Cyrillic and Greek letters
that look like Latin ones to those (``А`` Cyrillic → ``a``). So ``Án`` looks like ``An``, and
so do ``Bình`` and ``Binh``: on a small screen beside an amount a mark is easy to miss, and a
table tells two such players apart by a longer name (docs/names.md weighs this). One skeleton
serves a sitting's members, a group's players and the usernames of the site.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .problems import Problem

# Each Latin letter and its look-alikes, after case-folding (so the capital's look-alike counts
# too): Cyrillic, Greek, and Latin letters that pass for others (đ's stroke is a mark like any
# other here).
_PASS_FOR = {
    "a": "аαɑ",
    "b": "вьβ",
    "c": "с",
    "d": "ԁđð",
    "e": "еёε",
    "g": "ɡ",
    "h": "һнη",
    "i": "іїιı",
    "j": "ј",
    "k": "кκ",
    "l": "ӏℓ",
    "m": "мμ",
    "n": "ν",
    "o": "оο",
    "p": "рρ",
    "q": "ԛ",
    "r": "г",
    "s": "ѕ",
    "t": "тτ",
    "u": "υ",
    "w": "ԝ",
    "x": "хχ",
    "y": "уγ",
    "z": "ζ",
}
_LOOKALIKES = str.maketrans({fake: latin for latin, fakes in _PASS_FOR.items() for fake in fakes})
_MAX_MARKS = 2


def normalise(value: str) -> str:
    """NFC, whitespace collapsed and trimmed (nothing refused: see :func:`text_problem`)."""
    return " ".join(unicodedata.normalize("NFC", value).split())


def _bad_char(ch: str) -> bool:
    category = unicodedata.category(ch)
    # Cc: controls (whitespace ones are gone after normalise); Cf: format (bidi, zero-width,
    # soft hyphen, tags); Cs: lone surrogates.
    return category in ("Cc", "Cf", "Cs")


def text_problem(value: str, path: str = "") -> Problem | None:
    """The first thing that makes ``value`` unsafe to show, or None. Whitespace of any kind
    is not a problem: :func:`normalise` turns it into single spaces."""
    for ch in value:
        if not ch.isspace() and _bad_char(ch):
            name = unicodedata.name(ch, "") or "control"
            return Problem(
                path,
                "hidden_character",
                {"char": f"U+{ord(ch):04X}", "name": name, "value": shown(value)},
            )
    marks = 0
    for ch in unicodedata.normalize("NFC", value):
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > _MAX_MARKS:
            return Problem(path, "too_many_marks", {"value": shown(value), "max": _MAX_MARKS})
    return None


def shown(value: str) -> str:
    """``value`` quoted for a message, hidden characters written as ``U+XXXX``."""
    text = "".join(
        f"U+{ord(ch):04X}" if _bad_char(ch) or not ch.isprintable() else ch for ch in value
    )
    return f"“{text}”" if len(text) <= 40 else f"“{text[:37]}…”"


def skeleton(value: str) -> str:
    """What ``value`` looks like, for comparing names: equal skeletons look the same."""
    text = unicodedata.normalize("NFKC", normalise(value).casefold())
    text = unicodedata.normalize("NFD", text).translate(_LOOKALIKES)
    return "".join(ch for ch in text if not _bad_char(ch) and not unicodedata.combining(ch))


def confusable_pairs(names: Iterable[str]) -> list[tuple[str, str]]:
    """(name, earlier name) for each name that looks like an earlier one without being the
    same name (ignoring case, which the callers already treat as the same person)."""
    seen: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for name in names:
        key = skeleton(name)
        earlier = seen.get(key)
        if earlier is None:
            seen[key] = name
        elif normalise(earlier).casefold() != normalise(name).casefold():
            pairs.append((name, earlier))
    return pairs


def confusable_problem(name: str, other: str, path: str = "") -> Problem:
    return Problem(path, "confusable_name", {"name": shown(name), "other": shown(other)})
