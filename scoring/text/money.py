"""Đồng as people read them: ``vnd(245000)`` → "245.000 ₫" (in English "245,000 ₫": each
language groups thousands its own way, as its typing hints show them), ``vnd_short(245000)``
→ "245k".

The one place money is written for a page, a chart, a message or an export (the template
filters ``vnd`` and ``vnd_short`` are these functions). Pure Python with integer arithmetic
only: money is whole đồng, never a float.
"""

from __future__ import annotations

from django.utils.translation import get_language

from scoring.engine.readnumbers import grouped as _engine_group

__all__ = ["MINUS", "NBSP", "group", "vnd", "vnd_short"]

MINUS = "\u2212"
NBSP = "\u00a0"


def group(n: int) -> str:
    """12345678 -> "12.345.678" (Vietnamese thousands separator, as the engine's messages
    write amounts); "12,345,678" when the active language is English."""
    text = _engine_group(n)
    return text.replace(".", ",") if (get_language() or "").startswith("en") else text


def vnd(amount: int) -> str:
    """245000 -> "245.000 ₫", with a non-breaking space and a real minus sign."""
    sign = MINUS if amount < 0 else ""
    return f"{sign}{group(abs(amount))}{NBSP}₫"


_SHORT_UNITS = ((1_000, "k"), (1_000_000, "tr"), (1_000_000_000, "tỷ"))


def vnd_short(amount: int) -> str:
    """Compact money for axes and legends: 245k, 1,2tr (in English 1.2tr), −75k, 3tỷ, 500.

    Exact when the amount is a whole number of the unit; otherwise one
    decimal, rounded half away from zero, with a decimal comma. Rounding that
    reaches 1000 of a unit moves to the next unit (999.999 -> "1tr").
    """
    if amount == 0:
        return "0"
    sign = MINUS if amount < 0 else ""
    a = abs(amount)
    if a < 1_000:
        return f"{sign}{a}"
    i = max(k for k, (unit, _) in enumerate(_SHORT_UNITS) if a >= unit)
    while True:
        unit, suffix = _SHORT_UNITS[i]
        tenth = unit // 10
        tenths = (a + tenth // 2) // tenth
        if tenths >= 10_000 and i + 1 < len(_SHORT_UNITS):
            i += 1
            continue
        whole, decimal = divmod(tenths, 10)
        point = "." if (get_language() or "").startswith("en") else ","
        text = group(whole) + (f"{point}{decimal}" if decimal else "")
        return f"{sign}{text}{suffix}"
