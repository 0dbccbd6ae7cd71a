"""The one file-name helper: every download is named by it."""

from __future__ import annotations

from scoring.text.vietqr import strip_diacritics


def file_name(*parts: str, suffix: str, fallback: str) -> str:
    """An ASCII file name of ``parts``, marks dropped, lower case, anything but letters and
    digits one "-": ("Bàn Đức 16/5", "2026-05-16") -> "ban-duc-16-5-2026-05-16" + ``suffix``
    (``fallback`` when nothing is left)."""
    text = strip_diacritics("-".join(parts))
    clean = "".join(c if c.isascii() and c.isalnum() else "-" for c in text).lower()
    return ("-".join(part for part in clean.split("-") if part) or fallback) + suffix
