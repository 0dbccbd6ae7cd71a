"""``verify_ledger``'s check, also the owner's "Kiểm tra sổ" page: a book against its chain.

A sitting: its history's hash chain recomputed entry by entry; then every derived row against
what replaying that history gives (``scoring.ledger.replay``): each game's current record,
revision and status, its current payments and seats as the engine computes them from that
record under the sitting's frozen rules and stake (and summing to zero), and every
settlement. A group: its own chain and group-wide settlements, then each of its sittings.
The first disagreement is named in one line; nothing in the database makes it raise.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring import chain, engine
from scoring.ledger import replay
from scoring.ledger.replay import Mismatch
from scoring.models import (
    Game,
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    Payment,
    Seat,
    Settlement,
    Sitting,
)


@dataclass(frozen=True)
class Verdict:
    """The book's fingerprint (its head, as the chain stands) and the first mismatch."""

    fingerprint: str
    mismatch: Mismatch | None
    entries: int
    games: int = 0

    @property
    def ok(self) -> bool:
        return self.mismatch is None


def fingerprint_of(book: Sitting | Group) -> str:
    """The short fingerprint of a sitting's or a group's head, as stored (one query)."""
    model = HistoryEntry if isinstance(book, Sitting) else GroupHistoryEntry
    return chain.fingerprint(chain.head_of(model, book.pk))


def verify_sitting(sitting: Sitting) -> Verdict:
    try:
        return _verify_sitting(sitting)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        # A row no writer of the site could have left (a column set by hand to nonsense).
        return Verdict("—", Mismatch(_("Sổ có dữ liệu không đọc được: %(e)s") % {"e": error}), 0)


def _verify_sitting(sitting: Sitting) -> Verdict:
    rows = chain.entries(HistoryEntry, sitting.pk)
    items = [(chain.fields(e), e.hash) for e in rows]
    head, broken = replay.chain_mismatch(items)
    fingerprint = chain.fingerprint(head if broken is None else rows[-1].hash)
    if broken is not None:
        return Verdict(fingerprint, broken, len(rows))
    book = replay.replay(data for data, _hash in items)
    try:
        prices = engine.Prices(engine.ruleset_from_dict(sitting.rules), sitting.stake)
    except (engine.InvalidRuleSet, engine.InvalidRecord, TypeError, ValueError, KeyError):
        return Verdict(fingerprint, Mismatch(_("Luật của bàn không đọc được.")), len(rows))

    payments: dict[int, list[tuple[str, str, int, str]]] = defaultdict(list)
    for game_id, *payment in (
        Payment.objects.current()
        .filter(game__sitting=sitting)
        .values_list("game_id", "payer__name", "payee__name", "amount", "reason")
    ):
        payments[game_id].append(tuple(payment))  # type: ignore[arg-type]
    seats: dict[int, list[tuple[str, int, int | None, bool, int, int]]] = defaultdict(list)
    for game_id, *seat in Seat.objects.filter(game__sitting=sitting).values_list(
        "game_id", "player__name", "position", "place", "is_cong", "net", "thoi"
    ):
        seats[game_id].append(tuple(seat))  # type: ignore[arg-type]

    games = list(
        sitting.games.order_by("number").values_list("pk", "number", "revision", "record", "status")
    )
    for pk, number, revision, record, status in games:
        found = replay.check_game(
            number,
            book.games.get(number),
            record=record if isinstance(record, dict) else {},
            revision=revision,
            void=status == Game.Status.VOID,
            prices=prices,
            payments=payments.get(pk, []),
            seats=seats.get(pk, []),
        )
        if found is not None:
            return Verdict(fingerprint, found, len(rows), len(games))
    extra = sorted(set(book.games) - {number for _pk, number, *_rest in games})
    if extra:
        return Verdict(fingerprint, replay.game_mismatch(extra[0], "extra"), len(rows), len(games))
    stored = Settlement.objects.filter(sitting=sitting)
    found = _settlements(stored, book)
    return Verdict(fingerprint, found, len(rows), len(games))


