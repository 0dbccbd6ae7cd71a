"""Reading the numbers people type: the one parser behind every form field, query parameter,
command-line argument and rule value that holds a number.

What counts as a digit (docs/numbers.md says the same for users):

* ASCII ``0``–``9`` are digits.
* Full-width forms (``１０００``, ``２００ｋ``: a Chinese or Japanese keyboard types them) are
  read as their ASCII twins: the characters U+FF01–U+FF5E and the ideographic space are
  folded by NFKC, which maps each to one ASCII character, and nothing else is folded.
* Every other character that Unicode calls a number is refused with a message naming it:
  superscripts (``²``), circled (``①``), other scripts' digits (``١٢``, ``१२``), Roman numerals.
  Python's ``int()`` reads some of these and not others, and a number that looks like ``2`` on
  screen but is stored as something else is a trap, so none is guessed at.
* No exponents (``1e309``), no ``inf``/``nan``, no hex, and at most :data:`MAX_DIGITS` digits:
  a number is checked for length before it is turned into an ``int``.

Errors are :class:`NotANumber`, carrying an engine problem code and its parameters, so a form,
the import and the CLI all say the same thing in the user's language.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from .problems import Problem

#: Longest run of digits read; 19 digits hold any PostgreSQL ``bigint``.
MAX_DIGITS = 19
#: Longest text read as a number at all (separators and a unit included).
MAX_TEXT = 40

_MINUS = str.maketrans({"−": "-", "‒": "-", "–": "-", "﹣": "-"})
_FULLWIDTH = re.compile("[\uff01-\uff5e\u3000]")
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?", re.ASCII)
_RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+", re.ASCII)
VULGAR_FRACTIONS: dict[str, Fraction] = {
    "½": Fraction(1, 2),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
}
_MIXED = re.compile(r"([+-]?)\s*([0-9]*)\s*([½¼¾⅓⅔])", re.ASCII)


class NotANumber(ValueError):
    """Text that is not a number this project reads; ``problem()`` says why."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    def problem(self, path: str = "") -> Problem:
        return Problem(path, self.code, dict(self.params))

    def message(self, lang: str = "vi") -> str:
        return self.problem().message(lang)


def _shown(text: str) -> str:
    shown = '"' + "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in text) + '"'
    return shown if len(shown) <= 40 else shown[:37] + "…"


def normalise(text: str, *, allowed: str = "") -> str:
    """``text`` with full-width characters folded to ASCII and minus signs made ``-``.

    Raises :class:`NotANumber` (``foreign_digit``) for any other numeric character, except
    those in ``allowed`` (the vulgar fractions a rule value may hold).
    """
    folded = _FULLWIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    folded = folded.translate(_MINUS)
    for ch in folded:
        if ch.isascii() or ch in allowed:
            continue
        if unicodedata.numeric(ch, None) is not None:
            name = unicodedata.name(ch, f"U+{ord(ch):04X}")
            raise NotANumber("foreign_digit", value=_shown(text), char=ch, name=name)
    return folded


def _bounded(value: int, low: int | None, high: int | None) -> int:
    if low is not None and value < low:
        raise NotANumber("number_too_small", value=_digits(value), low=grouped(low))
    if high is not None and value > high:
        raise NotANumber("number_too_large", value=_digits(value), high=grouped(high))
    return value


def grouped(value: int) -> str:
    """``9.999.999.999.999``: thousands grouped the Vietnamese way, as the messages write đồng."""
    return f"{value:,}".replace(",", ".")


def _digits(value: int) -> str:
    text = grouped(value)
    return text if len(text) <= 32 else f"{text[:16]}…"


def parse_int(text: object, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number typed as text (an ``int`` passes through), within ``low``..``high``.

    Spaces around it are ignored; a ``+`` or ``-`` sign is read; nothing else is.
    """
    if isinstance(text, bool):
        raise NotANumber("not_an_int", value=repr(text))
    if isinstance(text, int):
        return _bounded(text, low, high)
    if not isinstance(text, str):
        raise NotANumber("not_an_int", value=_shown(str(text)))
    if len(text) > MAX_TEXT * 4:
        raise NotANumber("number_too_long", value=_shown(text), digits=MAX_DIGITS)
    clean = normalise(text).strip()
    if not _INT.fullmatch(clean):
        raise NotANumber("not_an_int", value=_shown(text))
    if len(clean.lstrip("+-").lstrip("0")) > MAX_DIGITS:
        raise NotANumber("number_too_long", value=_shown(text), digits=MAX_DIGITS)
    return _bounded(int(clean), low, high)


def read_int(text: object, *, low: int | None = None, high: int | None = None) -> int | None:
    """:func:`parse_int`, or None for anything it refuses (for query parameters and ids,
    where a bad value simply means "not given")."""
    try:
        return parse_int(text, low=low, high=high)
    except NotANumber:
        return None


_MONEY_NOISE = ("₫", "đ", "vnd", "dong", "đồng", " ", "\u00a0", "\u202f", "\u2009", ".", ",", "_")


def parse_money(text: object, *, high: int) -> int:
    """Whole đồng as people type them: ``200000``, ``200.000``, ``200 000 ₫``, ``200k``,
    ``２００ｋ``. Dots, commas and spaces group thousands (đồng have no fractions); a final
    ``k`` means thousands. Between 1 and ``high``."""
    if isinstance(text, int) and not isinstance(text, bool):
        return _bounded(text, 1, high)
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise NotANumber("not_money", value=_shown(str(text)))
    clean = normalise(text).strip().lower()
    for noise in _MONEY_NOISE:
        clean = clean.replace(noise, "")
    factor = 1
    if clean.endswith("k"):
        clean, factor = clean[:-1], 1000
    if not clean.isascii() or not clean.isdigit():
        raise NotANumber("not_money", value=_shown(text))
    if len(clean.lstrip("0")) > MAX_DIGITS:
        raise NotANumber("number_too_large", value=_shown(text), high=grouped(high))
    return _bounded(int(clean) * factor, 1, high)


def parse_fraction(value: object) -> Fraction | None:
    """An exact rule value: an int, ``"a/b"``, ``"1.5"`` (or ``"1,5"``), ``"½"``, ``"1½"``, an
    exact float; None when it is not one. Raises :class:`NotANumber` for foreign digits, so
    the caller can say which character is wrong."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return Fraction(repr(value))
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return None
    text = normalise(value, allowed="".join(VULGAR_FRACTIONS)).strip().replace(",", ".")
    match = _MIXED.fullmatch(text)
    if match:
        sign, whole, frac = match.groups()
        if len(whole) > MAX_DIGITS:
            return None
        amount = int(whole or 0) + VULGAR_FRACTIONS[frac]
        return -amount if sign == "-" else amount
    if _DECIMAL.fullmatch(text) or _RATIO.fullmatch(text):
        if sum(ch.isdigit() for ch in text) > MAX_DIGITS * 2:
            return None
        try:
            return Fraction(text)
        except ZeroDivisionError:
            return None
    return None
