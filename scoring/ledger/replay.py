"""What a sitting's history says its book holds, and where a book disagrees with it.

Plain Python and the engine, no database: ``verify_ledger`` (``scoring.ledger.verify``) feeds
it the rows it reads, ``verify_session`` the entries of a session file.

Replaying a sitting's history, oldest first:

* ``recorded`` / ``edited``: the game's record is the entry's ``after``, at its revision (an
  edit leaves it voided or counted as it was);
* ``voided`` / ``restored``: the game is out of / back in the totals;
* ``settled``: a settlement of ``after["amount"]`` from ``after["from"]`` to ``after["to"]``;
  ``settlement_voided``: that settlement no longer counts;
* ``members`` with ``after["renamed"]`` (a player merged into another): every record and
  settlement so far names the kept player instead;
* any other action moves no money and leaves the book as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain


@dataclass
class GameState:
    record: dict[str, Any]
    revision: int
    void: bool = False


@dataclass
class SettlementState:
    payer: str
    payee: str
    amount: int
    void: bool = False


@dataclass
class Book:
    """What the history says: games by number, settlements in the order they were made
    (keyed by the settlement's number in the entries: its place in the book, from 1)."""

    games: dict[int, GameState] = field(default_factory=dict)
    settlements: dict[Any, SettlementState] = field(default_factory=dict)


@dataclass(frozen=True)
class Mismatch:
    """The first thing that disagrees, as one line in the reader's language."""

    message: str
    game: int | None = None
    entry: int | None = None  # position in the chain, from 1


def replay(entries: Iterable[Mapping[str, Any]]) -> Book:
    """The book a sitting's history (entries' fields, oldest first) leaves."""
    book = Book()
    for data in entries:
        action = data.get("action")
        after = data.get("after")
        number = data.get("game")
        if action in ("recorded", "edited") and isinstance(number, int):
            if isinstance(after, dict):
                # An edit keeps the game's status: a voided game can be corrected and stays out.
                earlier = book.games.get(number)
                void = earlier.void if earlier is not None and action == "edited" else False
                book.games[number] = GameState(dict(after), int(data.get("revision") or 1), void)
        elif action in ("voided", "restored") and number in book.games:
            book.games[number].void = action == "voided"
        elif action == "settled" and isinstance(after, dict):
            book.settlements[data.get("settlement")] = SettlementState(
                str(after.get("from")), str(after.get("to")), int(after.get("amount") or 0)
            )
        elif action == "settlement_voided" and data.get("settlement") in book.settlements:
            book.settlements[data.get("settlement")].void = True
        elif action in ("members", "players_merged"):
            renamed = _renamed(data)
            if renamed:
                for game in book.games.values():
                    game.record = engine.rename_players(game.record, renamed)
                for s in book.settlements.values():
                    s.payer = renamed.get(s.payer, s.payer)
                    s.payee = renamed.get(s.payee, s.payee)
    return book


def _renamed(data: Mapping[str, Any]) -> dict[str, str]:
    """The players a merge renamed: a sitting's ``members`` entry names them in
    ``after["renamed"]``; a group's ``players_merged`` entry has ``before["players"]`` (kept,
    duplicate) and ``after["player"]`` (the kept name)."""
    after, before = data.get("after"), data.get("before")
    if not isinstance(after, dict):
        return {}
    renamed = after.get("renamed")
    if isinstance(renamed, dict):
        return {str(k): str(v) for k, v in renamed.items()}
    if data.get("action") == "players_merged" and isinstance(before, dict):
        names = before.get("players")
        kept = after.get("player")
        if isinstance(names, list) and len(names) == 2 and isinstance(kept, str):
            return {str(names[1]): kept} if names[1] != kept else {}
    return {}


def chain_mismatch(
    items: Sequence[tuple[Mapping[str, Any], str]],
) -> tuple[str, Mismatch | None]:
    """The head of a chain of ``(fields, stored hash)`` and the first entry that breaks it."""
    head, position = chain.replay(items)
    if position is None:
        return head, None
    data = items[position][0]
    return head, Mismatch(entry_changed(position + 1, data), data.get("game"), position + 1)


def entry_changed(position: int, data: Mapping[str, Any]) -> str:
    number = data.get("game")
    at = str(data.get("at") or "")[:19].replace("T", " ")
    if isinstance(number, int):
        text = _("Mục lịch sử #%(n)d (ván %(game)d, %(at)s UTC) đã bị sửa: mã băm không khớp.")
    else:
        text = _("Mục lịch sử #%(n)d (%(at)s UTC) đã bị sửa: mã băm không khớp.")
    return text % {"n": position, "game": number, "at": at}


@dataclass(frozen=True)
class Scored:
    """What the engine makes of a record: payments as (payer, payee, amount, reason), and
    each seat as (name, position, place, cóng, net, thối)."""

    payments: list[tuple[str, str, int, str]]
    seats: list[tuple[str, int, int | None, bool, int, int]]


def score(prices: engine.Prices, record: Mapping[str, Any]) -> Scored:
    """Score a record the way the services store it (``services.games._write_result``), at
    the prices (rules and stake) made once for the whole book."""
    rules = prices.rules
    parsed = engine.parse_record(record, rules)
    result = engine.score_game(rules, parsed, prices.stake, prices=prices)
    canonical = engine.record_to_dict(parsed)
    finish = canonical.get("finish") or []
    cong = set(canonical.get("cong") or [])
    seats = [
        (
            name,
            position,
            (finish.index(name) + 1) if name in finish else None,
            name in cong,
            result.net[name],
            result.thoi.get(name, 0),
        )
        for position, name in enumerate(canonical["players"])
    ]
    payments = sorted((t.payer, t.payee, t.amount, t.reason) for t in result.transfers)
    return Scored(payments, seats)


def game_mismatch(number: int, kind: str) -> Mismatch:
    messages = {
        "missing": _("Ván %(n)d không có trong lịch sử."),
        "extra": _("Lịch sử có ván %(n)d nhưng sổ không có."),
        "record": _("Ván %(n)d: chi tiết ván khác với lịch sử."),
        "revision": _("Ván %(n)d: lần sửa khác với lịch sử."),
        "status": _("Ván %(n)d: trạng thái (tính tiền / đã huỷ) khác với lịch sử."),
        "unscorable": _("Ván %(n)d: chi tiết ván không tính được theo luật của bàn."),
        "payments": _("Ván %(n)d: các khoản trả khác với cách luật của bàn tính."),
        "seats": _("Ván %(n)d: tiền từng người khác với cách luật của bàn tính."),
        "sum": _("Ván %(n)d: tổng tiền không bằng 0."),
    }
    return Mismatch(messages[kind] % {"n": number}, game=number)


def settlement_mismatch(position: int) -> Mismatch:
    return Mismatch(
        _("Khoản thanh toán thứ %(n)d khác với lịch sử (người trả, người nhận, số tiền "
          "hoặc đã huỷ).") % {"n": position}
    )  # fmt: skip


def check_game(
    number: int,
    expected: GameState | None,
    *,
    record: Mapping[str, Any],
    revision: int | None,
    void: bool,
    prices: engine.Prices,
    payments: Sequence[tuple[str, str, int, str]] | None = None,
    seats: Sequence[tuple[str, int, int | None, bool, int, int]] | None = None,
    scorer: Callable[[Mapping[str, Any]], Scored] | None = None,
) -> Mismatch | None:
    """One stored game against the history (and, given its stored payments and seats,
    against the engine; ``scorer`` scores the record when given, :func:`score` at
    ``prices`` otherwise)."""
    if expected is None:
        return game_mismatch(number, "missing")
    if dict(record) != expected.record:
        return game_mismatch(number, "record")
    if revision is not None and revision != expected.revision:
        return game_mismatch(number, "revision")
    if void != expected.void:
        return game_mismatch(number, "status")
    if payments is None and seats is None:
        return None
    try:
        scored = scorer(record) if scorer is not None else score(prices, record)
    except engine.InvalidRecord:
        return game_mismatch(number, "unscorable")
    if payments is not None and sorted(payments) != scored.payments:
        return game_mismatch(number, "payments")
    if seats is not None:
        if sorted(seats, key=lambda s: s[1]) != scored.seats:
            return game_mismatch(number, "seats")
        if sum(s[4] for s in seats) != 0:
            return game_mismatch(number, "sum")
    return None


# --- A session file ---------------------------------------------------------------------


@dataclass(frozen=True)
class FileCheck:
    fingerprint: str
    mismatch: Mismatch | None


def check_session_file(data: Any) -> FileCheck:
    """A session file (``export_session --format json``) against its own history: the chain,
    its fingerprint, and that replaying the history gives the file's games and settlements.
    No database; never raises on what the file holds."""
    if not isinstance(data, dict):
        return FileCheck("—", Mismatch(_("Tệp không phải là một tệp bàn (JSON object).")))
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(e, dict) for e in history):
        return FileCheck("—", Mismatch(_('Tệp không có lịch sử ("history") để kiểm tra.')))
    items = [({k: v for k, v in e.items() if k != "hash"}, str(e.get("hash"))) for e in history]
    try:
        head, broken = chain_mismatch(items)
    except (TypeError, ValueError):
        return FileCheck("—", Mismatch(_("Lịch sử trong tệp có mục không đọc được.")))
    fingerprint = chain.fingerprint(head)
    if broken is not None:
        return FileCheck(fingerprint, broken)
    if data.get("fingerprint") != fingerprint:
        return FileCheck(
            fingerprint,
            Mismatch(_("Mã sổ trong tệp (%(f)s) không khớp với lịch sử (%(h)s).")
                     % {"f": data.get("fingerprint"), "h": fingerprint}),
        )  # fmt: skip
    try:
        return FileCheck(fingerprint, _check_file_book(data, [d for d, _h in items]))
    except (TypeError, ValueError, KeyError, AttributeError):
        return FileCheck(fingerprint, Mismatch(_("Tệp có phần không đọc được.")))


