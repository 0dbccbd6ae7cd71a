"""The session file: a sitting as one JSON file to take away and import again.

This module owns the format: its version and shape, writing a sitting as a file
(:func:`session_build`, :func:`session_json`), and reading and checking an upload
(:func:`session_read`, :func:`session_check`, nothing written). The session file, version 1::

    {"version": 1,
     "name": "Tối thứ Bảy", "date": "2026-05-16",          # date is optional on import
     "rules": <a preset id, or a rule-set object as stored in the sitting>,
     "stake": 5000,
     "players": ["An", "Bình", "Chi", "Dũng"],             # seating order
     "games": [<game record, docs/record-format.md>, …],           # in order: game n is games[n-1]
     "settlements": [{"from": "An", "to": "Bình", "amount": 200000}, …],
     "totals": {"An": -200000, …},                          # export only
     "settle_up": [{"from": …, "to": …, "amount": …}],     # export only
     "history": [{<the entry's fields>, "hash": …}, …],     # export only, oldest first
     "fingerprint": "7F3K-9QX2"}                            # export only

A voided game keeps its record and carries ``"void": true`` and ``"void_reason"``; so does a
voided settlement. ``totals`` is each player's balance now (games plus settlements, as
``ledger.balances``) and ``settle_up`` the fewest payments that clear them; both are for a
person reading the file. The import recomputes them, ignores ``settle_up`` and only warns
when ``totals`` disagrees. ``history`` is the sitting's whole history, each entry as its hash
chain covers it (``scoring.engine.chain.fields``) with its ``hash``, and ``fingerprint`` the head's
short form: ``manage.py verify_session FILE`` checks the chain and that replaying it gives
the file's games, offline; the import ignores both. Only each game's current record is
imported, so an imported game starts again at revision 1 (the history stays with the
original sitting).

Import is all or nothing: :func:`session_read` turns the bytes into JSON, and
:func:`session_check` reads the whole file without touching the database and reports its
problems (a bad game by its number, counting from 1, and the JSON path of the field, with the
engine's message; the first 50, and how many more). What it returns, a
:class:`CheckedSession`, is what ``scoring.services.bulk_import`` writes, in bulk and in one
transaction, so a failure half-way leaves nothing behind.

The sitting's CSV exports are not session files: they are ``scoring.ledger.sheets``.
"""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as date_type
from decimal import Decimal
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import engine
from scoring.engine import chain, limits, settle
from scoring.engine import readtext as engine_text
from scoring.ledger.sheets import seated_balances
from scoring.models import MAX_GAMES, MAX_MEMBERS, MAX_SETTLEMENTS, HistoryEntry, Sitting
from scoring.text import money
from scoring.text.typed import engine_language

FORMAT_VERSION = 1
MAX_FILE_BYTES = settings.MAX_SESSION_FILE_BYTES
# MAX_GAMES and MAX_SETTLEMENTS are what one sitting can hold (scoring.models), so a sitting's
# own export always re-imports.
# A file with more problems (or totals warnings) than this lists the first ones and counts the
# rest: a hostile file must not turn into a page of megabytes.
SHOWN = 50
NAME_LENGTH = 80  # Sitting.name
PLAYER_NAME_LENGTH = 40  # Player.name

KEYS = {"version", "name", "date", "rules", "stake", "players", "games", "settlements"}
# Written for people and for ``verify_session``; the import reads none of them.
EXPORT_ONLY_KEYS = {"totals", "settle_up", "history", "fingerprint"}
GAME_FLAGS = ("void", "void_reason")
SETTLEMENT_KEYS = {"from", "to", "amount", "void", "void_reason"}


# --- Writing ----------------------------------------------------------------------------


