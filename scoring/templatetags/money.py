"""Đồng the Vietnamese way: ``{{ x|vnd }}`` → 245.000 ₫, ``{{ x|vnd_short }}`` → 245k."""

import json

from django import template
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring import engine
from scoring.charts import format_vnd, format_vnd_short

register = template.Library()


@register.filter
def vnd(value: int | None) -> str:
    return "" if value is None else format_vnd(int(value))


@register.filter
def vnd_short(value: int | None) -> str:
    return "" if value is None else format_vnd_short(int(value))


@register.filter
def signed_class(value: int | None) -> str:
    """A CSS class for a balance: pos, neg or zero."""
    if not value:
        return "zero"
    return "pos" if value > 0 else "neg"


REASON_LABELS = {
    "cards": _("lá còn lại"),
    "cong": _("cóng"),
    "placement": _("xếp hạng"),
    "thoi": _("thối"),
    "chat": _("chặt"),
    "toi_trang": _("tới trắng"),
    "den": _("đền"),
    "ket_3_bich": _("kết 3 bích"),
    "chan_ket_3_bich": _("chặn kết 3 bích"),
}


@register.filter
def reason_label(code: str) -> str:
    """A payment's reason code in words (the code itself stays in exports)."""
    return str(REASON_LABELS.get(code, code))


@register.filter
def as_json(value: object) -> str:
    """A stored record as people read JSON: indented, accents kept (never Python's repr)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


@register.filter
def note(text: str) -> str:
    """A history note or void reason: the ledger's own notes in the reader's language, what a
    person typed as they typed it."""
    from scoring.services import SYSTEM_NOTES

    return gettext(text) if text in SYSTEM_NOTES else text


def _lang() -> str:
    return "en" if (get_language() or "vi").startswith("en") else "vi"


@register.filter
def detail(text: str) -> str:
    """A payment's explanation (stored as the engine wrote it, in Vietnamese) in the reader's
    language."""
    return engine.detail_text(text, _lang())
