"""The hash chain of a book: a sitting's history, or a group's.

Each entry's ``hash`` is the SHA-256 of the previous entry's hash (hex; empty for the first
entry), a newline, and the entry's canonical JSON (:func:`canonical`). Changing any entry
changes its hash and every hash after it; the head's short form (:func:`fingerprint`) is
what the pages, printouts and exports show, and what a witness's phone remembers.

Everything here but :func:`link_all` and :func:`entries` is plain Python: a session file is
checked with it offline (``verify_session``), and ``static/js/witness.js`` computes the same
hash in the browser.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

# An entry of either book (``scoring.models.ChainedHistory``), or its model. Not imported: the
# models call this module as they insert, so it sits below them and knows them only by shape.
ChainedHistory = Any

# Crockford's base 32: no I, L, O or U, so a fingerprint read aloud is not misheard.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def when(at: datetime) -> str:
    """An entry's time as the chain spells it: UTC, to the microsecond."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def is_sittings(entry: Any) -> bool:
    """Whether an entry is a sitting's (``HistoryEntry``, the migration's copy included)."""
    return bool(entry._meta.model_name == "historyentry")


#: A sitting's entry as ``values_list`` reads it, in the order :func:`sitting_fields` takes it
#: (``verify_ledger`` reads whole books so, without building a model object per entry).
SITTING_COLUMNS = (
    "action",
    "user_id",
    "at",
    "before",
    "after",
    "note",
    "note_code",
    "note_params",
    "game__number",
    "revision",
    "settlement_id",
    "undoes_id",
)


def fields(entry: Any) -> dict[str, Any]:
    """The entry as the chain covers it: every field, listed here and nowhere else.

    A sitting's entry names its game by number (what a session file knows it by) and its
    settlement, user and undone entry by id; a group's entry names its sitting, settlement
    and period by id."""
    if is_sittings(entry):
        number = entry.game.number if entry.game_id is not None else None
        columns = [number if c == "game__number" else getattr(entry, c) for c in SITTING_COLUMNS]
        return sitting_fields(columns)
    return {
        "action": entry.action,
        "user": entry.user_id,
        "at": when(entry.at),
        "before": entry.before,
        "after": entry.after,
        "note": entry.note,
        "note_code": entry.note_code,
        "note_params": entry.note_params,
        "sitting": entry.sitting_id,
        "settlement": entry.settlement_id,
        "period": entry.period_id,
    }


def sitting_fields(row: Sequence[Any]) -> dict[str, Any]:
    """A sitting's entry as the chain covers it, from its :data:`SITTING_COLUMNS`."""
    action, user, at, before, after, note, code, params, game, revision, settlement, undoes = row
    return {
        "action": action,
        "user": user,
        "at": when(at),
        "before": before,
        "after": after,
        "note": note,
        "note_code": code,
        "note_params": params,
        "game": game,
        "revision": revision,
        "settlement": settlement,
        "undoes": undoes,
    }


def canonical(data: Mapping[str, Any]) -> bytes:
    """The one JSON spelling of an entry's fields: sorted keys, no spaces, UTF-8."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def link(previous: str, data: bytes) -> str:
    """The hash of an entry whose canonical JSON is ``data``, after ``previous``."""
    return hashlib.sha256(previous.encode() + b"\n" + data).hexdigest()


def fingerprint(head: str) -> str:
    """The head's short form, ``7F3K-9QX2``: its first 40 bits in Crockford's base 32
    (``—`` for an empty book)."""
    if not head:
        return "—"
    bits = int(head[:10], 16)
    chars = "".join(_ALPHABET[(bits >> shift) & 31] for shift in range(35, -1, -5))
    return f"{chars[:4]}-{chars[4:]}"


def replay(items: Iterable[tuple[Mapping[str, Any], str]]) -> tuple[str, int | None]:
    """Walk a chain of ``(fields, stored hash)``: the head, and the position of the first
    entry whose stored hash is not what its fields make (None when all agree)."""
    head = ""
    for position, (data, stored) in enumerate(items):
        head = link(head, canonical(data))
        if head != stored:
            return head, position
    return head, None


# --- The database side ------------------------------------------------------------------


def _key(entry: ChainedHistory) -> int:
    return int(getattr(entry, f"{entry.chain_of}_id"))


def head_of(model: type[ChainedHistory], key: int) -> str:
    """The newest hash of one book (a sitting's or a group's), or "" when it is empty."""
    newest = (
        model._default_manager.filter(**{f"{model.chain_of}_id": key})
        .order_by("-id")
        .values_list("hash", flat=True)
        .first()
    )
    return newest or ""


def link_all(entries: Sequence[ChainedHistory]) -> None:
    """Set the hash of new entries, in order, each after its book's current head.

    Called by the models as they insert (``save``, ``bulk_create``), inside the write's
    transaction and under the lock its service holds on the sitting or group row."""
    heads: dict[tuple[type, int], str] = {}
    for entry in entries:
        model = type(entry)
        key = (model, _key(entry))
        if key not in heads:
            heads[key] = head_of(model, key[1])
        entry.hash = link(heads[key], canonical(fields(entry)))
        heads[key] = entry.hash


def entries(model: type[Any], key: int) -> list[Any]:
    """One book's entries in chain order (oldest first), ready for :func:`fields`."""
    chain_of = "sitting" if model._meta.model_name == "historyentry" else "group"
    rows = model._default_manager.filter(**{f"{chain_of}_id": key}).order_by("id")
    if chain_of == "sitting":
        # The game's number, not its record: a thousand records decoded for nothing cost a
        # tenth of a 1 000-game check.
        concrete = [f.attname for f in model._meta.concrete_fields]
        rows = rows.select_related("game").only(*concrete, "game__number")
    return list(rows)


def rechain(model: type[Any], key: int) -> str:
    """Compute and store the hashes of a whole book from its first entry; its head.

    For the migration that brought the chain (rows written before it had none) and nothing
    else: rewriting hashes is what the chain exists to make visible."""
    head = ""
    changed = []
    for entry in entries(model, key):
        head = link(head, canonical(fields(entry)))
        if entry.hash != head:
            entry.hash = head
            changed.append(entry)
    model._default_manager.bulk_update(changed, ["hash"], batch_size=500)
    return head
