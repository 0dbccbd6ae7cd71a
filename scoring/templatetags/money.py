"""Đồng the Vietnamese way: ``{{ x|vnd }}`` → 245.000 ₫, ``{{ x|vnd_short }}`` → 245k."""

import json
import re

from django import template
from django.utils.translation import gettext, gettext_noop

from scoring import engine, money
from scoring.models import Payment
from scoring.text import engine_language

register = template.Library()


@register.filter
def vnd(value: int | None) -> str:
    return "" if value is None else money.vnd(int(value))


@register.filter
def vnd_short(value: int | None) -> str:
    return "" if value is None else money.vnd_short(int(value))


@register.filter
def signed_class(value: int | None) -> str:
    """A CSS class for a balance: pos, neg or zero."""
    if not value:
        return "zero"
    return "pos" if value > 0 else "neg"


@register.filter
def reason_label(code: str) -> str:
    """A payment's reason code in words (the code itself stays in exports)."""
    return str(Payment.Reason(code).label) if code in Payment.Reason.values else code


@register.filter
def as_json(value: object) -> str:
    """A stored record as people read JSON: indented, accents kept (never Python's repr)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


@register.filter
def note(text: str) -> str:
    """A history note or void reason: the ledger's own notes in the reader's language, what a
    person typed as they typed it."""
    from scoring import services
    from scoring.services import players as services_players

    if text in services.SYSTEM_NOTES or text in services_players.SYSTEM_NOTES:
        return gettext(text)
    merged = _MERGED.fullmatch(text or "")
    if merged:
        return gettext(services_players.MERGE_NOTE) % {"dup": merged[1], "keep": merged[2]}
    return text


# The merge note's Vietnamese form, read back (a name holding " vào " splits at the last one).
_MERGED = re.compile(r"Gộp (.+) vào (.+?)")


@register.filter
def detail(text: str) -> str:
    """A payment's explanation (stored as the engine wrote it, in Vietnamese) in the reader's
    language."""
    return engine.detail_text(text, engine_language())


# The presets' names and units, as the engine and older sittings store them (Vietnamese); a
# name or unit a person typed in their own rule set is shown as typed.
PRESET_WORDS = frozenset(
    {
        gettext_noop("Đếm lá"),
        gettext_noop("Nhất nhì ba bét"),
        gettext_noop("Cược"),
        gettext_noop("Điểm"),
        gettext_noop("Đếm lá 26 (kết 3 bích)"),
        gettext_noop("lá"),
        gettext_noop("phần"),
        gettext_noop("cược"),
        gettext_noop("điểm"),
    }
)


@register.filter
def preset_word(text: str) -> str:
    """A preset's name or unit in the reader's language."""
    return gettext(text) if text in PRESET_WORDS else text


@register.filter
def only_games(rows: list[dict[str, int]]) -> bool:
    """Whether a group's balances are just its games' results: nothing carried in, nothing
    paid. Then "Các bàn" and "Còn lại" would say the same thing twice, so one column shows."""
    return all(row["balance"] == row["games"] and not row.get("opening") for row in rows)
