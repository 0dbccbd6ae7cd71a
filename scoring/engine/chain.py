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
    """Whether an entry or its model is a sitting's (``HistoryEntry``, the migration's too)."""
    return bool(entry._meta.model_name == "historyentry")


#: A sitting's entry as ``values_list`` reads it, in the order :func:`sitting_fields` takes it
#: (``verify_ledger`` reads whole books so, without building a model object per entry).
SITTING_COLUMNS = (
    "action",
    "username",
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

    Only what a person can see, the same on any server: who by their username (as it was
    when the entry was written, ``username``), and what it concerns by its number in the
    book. A sitting's entry names its game by number, its settlement by its number among
    the sitting's settlements and the entry it undoes by its place in the history; a group's
    entry names its settlement by its number among the group-wide settlements and its period
    close by its number among the group's closes. No row id: a group moved to another server
    (``export_group --format archive``, ``import_group``) keeps its fingerprint."""
    numbers = _numbers(entry)
    if is_sittings(entry):
        # The columns a streamed check reads, with what it turns into numbers already so.
        given = {
            "game__number": entry.game.number if entry.game_id is not None else None,
            "settlement_id": numbers["settlement"],
            "undoes_id": numbers["undoes"],
        }
        return sitting_fields(
            [given[c] if c in given else getattr(entry, c) for c in SITTING_COLUMNS]
        )
    return {
        "action": entry.action,
        "user": entry.username or None,
        "at": when(entry.at),
        "before": entry.before,
        "after": entry.after,
        "note": entry.note,
        "note_code": entry.note_code,
        "note_params": entry.note_params,
        "settlement": numbers["settlement"],
        "period": numbers["period"],
    }


def sitting_fields(row: Sequence[Any]) -> dict[str, Any]:
    """A sitting's entry as the chain covers it, from its :data:`SITTING_COLUMNS` with the
    settlement and the undone entry already turned into their numbers in the book (the
    settlement's among the sitting's, the undone entry's place in the history)."""
    action, user, at, before, after, note, code, params, game, revision, settlement, undoes = row
    return {
        "action": action,
        "user": user or None,
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


def _numbers(entry: Any) -> dict[str, int | None]:
    """The numbers within its book of what an entry points at, counted from 1 in id order:
    read once for a whole book by :func:`entries`, or counted here for one entry."""
    known = getattr(entry, "chain_numbers", None)
    if known is not None:
        return dict(known)
    model = type(entry)
    sittings = is_sittings(entry)
    book = {"sitting_id": entry.sitting_id} if sittings else {"group_id": entry.group_id}

    def count(name: str, key: int | None, within: dict[str, Any]) -> int | None:
        if key is None:
            return None
        related = model._meta.get_field(name).related_model
        return int(related._default_manager.filter(**within, pk__lte=key).count())

    numbers = {"settlement": count("settlement", entry.settlement_id, book)}
    if sittings:
        numbers["undoes"] = count("undoes", entry.undoes_id, book)
    else:
        numbers["period"] = count("period", entry.period_id, book)
    entry.chain_numbers = numbers
    return dict(numbers)


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


def seal(covers: Mapping[str, Any]) -> str:
    """A group's seal: the SHA-256 (hex) of the canonical JSON of what its fingerprint covers
    (:func:`group_covers`), its head standing for all of the group."""
    return hashlib.sha256(b"group-seal\n" + canonical(covers)).hexdigest()


def group_covers(
    history: str,
    sittings: Iterable[tuple[str, str, str]],
    players: Iterable[tuple[str, int | None, str, str, str]],
) -> dict[str, Any]:
    """What a group's fingerprint covers, every fact that moves money or names who gets it:

    - ``history``: the head of the group's own book (its settlements, closes and the balances
      each close carried, merges, moves, renames);
    - ``sittings``: every sitting it holds, in the order they were made, as ``[name, date,
      head]`` (the head of the sitting's own book: its games, payments and settlements);
    - ``players``: every player, by name (then by when they were made), as ``[name, merged into (the
      number of the player in this list, from 1) or null, bank_bin, bank_account,
      bank_holder]``: who is paid, and into which account.

    Numbers and names, no row id: the same group on another server covers the same."""
    return {
        "history": history,
        "sittings": [list(s) for s in sittings],
        "players": [list(p) for p in players],
    }


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
    return hashes_newest_first(model, key).first() or ""


def hashes_newest_first(model: type[ChainedHistory], key: Any) -> Any:
    """The hashes of one book, newest first (a query; ``key`` may be an ``OuterRef``, the
    first of them a column of a query of sittings or groups)."""
    return (
        model._default_manager.filter(**{f"{model.chain_of}_id": key})
        .order_by("-id")
        .values_list("hash", flat=True)
    )


def link_all(entries: Sequence[ChainedHistory], head: str | None = None) -> None:
    """Set the hash of new entries, in order, each after its book's current head.

    Called by the models as they insert (``save``, ``bulk_create``), inside the write's
    transaction and under the lock its service holds on the sitting or group row. An entry's
    ``username`` is filled from its user first: the name is what the chain covers. ``head``:
    the book's head as the write read it under that lock, when the entries are of one book
    (otherwise it is read here)."""
    heads: dict[tuple[type, int], str] = {}
    if head is not None and len({(type(e), _key(e)) for e in entries}) > 1:
        raise ValueError("one head given for entries of several books")
    for entry in entries:
        if not entry.username and entry.user_id is not None:
            entry.username = entry.user.get_username()
        model = type(entry)
        key = (model, _key(entry))
        if key not in heads:
            heads[key] = head_of(model, key[1]) if head is None else head
        entry.hash = link(heads[key], canonical(fields(entry)))
        heads[key] = entry.hash


def entries(model: type[Any], key: int) -> list[Any]:
    """One book's entries in chain order (oldest first), ready for :func:`fields`: each
    knows the numbers in the book of what it points at (three queries for the whole book)."""
    sittings = is_sittings(model)
    book = {"sitting_id": key} if sittings else {"group_id": key}
    rows = model._default_manager.filter(**book).order_by("id")
    if sittings:
        # The game's number, not its record: a thousand records decoded for nothing cost a
        # tenth of a 1 000-game check.
        concrete = [f.attname for f in model._meta.concrete_fields]
        rows = rows.select_related("game").only(*concrete, "game__number")
    found = list(rows)

    def numbered(name: str) -> dict[int, int]:
        related = model._meta.get_field(name).related_model
        ids = related._default_manager.filter(**book).order_by("id").values_list("id", flat=True)
        return {pk: n for n, pk in enumerate(ids, 1)}

    settlements = numbered("settlement")
    if sittings:
        places = {entry.pk: n for n, entry in enumerate(found, 1)}
    else:
        periods = numbered("period")
    for entry in found:
        numbers = {"settlement": settlements.get(entry.settlement_id)}
        if sittings:
            numbers["undoes"] = places.get(entry.undoes_id)
        else:
            numbers["period"] = periods.get(entry.period_id)
        entry.chain_numbers = numbers
    return found


def rechain(model: type[Any], key: int) -> str:
    """Compute and store the hashes of a whole book from its first entry; its head.

    For the migrations that brought the chain (rows written before it had none) and that
    changed what it covers (ids to numbers and names, ``0016_chain_without_ids``), and
    nothing else: rewriting hashes is what the chain exists to make visible."""
    head = ""
    changed = []
    for entry in entries(model, key):
        head = link(head, canonical(fields(entry)))
        if entry.hash != head:
            entry.hash = head
            changed.append(entry)
    model._default_manager.bulk_update(changed, ["hash"], batch_size=500)
    return head
