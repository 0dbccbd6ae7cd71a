"""What the ledger stores as codes, in the reader's words.

The ledger keeps no sentence it wrote itself: a payment's explanation is the engine's code and
parameters (``Payment.detail_code``, ``detail_params``; their words are
``scoring.engine.words``), a history note it writes is a code and parameters
(``note_code``, ``note_params`` of both history models). This module says them in the active
language, for pages, exports and the admin alike. It sits low (Django's translation and the
engine, nothing of the ledger or the services), so every layer above can word what it shows
without importing another.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop, npgettext

from scoring.engine import words
from scoring.text.typed import engine_language


def payment_words(code: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """A payment's explanation in ``lang`` (by default the active language)."""
    return words.explain(code, params, lang or engine_language())


# --- History notes ----------------------------------------------------------------------
# A history entry's note is what a person typed (``note``), or one the ledger writes itself:
# a code and its parameters (``note_code``, ``note_params``), worded here when shown.

UNDO_RECORD_NOTE = gettext_noop("Hoàn tác ghi ván")
UNDO_RESTORE_NOTE = gettext_noop("Hoàn tác khôi phục")
REDO_NOTE = gettext_noop("Làm lại sau khi hoàn tác")
SETTLEMENT_VOID_NOTE = gettext_noop("Ghi nhầm")

#: The ledger's own notes: code → Vietnamese message id (its English is in the catalogue).
NOTES: dict[str, str] = {
    "undo_record": UNDO_RECORD_NOTE,
    "undo_restore": UNDO_RESTORE_NOTE,
    "redo": REDO_NOTE,
    "settlement_void": SETTLEMENT_VOID_NOTE,
    "live_on": gettext_noop("Bật liên kết xem"),
    "live_new": gettext_noop("Tạo liên kết xem mới"),
    "live_off": gettext_noop("Tắt liên kết xem"),
    "merged": gettext_noop("Gộp %(dup)s vào %(keep)s"),
    "moved": gettext_noop("Chuyển từ nhóm “%(src)s” sang nhóm “%(dst)s”"),
    "by_payee": gettext_noop("Người nhận xác nhận qua liên kết riêng"),
    "link_on": gettext_noop("Liên kết riêng: bật"),
    "link_new": gettext_noop("Liên kết riêng: tạo mới"),
    "link_off": gettext_noop("Liên kết riêng: tắt"),
    "join_on": gettext_noop("Bật mã mời cả bàn"),
    "join_new": gettext_noop("Tạo mã mời cả bàn mới"),
    "join_off": gettext_noop("Tắt mã mời cả bàn"),
    "join_claimed": gettext_noop("Nhận tên qua mã mời cả bàn"),
    "join_reset": gettext_noop("Gỡ tên đã chọn qua mã mời cả bàn; tắt liên kết riêng"),
}

#: A void reason the ledger gives itself (an undo's, a settlement voided without one) is
#: stored as its message id: message id → its note code.
VOID_REASONS: dict[str, str] = {
    NOTES[code]: code for code in ("undo_record", "undo_restore", "redo", "settlement_void")
}


def note_words(code: str, params: Mapping[str, Any] | None = None, text: str = "") -> str:
    """A history note in the active language: the ledger's own (``code``), else ``text`` as
    the person typed it. A code this version does not know is shown as the code."""
    if not code:
        return text
    if code not in NOTES:
        return code
    return gettext(NOTES[code]) % dict(params) if params else gettext(NOTES[code])


def reason_words(text: str) -> str:
    """A void reason in the active language: the ledger's own reasons translated, what a
    person typed as they typed it."""
    return gettext(text) if text in VOID_REASONS else text


def void_note(reason: str) -> dict[str, str]:
    """The note fields of a history entry that notes a void reason (``note`` or
    ``note_code``)."""
    code = VOID_REASONS.get(reason)
    return {"note_code": code} if code else {"note": reason}


def reason_of(note: str, code: str) -> str:
    """The void reason a history entry noted (what :func:`void_note` stored), or ""."""
    if note or code not in VOID_REASONS.values():
        return note
    return NOTES[code]


# --- Presets ----------------------------------------------------------------------------

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


def preset_word(text: str) -> str:
    """A preset's name or unit in the reader's language."""
    return gettext(text) if text in PRESET_WORDS else text


#: The penalty table's rows and the choppers, as the rule-set editor and the rules' summary
#: name them.
PENALTY_LABELS = {
    "2S": "2♠",
    "2C": "2♣",
    "2D": "2♦",
    "2H": "2♥",
    "3dt": gettext_lazy("3 đôi thông"),
    "tq": gettext_lazy("Tứ quý"),
    "4dt": gettext_lazy("4 đôi thông"),
}
CHOPPER_LABELS = {
    "3dt": gettext_lazy("3 đôi thông chặt được"),
    "tq": gettext_lazy("Tứ quý chặt được"),
    "4dt": gettext_lazy("4 đôi thông chặt được"),
}


# The presets' units as counted (``preset_unit``): one entry each in the catalogue, under the
# context "đơn vị tính", with its English singular and plural.
PRESET_UNITS = frozenset({"lá", "phần", "cược", "điểm"})


def preset_unit(unit: str, amount: Fraction | int | None = None) -> str:
    """A preset's unit (lá, phần, cược, điểm) in the reader's language, agreeing with
    ``amount``: Vietnamese never inflects ("13 lá"), English says "1 card", "½ card" but
    "13 cards" (the plural with no amount). A unit a person typed in their own rule set is
    shown as typed."""
    if unit not in PRESET_UNITS:
        return unit
    one = amount is not None and amount != 0 and -1 <= amount <= 1
    return npgettext("đơn vị tính", unit, unit, 1 if one else 2)