def session_build(sitting: Sitting) -> dict[str, Any]:
    """The session file of a sitting, as a JSON-ready dict, in a constant number of queries."""
    members, names, seated = seated_balances(sitting)
    games = []
    for game in sitting.games.order_by("number").only("record", "status", "void_reason"):
        record = dict(game.record)
        if game.is_void:
            record.update(void=True, void_reason=game.void_reason)
        games.append(record)
    settlements = []
    for s in sitting.settlements.order_by("created_at", "id"):
        entry: dict[str, Any] = {
            "from": names[s.payer_id],
            "to": names[s.payee_id],
            "amount": s.amount,
        }
        if s.is_void:
            entry.update(void=True, void_reason=s.void_reason)
        settlements.append(entry)
    history = [
        {**chain.fields(entry), "hash": entry.hash}
        for entry in chain.entries(HistoryEntry, sitting.pk)
    ]
    totals = {names[pk]: amount for pk, amount in seated}
    plan = settle.min_payments(totals)
    return {
        "version": FORMAT_VERSION,
        "name": sitting.name,
        "date": sitting.date.isoformat(),
        "rules": sitting.rules,
        "stake": sitting.stake,
        "players": [p.name for p in members],
        "games": games,
        "settlements": settlements,
        "totals": totals,
        "settle_up": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in plan],
        "history": history,
        "fingerprint": chain.fingerprint(history[-1]["hash"] if history else ""),
    }


def session_json(sitting: Sitting) -> str:
    """The session file: indented for a person, but the history one compact entry a line
    (indented, it would take half again the size of a full sitting, which must stay under
    the import's limit to re-import)."""
    data = session_build(sitting)
    history = data.pop("history")
    fingerprint = data.pop("fingerprint")
    text = json.dumps(data, ensure_ascii=False, indent=2)
    assert text.endswith("\n}")
    entries = ",\n".join(
        "    " + json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in history
    )
    return (
        f'{text[:-2]},\n  "history": [\n{entries}\n  ],\n'
        f'  "fingerprint": {json.dumps(fingerprint)}\n}}\n'
    )


# --- Problems ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FileProblem:
    """One thing wrong with a session file. ``path`` is the JSON path of the field
    (``games[2].hands.An.cards``); ``game`` is the game's number (its index + 1), if any."""

    path: str
    message: str
    game: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.game is not None:
            where = _("Ván %(n)d (%(path)s)") % {"n": self.game, "path": self.path}
        return f"{where}: {self.message}" if where else self.message


class SessionFileError(Exception):
    """The file cannot be imported. ``problems`` lists what is wrong with it, the first
    ``SHOWN`` at most; ``more`` counts those found beyond them."""

    def __init__(self, problems: Sequence[FileProblem], *, more: int = 0) -> None:
        self.problems = list(problems[:SHOWN])
        self.more = more + len(problems) - len(self.problems)
        self.total = len(self.problems) + self.more
        text = "; ".join(str(p) for p in self.problems)
        super().__init__(text + (f"; … +{self.more}" if self.more else ""))


def refused(path: str, message: str) -> SessionFileError:
    return SessionFileError([FileProblem(path, message)])


class _Found:
    """The problems of one file: the first ``keep`` are kept, the rest only counted, so
    a file made of thousands of mistakes costs no more than a file with a few."""

    def __init__(self, keep: int = 10 * SHOWN) -> None:
        self.keep = keep
        self.problems: list[FileProblem] = []
        self.dropped = 0

    @property
    def full(self) -> bool:
        return len(self.problems) >= self.keep

    def add(self, path: str, message: str, game: int | None = None) -> None:
        if self.full:
            self.dropped += 1
        else:
            self.problems.append(FileProblem(path, message, game))

    def skip(self, count: int) -> None:
        """``count`` more problems, counted without being spelled out."""
        self.dropped += count

    def __bool__(self) -> bool:
        return bool(self.problems)

    def error(self) -> SessionFileError:
        return SessionFileError(sorted(self.problems, key=_reading_order), more=self.dropped)


class _Add(Protocol):
    def __call__(self, path: str, message: str, game: int | None = None, /) -> None: ...


# --- Reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedGame:
    record: dict[str, Any]
    void: bool
    void_reason: str


@dataclass(frozen=True)
class CheckedSettlement:
    payer: str
    payee: str
    amount: int
    void: bool
    void_reason: str


@dataclass(frozen=True)
class CheckedSession:
    name: str
    date: date_type
    rules: engine.RuleSet
    stake: int
    players: list[str]
    games: list[CheckedGame]
    settlements: list[CheckedSettlement]
    warnings: list[str] = field(default_factory=list)


