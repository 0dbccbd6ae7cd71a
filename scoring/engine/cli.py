"""``manage.py score`` without Django: the command's whole work, and a quick start for it.

:func:`score` does everything the command does: read the rule set, the stake and the JSON, let
the engine score it, write JSON. Bad input never gives a traceback: every problem is written to
``err`` as ``path: message``, nothing to ``out``, and :class:`Refused` carries the summary.
The Django command (``scoring/management/commands/score.py``) turns that into a
``CommandError``; :func:`main` prints it as Django would (``CommandError: …``, exit code 1).

``manage.py`` hands ``score`` to :func:`main` before setting Django up: scoring needs no
database, and setting up every app took longer than scoring thousands of games. :func:`main`
reads only the command's own options; anything else (``--help``, Django's options such as
``--settings``, a missing or unreadable option) is left to Django, which prints the same usage
and errors as before, so the quick start never changes what the command answers.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
from collections.abc import Callable
from json.encoder import encode_basestring
from pathlib import Path

from .limits import check_rule_limits
from .numbers import NotANumber, parse_int
from .payout import GameResult, score_game
from .presets import PRESETS
from .problems import InvalidRecord, InvalidRuleSet, Problem
from .record import GameRecord
from .rules import RuleSet, check_stake, load_rules
from .validate import parse_record

TYPE_CHECKING = False  # not ``typing``'s: importing it costs every ``score`` run milliseconds

if TYPE_CHECKING:
    from typing import Any, NoReturn

#: Largest value a ``bigint`` column holds, the stake's upper bound (as ``scoring.numbers``).
BIGINT = 2**63 - 1

LANGUAGES = ("en", "vi")

Write = Callable[[str], object]


class Refused(Exception):
    """The command cannot answer; the message is the one-line summary."""


def indent_option(text: str) -> int:
    """``--indent``: a number of spaces from 0 to 16 (``ValueError`` otherwise)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 16:
        raise ValueError(f"{text!r} is not a number of spaces from 0 to 16")
    return value


def score(
    *, rules: str, stake: str, lang: str, indent: int | None, file: str, out: Write, err: Write
) -> None:
    """Score the records in ``file`` (``-``: standard input) and ``out`` the payments as JSON.

    ``out`` and ``err`` are each called with whole lines, without the last line end (the
    compact results of an array: every result line in one call)."""
    rule_set = _rules(rules, lang, err)
    amount = _stake(stake, rule_set, lang, err)
    data = _read(file)
    if isinstance(data, list):
        # Every record is read first, then each is scored and, compact, becomes its line at
        # once: two passes run about a seventh faster than reading and scoring each record in
        # turn (each pass keeps its own code and data hot). Problems keep the records' order.
        records: list[GameRecord | None] = []
        failed: dict[int, list[Problem]] = {}
        for i, item in enumerate(data):
            try:
                records.append(parse_record(item, rule_set))
            except InvalidRecord as exc:
                records.append(None)
                failed[i] = exc.problems
        keep: Callable[[GameResult], Any] = _Compact().line if indent is None else _result_json
        results: list[Any] = []
        for i, record in enumerate(records):
            if record is not None:
                try:
                    results.append(keep(score_game(rule_set, record, amount)))
                except InvalidRecord as exc:  # a game whose amounts are too large
                    failed[i] = exc.problems
        if failed:
            problems = [_line(p, lang, prefix=f"[{i}]") for i in sorted(failed) for p in failed[i]]
            _fail(problems, f"{len(problems)} problem(s) in the records; nothing scored", err)
        if indent is not None:
            out(_writable(json.dumps(results, ensure_ascii=False, indent=indent)))
        elif results:
            # The brackets on lines of their own: gluing them to the megabytes of results
            # copied those twice more.
            out("[")
            out(",\n".join(results))
            out("]")
        else:
            out("[]")
        return
    try:
        output = _result_json(score_game(rule_set, data, amount))
    except InvalidRecord as exc:
        lines = [_line(p, lang) for p in exc.problems]
        _fail(lines, f"{len(lines)} problem(s) in the record; nothing scored", err)
    out(_writable(json.dumps(output, ensure_ascii=False, indent=2 if indent is None else indent)))


