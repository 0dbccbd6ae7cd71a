"""The ``score`` command without Django: ``tienlen-score`` (and ``manage.py score``).

:func:`score` does everything the command does: read the rule set, the stake and the JSON, let
the engine score it, write JSON. Bad input never gives a traceback: every problem is written to
``err`` as ``path: message``, nothing to ``out``, and :class:`Refused` carries the summary. A
fact of a record that the rule set does not price (the dealt hands of a tới trắng, under a
rule set that does not count thối on it) is no problem: the record is scored, and ``err`` gets
a ``note: path: message`` line for it.
:func:`main` is the console script ``tienlen-score`` (``[project.scripts]``), which needs no
settings and no database; the Django command (``scoring/management/commands/score.py``) takes
the same options (:func:`add_arguments`) and turns :class:`Refused` into a ``CommandError``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from .limits import check_rule_limits, check_stake
from .payout import GameResult, Prices, score_game
from .presets import PRESETS
from .problems import InvalidRecord, InvalidRuleSet, Problem
from .readnumbers import NotANumber, parse_int
from .rulejson import load_rules
from .rules import RuleSet
from .validate import parse_record

#: Largest value a ``bigint`` column holds, the stake's upper bound (as ``scoring.text.numbers``).
BIGINT = 2**63 - 1

LANGUAGES = ("en", "vi")

Write = Callable[[str], object]

#: One result on one line, as ``json.dumps(result, ensure_ascii=False, separators=(",", ":"))``.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class Refused(Exception):
    """The command cannot answer; the message is the one-line summary."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options, for ``tienlen-score`` and ``manage.py score`` alike."""
    parser.add_argument(
        "--rules",
        required=True,
        help=f"a preset id ({', '.join(PRESETS)}) or the path of a rule-set JSON file",
    )
    parser.add_argument("--stake", required=True, help="đồng per unit, a positive integer")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of problems and notes"
    )
    parser.add_argument(
        "--indent",
        type=_indent,
        default=None,
        help="indent the JSON by this many spaces (default: 2 for one record; an array of "
        "records is printed compact, one result per line)",
    )
    parser.add_argument(
        "file", nargs="?", default="-", help="record JSON file, or - for stdin (default)"
    )


def score(
    *, rules: str, stake: str, lang: str, indent: int | None, file: str, out: Write, err: Write
) -> None:
    """Score the records in ``file`` (``-``: standard input) and ``out`` the payments as JSON.

    ``out`` and ``err`` are each called with whole lines, without the last line end."""
    rule_set = _rules(rules, lang, err)
    amount = _stake(stake, rule_set, lang, err)
    prices = Prices(rule_set, amount)
    data = _read(file)
    if isinstance(data, list):
        # Each result is kept as its text (compact) or its JSON form (indented), not as the
        # engine's objects: nothing but the output outlives a record's turn.
        results: list[Any] = []
        problems: list[str] = []
        notes: list[str] = []
        for i, item in enumerate(data):
            try:
                scored = score_game(rule_set, parse_record(item, rule_set), amount, prices=prices)
            except InvalidRecord as exc:
                problems += [_line(p, lang, prefix=f"[{i}]") for p in exc.problems]
                continue
            notes += [_note(p, lang, prefix=f"[{i}]") for p in scored.notes]
            result = _result_json(scored)
            results.append(result if indent is not None else _COMPACT.encode(result))
        if problems:
            _fail(problems, f"{len(problems)} problem(s) in the records; nothing scored", err)
        for line in notes:
            err(line)
        if indent is not None:
            out(_writable(json.dumps(results, ensure_ascii=False, indent=indent)))
        elif results:
            # One result per line, each written as its own line: a reader that stops early
            # (``| head``) is noticed at the next line.
            out("[")
            last = len(results) - 1
            for i, line in enumerate(results):
                out(_writable(line if i == last else line + ","))
            out("]")
        else:
            out("[]")
        return
    try:
        scored = score_game(rule_set, data, amount, prices=prices)
    except InvalidRecord as exc:
        lines = [_line(p, lang) for p in exc.problems]
        _fail(lines, f"{len(lines)} problem(s) in the record; nothing scored", err)
    for note in scored.notes:
        err(_note(note, lang))
    output = _result_json(scored)
    out(_writable(json.dumps(output, ensure_ascii=False, indent=2 if indent is None else indent)))