def _check_file_book(data: dict[str, Any], entries: list[dict[str, Any]]) -> Mismatch | None:
    book = replay(entries)
    games = data.get("games")
    if not isinstance(games, list):
        return Mismatch(_('Tệp không có danh sách ván ("games").'))
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, str | dict):
        return Mismatch(_("Luật trong tệp không đọc được."))
    try:
        rules = engine.load_rules(raw_rules)
    except (engine.InvalidRuleSet, TypeError, ValueError):
        return Mismatch(_("Luật trong tệp không đọc được."))
    stake = data.get("stake")
    if not isinstance(stake, int) or isinstance(stake, bool):
        return Mismatch(_("Mức tiền trong tệp không đọc được."))
    try:
        prices = engine.Prices(rules, stake)
    except (engine.InvalidRuleSet, engine.InvalidRecord):
        return Mismatch(_("Mức tiền trong tệp không đọc được."))
    for number, game in enumerate(games, 1):
        if not isinstance(game, dict):
            return game_mismatch(number, "record")
        record = {k: v for k, v in game.items() if k not in ("void", "void_reason")}
        found = check_game(
            number, book.games.get(number), record=record, revision=None,
            void=bool(game.get("void")), prices=prices,
        )  # fmt: skip
        if found is not None:
            return found
    extra = sorted(set(book.games) - set(range(1, len(games) + 1)))
    if extra:
        return game_mismatch(extra[0], "extra")
    settlements = data.get("settlements") or []
    for position, (s, want) in enumerate(zip_longest(settlements, book.settlements.values()), 1):
        if (
            not isinstance(s, dict)
            or want is None
            or (s.get("from"), s.get("to"), s.get("amount"), bool(s.get("void")))
            != (want.payer, want.payee, want.amount, want.void)
        ):
            return settlement_mismatch(position)
    return _check_totals(data, book, prices)


def _check_totals(data: dict[str, Any], book: Book, prices: engine.Prices) -> Mismatch | None:
    totals = data.get("totals")
    if not isinstance(totals, dict):
        return None  # a hand-written file may leave them out; the import recomputes them
    balance: Counter[str] = Counter(dict.fromkeys(totals, 0))
    for game in book.games.values():
        if not game.void:
            for seat in score(prices, game.record).seats:
                balance[seat[0]] += seat[4]
    for s in book.settlements.values():
        if not s.void:
            balance[s.payer] += s.amount
            balance[s.payee] -= s.amount
    if {k: v for k, v in balance.items() if v or k in totals} != totals:
        return Mismatch(_("Tổng tiền trong tệp khác với tổng tính lại từ lịch sử."))
    return None