def main(argv: list[str]) -> int | None:
    """``manage.py score ARGV``: the exit code, or None when Django should run it (options this
    reader does not take on itself; nothing has been read or written then)."""
    options = _options(argv)
    if options is None:
        return None
    stdout, stderr = sys.stdout, sys.stderr
    style = _error_style(stderr)

    # As Django's OutputWrapper writes: a line end unless there is one, errors styled.
    def out(line: str) -> None:
        stdout.write(line)  # not line + "\n": a copy of megabytes
        if not line.endswith("\n"):
            stdout.write("\n")

    def err(line: str) -> None:
        stderr.write(style(line if line.endswith("\n") else line + "\n"))

    # The records and results hold no reference cycles, so the cyclic garbage collector has
    # nothing to find; its passes over thousands of parsed records cost about a twentieth of
    # the run. The process ends right after.
    gc.disable()
    try:
        score(**options, out=out, err=err)
        stdout.flush()
    except Refused as exc:
        err(f"CommandError: {exc}")
        return 1
    except BrokenPipeError:
        stop_writing(stdout)
        return 1
    return 0


def stop_writing(stream: Any) -> None:
    """After a ``BrokenPipeError``: whoever read the output stopped (``manage.py score … |
    head``), and nothing more is wanted. The stream's file now goes nowhere, so what is still
    buffered, and the flush on exit, fail no more and say nothing."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _options(argv: list[str]) -> dict[str, Any] | None:
    """The command's options when ``argv`` holds only those, spelt out, each valid."""
    values: dict[str, str] = {}
    files: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
            continue
        name, equals, value = arg.partition("=")
        if name not in ("--rules", "--stake", "--lang", "--indent"):
            return None
        if not equals:
            if i == len(argv) or argv[i].startswith("-"):
                return None
            value = argv[i]
            i += 1
        values[name[2:]] = value
    if "rules" not in values or "stake" not in values or len(files) > 1:
        return None
    lang = values.get("lang", "en")
    if lang not in LANGUAGES:
        return None
    indent: int | None = None
    if "indent" in values:
        try:
            indent = indent_option(values["indent"])
        except ValueError:
            return None
    return {
        "rules": values["rules"],
        "stake": values["stake"],
        "lang": lang,
        "indent": indent,
        "file": files[0] if files else "-",
    }


def _error_style(stream: Any) -> Callable[[str], str]:
    """How Django colours a command's errors: only on a terminal, as its settings say."""
    if not (hasattr(stream, "isatty") and stream.isatty()):
        return str
    try:
        from django.core.management.color import color_style
    except ImportError:  # pragma: no cover - Django is a dependency of the project
        return str
    return color_style().ERROR


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


class _Compact:
    """Each result as ``json.dumps(_result_json(r), ensure_ascii=False, separators=(",", ":"))``
    writes it, character for character (tests/commands/test_score.py checks), but written
    straight from the transfers: building a dict per transfer for the encoder took a tenth of
    the command's time on 6 000 games. Strings go through the encoder's own escaping; names
    and details repeat, so each is escaped once. Amounts are plain ``int`` (sums and products
    of ints), written as the encoder writes them, ``str(n)``, without the slower ``:d``."""

    __slots__ = ("text",)

    def __init__(self) -> None:
        self.text = _Escaped()

    def line(self, result: GameResult) -> str:
        text = self.text
        transfers = ",".join([
            f'{{"from":{text[t.payer]},"to":{text[t.payee]},"amount":{t.amount},'
            f'"reason":{text[t.reason]},"detail":{text[t.detail]}}}'
            for t in result.transfers
        ])  # fmt: skip
        net = ",".join([f"{text[player]}:{amount}" for player, amount in result.net.items()])
        return f'{{"transfers":[{transfers}],"net":{{{net}}}}}'


class _Escaped(dict[str, str]):
    """A string → the same string as a JSON string literal (quotes included)."""

    def __missing__(self, value: str) -> str:
        out = self[value] = _writable(encode_basestring(value))
        return out


def _line(problem: Problem, lang: str, prefix: str = "") -> str:
    path = problem.path
    if prefix:
        path = f"{prefix}.{path}" if path else prefix
    return f"{path}: {problem.message(lang)}" if path else problem.message(lang)


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
