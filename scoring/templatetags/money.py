"""Đồng the Vietnamese way: ``{{ x|vnd }}`` → 245.000 ₫, ``{{ x|vnd_short }}`` → 245k."""

import json
from typing import Any

from django import template

from scoring.engine import Transfer
from scoring.models import GroupHistoryEntry, HistoryEntry, Payment
from scoring.text import money
from scoring.text.wording import note_words, payment_words, preset_word, reason_words

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


# A void reason: the ledger's own in the reader's language, what a person typed as typed.
register.filter("note", reason_words)


@register.filter
def entry_note(entry: HistoryEntry | GroupHistoryEntry) -> str:
    """A history entry's note in the reader's language."""
    return note_words(entry.note_code, entry.note_params, entry.note)


@register.filter
def detail(payment: Payment | Transfer) -> str:
    """A payment's explanation (a stored payment's, or the preview's) in the reader's
    language."""
    if isinstance(payment, Payment):
        return payment_words(payment.detail_code, payment.detail_params)
    return payment_words(payment.code, payment.params)


@register.filter
def free_chops(record: Any) -> list[tuple[str, str]]:
    """The chặt of a game's record marked "tới luôn" (the last one chopped went out with the
    chopped play, so the chain costs nothing): (chopper, chopped) for each. They move no
    money, so no payment shows them; the game's row and page name them from the record."""
    chains = record.get("chat") if isinstance(record, dict) else None
    found = []
    for chain in chains if isinstance(chains, list) else []:
        steps = chain.get("steps") if isinstance(chain, dict) else None
        if chain.get("victim_out") and isinstance(steps, list) and len(steps) >= 2:
            found.append((str(steps[-1].get("player", "")), str(steps[-2].get("player", ""))))
    return found


# A preset's name or unit in the reader's language (scoring.text.wording.preset_word).
register.filter("preset_word", preset_word)


@register.filter
def only_games(rows: list[Any]) -> bool:
    """Whether a group's balances are just its games' results: nothing carried in, nothing
    paid. Then "Các bàn" and "Còn lại" would say the same thing twice, so one column shows."""
    return all(row.balance == row.games and not row.opening for row in rows)