def _settlements(stored: Any, book: replay.Book) -> Mismatch | None:
    """Each settlement against its history, in the order they were made (the history names
    a settlement by that number)."""
    rows = list(
        stored.order_by("id").values_list("payer__name", "payee__name", "amount", "is_void")
    )
    for position, (payer, payee, amount, is_void) in enumerate(rows, 1):
        want = book.settlements.get(position)
        if want is None or (payer, payee, amount, is_void) != (
            want.payer,
            want.payee,
            want.amount,
            want.void,
        ):
            return replay.settlement_mismatch(position)
    if any(number not in range(1, len(rows) + 1) for number in book.settlements):
        return replay.settlement_mismatch(len(rows) + 1)
    return None


def verify_group(group: Group, *, sittings: bool = True) -> Verdict:
    """The group's own chain and group-wide settlements, then (``sittings``) each of its
    sittings."""
    try:
        rows = chain.entries(GroupHistoryEntry, group.pk)
        items = [(chain.fields(e), e.hash) for e in rows]
        head, broken = replay.chain_mismatch(items)
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        return Verdict("—", Mismatch(_("Sổ có dữ liệu không đọc được: %(e)s") % {"e": error}), 0)
    fingerprint = chain.fingerprint(head if broken is None else rows[-1].hash)
    if broken is not None:
        return Verdict(fingerprint, broken, len(rows))
    found = _settlements(
        Settlement.objects.filter(group=group), replay.replay(d for d, _h in items)
    )
    if found is not None:
        return Verdict(fingerprint, found, len(rows))
    for sitting in group.sittings.order_by("date", "id") if sittings else []:
        verdict = verify_sitting(sitting)
        if not verdict.ok:
            assert verdict.mismatch is not None
            where = _("Bàn %(name)s (số %(id)d): ") % {"name": sitting.name, "id": sitting.pk}
            return Verdict(fingerprint, Mismatch(where + verdict.mismatch.message), len(rows))
    return Verdict(fingerprint, None, len(rows))


# --- Witnesses --------------------------------------------------------------------------

# Each earlier entry is sent as the first 16 hex digits of its hash: enough for a phone to
# notice a change, a sixth of the bytes.
PREFIX = 16


def head_info(sitting: Sitting) -> dict[str, Any]:
    """The book's length, head and fingerprint, as the live page hands them to a witness."""
    rows = HistoryEntry.objects.filter(sitting=sitting)
    head = chain.head_of(HistoryEntry, sitting.pk)
    return {"count": rows.count(), "head": head, "fingerprint": chain.fingerprint(head)}


def witness(sitting: Sitting, since: int) -> dict[str, Any]:
    """What a phone that has seen the first ``since`` entries needs to check the book only
    grew: every entry's hash *recomputed* from what the database holds now (short, up to
    ``since``), so an entry edited in place shows as changed as surely as one rewritten with
    its hashes; and each later entry in full (its canonical JSON, stored hash, game and time),
    for the phone to chain from the hash it remembers with its own SHA-256."""
    rows = chain.entries(HistoryEntry, sitting.pk)
    since = max(0, min(since, len(rows)))
    head = ""
    earlier: list[str] = []
    later: list[dict[str, Any]] = []
    for position, entry in enumerate(rows, 1):
        data = chain.fields(entry)
        text = chain.canonical(data)
        head = chain.link(head, text)
        if position <= since:
            earlier.append(head[:PREFIX])
        else:
            later.append(
                {
                    "n": position,
                    "hash": entry.hash,
                    "game": data.get("game"),
                    "at": data["at"],
                    "data": text.decode(),
                }
            )
    return {
        "count": len(rows),
        "since": since,
        "earlier": earlier,
        "entries": later,
        "fingerprint": chain.fingerprint(rows[-1].hash if rows else ""),
    }