def main(argv: list[str] | None = None) -> int:
    """``tienlen-score ARGV``: the exit code (0, or 1 when nothing could be scored)."""
    parser = argparse.ArgumentParser(
        prog="tienlen-score",
        description="Score one game record (or a JSON array of records) and print the payments "
        'as JSON: {"transfers": [{"from", "to", "amount", "reason", "detail"}], '
        '"net": {player: amount}}.',
    )
    add_arguments(parser)
    options = vars(parser.parse_args(argv))

    def out(line: str) -> None:
        sys.stdout.write(line if line.endswith("\n") else line + "\n")

    def err(line: str) -> None:
        sys.stderr.write(line if line.endswith("\n") else line + "\n")

    try:
        score(**options, out=out, err=err)
        sys.stdout.flush()
    except Refused as exc:
        err(f"tienlen-score: error: {exc}")
        return 1
    except BrokenPipeError:
        stop_writing(sys.stdout)
        return 1
    return 0


def stop_writing(stream: Any) -> None:
    """After a ``BrokenPipeError``: whoever read the output stopped (``tienlen-score … |
    head``), and nothing more is wanted. The stream's file now goes nowhere, so what is still
    buffered, and the flush on exit, fail no more and say nothing."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _indent(text: str) -> int:
    """``--indent``: a number of spaces from 0 to 16."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 16:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of spaces from 0 to 16")
    return value


def _fail(lines: list[str], summary: str, err: Write) -> NoReturn:
    for line in lines:
        err(line)
    raise Refused(summary)


def _rules(spec: str, lang: str, err: Write) -> RuleSet:
    if spec in PRESETS:
        return PRESETS[spec]
    path = Path(spec)
    if not path.is_file():
        if path.suffix == ".json" or "/" in spec or "\\" in spec:
            raise Refused(f"--rules: cannot read the rule-set file {spec}")
        known = ", ".join(PRESETS)
        raise Refused(f"--rules: no preset {spec!r} (known: {known}) and no such file")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM is no content
    except (OSError, UnicodeDecodeError) as exc:
        raise Refused(f"--rules: cannot read {spec}: {exc}") from None
    data = _json(text, f"--rules: {spec}")
    if not isinstance(data, dict):
        raise Refused(f"--rules: {spec} must hold a JSON object (a rule set)")
    try:
        rules = load_rules(data)
        problems = check_rule_limits(rules)
        if problems:
            raise InvalidRuleSet(problems)
        return rules
    except InvalidRuleSet as exc:
        lines = [_line(p, lang, prefix="rules") for p in exc.problems]
        _fail(lines, f"the rule set in {spec} has {len(lines)} problem(s)", err)


def _stake(text: str, rules: RuleSet, lang: str, err: Write) -> int:
    try:
        stake = parse_int(text, low=None, high=BIGINT)
    except NotANumber as error:
        what = f"--stake: {text!r} is not a whole number of đồng"
        raise Refused(f"{what}: {error.message('en')}") from None
    problems = check_stake(rules, stake)
    if problems:
        _fail([_line(p, lang) for p in problems], "bad --stake", err)
    return stake


def _read(name: str) -> Any:
    try:
        if name == "-":
            text = sys.stdin.read().removeprefix("\ufeff")
            where = "standard input"
        else:
            text = Path(name).read_text(encoding="utf-8-sig")  # as Windows editors save it
            where = name
    except (OSError, UnicodeDecodeError) as exc:
        raise Refused(f"cannot read {name}: {exc}") from None
    return _json(text, where)


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused(f"{where} is not valid JSON: {exc}") from None
    except ValueError:  # Python reads at most 4 300 digits of one number
        raise Refused(f"{where} holds a number with thousands of digits") from None
    except RecursionError:
        raise Refused(f"{where} nests arrays or objects too deeply to read") from None


#: A lone surrogate: a JSON string may hold one (``"\ud800"``), UTF-8 cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _writable(text: str) -> str:
    """JSON text that can be written as UTF-8: each lone surrogate in a string written as its
    escape again (what the encoder does with ``ensure_ascii``), so reading the output gives the
    same strings back."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)
    return text


def _line(problem: Problem, lang: str, prefix: str = "") -> str:
    path = problem.path
    if prefix:
        path = f"{prefix}.{path}" if path else prefix
    return f"{path}: {problem.message(lang)}" if path else problem.message(lang)


def _note(note: Problem, lang: str, prefix: str = "") -> str:
    """A fact set aside, said on ``err``; the record was scored all the same."""
    return f"note: {_line(note, lang, prefix)}"


def _result_json(result: GameResult) -> dict[str, Any]:
    return {
        "transfers": [
            {
                "from": t.payer,
                "to": t.payee,
                "amount": t.amount,
                "reason": t.reason,
                "detail": t.detail,
            }
            for t in result.transfers
        ],
        "net": result.net,
    }


if __name__ == "__main__":
    sys.exit(main())
