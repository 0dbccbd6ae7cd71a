"""What the ledger stores as codes, in the reader's words.

The ledger keeps no sentence it wrote itself: a payment's explanation is the engine's code and
parameters (``Payment.detail_code``, ``detail_params``; their words are
``scoring.engine.words``). This module says them in the active language, for pages, exports
and the admin alike. It sits low (Django's translation, the engine, nothing of the ledger or
the services), so every layer above can word what it shows without importing another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import words
from scoring.text import engine_language


def payment_words(code: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """A payment's explanation in ``lang`` (by default the active language)."""
    return words.explain(code, params, lang or engine_language())