def too_large_message(size: int | None) -> str:
    """What to say about a file over the limit; ``size`` is None when only "more" is known.

    The size is rounded up, so a file just over the limit never reads as the limit itself.
    """
    limit = MAX_FILE_BYTES // 1048576
    if size is None:
        return _("Tệp quá lớn (hơn %(max)d MB); tối đa %(max)d MB.") % {"max": limit}
    tenths = -(-size * 10 // 1048576)
    shown = number_format(Decimal(tenths) / 10, 1)
    return _("Tệp quá lớn (%(size)s MB); tối đa %(max)d MB.") % {"size": shown, "max": limit}


def session_read(raw: bytes) -> Any:
    """The JSON in an uploaded file (UTF-8, with or without a byte-order mark)."""
    if len(raw) > MAX_FILE_BYTES:
        raise refused("", too_large_message(len(raw)))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refused("", _("Tệp không phải văn bản UTF-8; hãy chọn tệp .json đã xuất.")) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise refused(
            "",
            _("Tệp không phải JSON hợp lệ (dòng %(line)d, cột %(col)d: %(msg)s).")
            % {"line": error.lineno, "col": error.colno, "msg": error.msg},
        ) from None
    except (ValueError, RecursionError):
        # Numbers with thousands of digits, or nesting deep enough to exhaust the stack.
        raise refused("", _("Tệp không phải JSON hợp lệ.")) from None


def _int(value: object) -> int | None:
    """``value`` if it is a JSON integer (``true`` is not one), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    text = "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in text)
    return text if len(text) <= 40 else text[:37] + "…"


def _nfc(value: Any, path: str = "") -> Any:
    """Every string of the file (keys too) in NFC, so a name typed in a decomposed form
    matches the same name elsewhere; a lone surrogate (``"\\ud800"``, which no database or
    page can hold) refuses the file."""
    if isinstance(value, str):
        if any("\ud800" <= ch <= "\udfff" for ch in value):
            raise refused(
                path,
                _("Chuỗi có ký tự không hợp lệ (nửa cặp UTF-16, %(esc)s).")
                % {"esc": "\\ud800–\\udfff"},
            )
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_nfc(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        return {_nfc(k, path): _nfc(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
    return value


def _text_problem(value: str, path: str, add: _Add, game: int | None = None) -> bool:
    """Report a text that would display wrongly (engine.readtext); True when there is one."""
    problem = engine_text.text_problem(value)
    if problem is None:
        return False
    add(path, problem.message(engine_language()), game)
    return True


def session_check(data: object) -> CheckedSession:
    """Everything the import needs, checked without touching the database.

    Raises :class:`SessionFileError` listing every problem found.
    """
    problems = _Found()
    add = problems.add
    try:
        data = _nfc(data)
    except RecursionError:
        raise refused("", _("Tệp không phải JSON hợp lệ.")) from None
    if not isinstance(data, Mapping):
        raise refused("", _("Tệp phải chứa một đối tượng JSON {…} của một bàn."))
    unknown = [key for key in data if key not in KEYS | EXPORT_ONLY_KEYS]
    for key in unknown[:SHOWN]:
        add(str(key), _("Tệp bàn không có mục này; hãy xoá hoặc sửa lại tên cho đúng."))
    problems.skip(len(unknown[SHOWN:]))
    if "version" in data and _int(data["version"]) != FORMAT_VERSION:
        add("version", _("Phiên bản tệp %(v)s chưa được hỗ trợ.") % {"v": _show(data["version"])})
    name = _check_name(data.get("name"), add)
    sitting_date = _check_date(data.get("date"), add)
    rules = _check_rules(data.get("rules"), add)
    stake = _check_stake(data.get("stake"), rules, add)
    players = _check_players(data.get("players"), add)
    games = _check_games(data.get("games"), add)
    settlements = _check_settlements(data.get("settlements", []), players, add)
    nets, noted = _score_games(rules, stake, players, games, problems)
    if problems:
        raise problems.error()
    assert rules is not None and players is not None and games is not None and stake is not None
    warnings = _first_notes(noted)
    if nets is not None:
        for s in settlements:
            if not s.void:
                nets[s.payer] += s.amount
                nets[s.payee] -= s.amount
        warnings += _totals_warnings(data.get("totals"), nets)
    return CheckedSession(
        name=" ".join(name.split()),
        date=sitting_date,
        rules=rules,
        stake=stake,
        players=players,
        games=games,
        settlements=settlements,
        warnings=warnings,
    )


def _check_name(name: object, add: _Add) -> str:
    if not isinstance(name, str) or not name.strip():
        add("name", _("Cần tên bàn, bằng chữ, không để trống."))
        return ""
    if len(name.strip()) > NAME_LENGTH:
        add("name", _("Tên bàn dài quá %(n)d ký tự.") % {"n": NAME_LENGTH})
    elif _text_problem(name, "name", add):
        return ""
    return name


def _check_date(raw: Any, add: _Add) -> date_type:
    """The sitting's date; today when the file gives none."""
    if raw is not None:
        try:
            return date_type.fromisoformat(raw)
        except (TypeError, ValueError):
            add("date", _("Ngày phải viết dạng YYYY-MM-DD, không phải %(v)s.") % {"v": _show(raw)})
    return timezone.localdate()


def _check_rules(raw: object, add: _Add) -> engine.RuleSet | None:
    if raw is None:
        add(
            "rules",
            _("Cần luật: mã một luật có sẵn (%(ids)s) hoặc một bộ luật.")
            % {"ids": ", ".join(engine.PRESETS)},
        )
        return None
    if not isinstance(raw, str | Mapping):
        add(
            "rules",
            _("Luật phải là mã luật hoặc một đối tượng JSON, không phải %(v)s.")
            % {"v": _show(raw)},
        )
        return None
    try:
        rules = engine.load_rules(raw)
        if problems_of_size := limits.check_rule_limits(rules):
            raise engine.InvalidRuleSet(problems_of_size)
    except engine.InvalidRuleSet as error:
        for p in error.problems:
            path = "rules" if p.path in ("", "rules") else f"rules.{p.path}"
            add(path, p.message(engine_language()))
        return None
    return rules


def _check_stake(raw: object, rules: engine.RuleSet | None, add: _Add) -> int | None:
    """The stake, when the rules could be read and it is one they can price games with."""
    stake = _int(raw)
    if stake is None or stake <= 0:
        add(
            "stake",
            _("Mức tiền phải là số đồng chẵn lớn hơn 0, không phải %(v)s.") % {"v": _show(raw)},
        )
    elif rules is None and stake > limits.MAX_STAKE:
        add("stake", _("Mức tiền tối đa %(n)s đồng.") % {"n": money.group(limits.MAX_STAKE)})
    elif rules is not None:
        stake_problems = engine.check_stake(rules, stake)
        for p in stake_problems:
            add("stake", p.message(engine_language()))
        if not stake_problems:
            return stake
    return None


def _score_games(
    rules: engine.RuleSet | None,
    stake: int | None,
    players: list[str] | None,
    games: list[CheckedGame] | None,
    problems: _Found,
) -> tuple[dict[str, int] | None, list[str]]:
    """Each game against the rules and the players: each player's net over them all (None unless
    every game could be scored), and the notes of facts the rules do not price."""
    nets: dict[str, int] = dict.fromkeys(players or [], 0)
    noted: list[str] = []
    if rules is None or games is None:
        return None, noted
    lang = engine_language()
    scored_all = stake is not None and players is not None
    prices = engine.Prices(rules, stake) if stake is not None else None
    for index, game in enumerate(games):
        number, where = index + 1, f"games[{index}]"
        strangers = _strangers(game.record, players)
        for i, stranger in strangers:
            problems.add(f"{where}.players[{i}]", _stranger(stranger), number)
        try:
            parsed = engine.parse_record(game.record, rules)
            result = None
            if prices is not None and stake is not None:
                result = engine.score_game(rules, parsed, stake, prices=prices)
        except engine.InvalidRecord as error:
            scored_all = False
            if problems.full:
                problems.skip(len(error.problems))
                continue
            for p in error.problems:
                problems.add(f"{where}.{p.path}" if p.path else where, p.message(lang), number)
            continue
        if result is not None:
            noted += [
                _("Ván %(number)d: %(note)s") % {"number": number, "note": note.message(lang)}
                for note in result.notes
            ]
        if strangers or result is None or players is None:
            scored_all = False
        elif not game.void:
            for player, amount in result.net.items():
                nets[player] += amount
    return (nets if scored_all else None), noted


def _first_notes(noted: list[str]) -> list[str]:
    """The first ``SHOWN`` notes, and how many more there are."""
    warnings = noted[:SHOWN]
    if (more := len(noted) - SHOWN) > 0:
        warnings.append(
            ngettext(
                "… và %(n)d ván khác có ghi chú như thế.",
                "… và %(n)d ván khác có ghi chú như thế.",
                more,
            )
            % {"n": more}
        )
    return warnings


def _reading_order(problem: FileProblem) -> tuple[int, int]:
    """The file's fields first, then the games by number, then the settlements."""
    if problem.path.startswith("settlements"):
        return 2, 0
    return (1, problem.game) if problem.game is not None else (0, 0)


def _stranger(name: str) -> str:
    return _("%(name)s không có trong danh sách người chơi của tệp (players).") % {"name": name}


def _strangers(record: Mapping[str, Any], players: list[str] | None) -> list[tuple[int, str]]:
    """(index, name) of each of a game's players who is not in the file's player list."""
    names = record.get("players")
    if players is None or not isinstance(names, list):
        return []
    known = set(players)
    return [(i, n) for i, n in enumerate(names) if isinstance(n, str) and n not in known]


def _check_players(raw: object, add: _Add) -> list[str] | None:
    if not isinstance(raw, list):
        add("players", _("Cần danh sách tên người chơi […], theo thứ tự ngồi."))
        return None
    players: list[str] = []
    seen: set[str] = set()
    ok = True
    for i, name in enumerate(raw):
        path = f"players[{i}]"
        if not isinstance(name, str) or not name.strip():
            add(path, _("Tên người chơi phải là chữ, không để trống."))
        elif name != " ".join(name.split()):
            # The sitting stores names with single spaces; the games would no longer match.
            add(
                path,
                _("Tên “%(name)s” có khoảng trắng thừa ở đầu, cuối hoặc giữa.") % {"name": name},
            )
        elif len(name) > PLAYER_NAME_LENGTH:
            add(path, _("Tên người chơi dài quá %(n)d ký tự.") % {"n": PLAYER_NAME_LENGTH})
        elif _text_problem(name, path, add):
            pass  # reported there
        elif name.casefold() in seen:
            add(path, _("%(name)s có hai lần trong danh sách người chơi.") % {"name": name})
        else:
            seen.add(name.casefold())
            players.append(name)
            continue
        ok = False
    lang = engine_language()
    for name, other in engine_text.confusable_pairs(players):
        add(
            f"players[{players.index(name)}]",
            engine_text.confusable_problem(name, other).message(lang),
        )
        ok = False
    if ok and not 2 <= len(players) <= MAX_MEMBERS:
        add("players", _("Một bàn có từ 2 đến %(n)d người chơi.") % {"n": MAX_MEMBERS})
        ok = False
    return players if ok else None


def _check_games(raw: object, add: _Add) -> list[CheckedGame] | None:
    if raw is None:
        return []
    if not isinstance(raw, list):
        add("games", _("Cần danh sách các ván […]."))
        return None
    if len(raw) > MAX_GAMES:
        add(
            "games",
            _("Tệp có %(n)d ván; tối đa %(max)d ván một bàn.") % {"n": len(raw), "max": MAX_GAMES},
        )
        return None
    games: list[CheckedGame] = []
    ok = True
    for index, item in enumerate(raw):
        number, where = index + 1, f"games[{index}]"
        if not isinstance(item, Mapping):
            add(
                where,
                _("Mỗi ván phải là một đối tượng JSON {…}, không phải %(v)s.") % {"v": _show(item)},
                number,
            )
            ok = False
            continue
        void = item.get("void", False)
        reason = item.get("void_reason", "")
        if not isinstance(void, bool):
            add(
                f"{where}.void",
                _("Cần true hoặc false, không phải %(v)s.") % {"v": _show(void)},
                number,
            )
            ok = False
        if not isinstance(reason, str):
            add(f"{where}.void_reason", _("Lý do huỷ phải là chữ."), number)
            ok = False
            reason = ""
        elif _text_problem(reason, f"{where}.void_reason", add, number):
            ok = False
        record = {k: v for k, v in item.items() if k not in GAME_FLAGS}
        reason = engine_text.normalise(reason)[:200] or _("Đã huỷ (theo tệp nhập)")
        games.append(CheckedGame(record, void is True, reason))
    return games if ok else None


def _check_settlements(
    raw: object, players: list[str] | None, add: _Add
) -> list[CheckedSettlement]:
    if not isinstance(raw, list):
        add("settlements", _("Cần danh sách các khoản đã trả […]."))
        return []
    if len(raw) > MAX_SETTLEMENTS:
        add(
            "settlements",
            _("Tệp có %(n)d khoản trả; tối đa %(max)d khoản một bàn.")
            % {"n": len(raw), "max": MAX_SETTLEMENTS},
        )
        return []
    known = set(players or [])
    checked: list[CheckedSettlement] = []
    for index, item in enumerate(raw):
        where = f"settlements[{index}]"
        if not isinstance(item, Mapping):
            add(where, _('Mỗi khoản trả phải là {"from", "to", "amount"}.'))
            continue
        ok = True
        for key in item:
            if key not in SETTLEMENT_KEYS:
                add(
                    f"{where}.{key}",
                    _("Tệp bàn không có mục này; hãy xoá hoặc sửa lại tên cho đúng."),
                )
                ok = False
        for key in ("from", "to"):
            name = item.get(key)
            if not isinstance(name, str) or (players is not None and name not in known):
                add(f"{where}.{key}", _stranger(_show(name)))
                ok = False
        if ok and item["from"] == item["to"]:
            add(f"{where}.to", _("Người trả và người nhận phải khác nhau."))
            ok = False
        amount = _int(item.get("amount"))
        if amount is None or not 0 < amount <= limits.MAX_AMOUNT:
            add(
                f"{where}.amount",
                _(
                    "Số tiền phải là số nguyên đồng từ 1 đến %(max)s (13 chữ số, mức tối đa "
                    "của mã VietQR), không phải %(v)s."
                )
                % {"v": _show(item.get("amount")), "max": money.group(limits.MAX_AMOUNT)},
            )
            ok = False
        void = item.get("void", False)
        reason = item.get("void_reason", "")
        if not isinstance(void, bool) or not isinstance(reason, str):
            add(f"{where}.void", _("void phải là true/false và void_reason là một chuỗi."))
            ok = False
        elif _text_problem(reason, f"{where}.void_reason", add):
            ok = False
        if ok and amount is not None:
            reason = engine_text.normalise(reason)[:200]
            checked.append(CheckedSettlement(item["from"], item["to"], amount, void, reason))
    return checked


def _totals_warnings(raw: object, nets: Mapping[str, int]) -> list[str]:
    """The file's ``totals`` against what its games and settlements add up to."""
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        return [_("Bỏ qua “totals” trong tệp: không phải một đối tượng {tên: số tiền}.")]
    # The file's players in seating order, then any other name it gives, in its order; no
    # sort, and past the first SHOWN differences the rest are only counted.
    names = [*nets, *(name for name in raw if name not in nets)]
    off = (name for name in names if raw.get(name, 0) != nets.get(name, 0))
    warnings = [
        _(
            "Tổng trong tệp của %(name)s là %(stated)s, nhưng các ván và khoản trả "
            "cộng lại là %(real)s đồng; sổ dùng số tính lại."
        )
        % {"name": name, "stated": _show(raw.get(name, 0)), "real": nets.get(name, 0)}
        for name in itertools.islice(off, SHOWN)
    ]
    more = sum(1 for _name in off)
    if more:
        warnings.append(_("… và %(n)d cảnh báo khác về “totals”.") % {"n": more})
    return warnings
