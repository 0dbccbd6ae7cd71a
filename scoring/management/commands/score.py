"""``manage.py score``: score game records from the command line with the engine.

A thin wrapper: it reads JSON, lets :mod:`scoring.engine` do everything, and prints JSON. Bad
input never gives a traceback: every problem goes to stderr as ``path: message``, nothing goes
to stdout, and the exit code is non-zero.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentTypeError
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import (
    PRESETS,
    GameResult,
    InvalidRecord,
    InvalidRuleSet,
    Problem,
    RuleSet,
    check_stake,
    load_rules,
    score_game,
)
from scoring.engine.limits import check_rule_limits
from scoring.numbers import command_int


class Command(BaseCommand):
    help = (
        "Score one game record (or a JSON array of records) and print the payments as JSON: "
        '{"transfers": [{"from", "to", "amount", "reason", "detail"}], "net": {player: amount}}.'
    )

    # Pure computation: no database, so no system checks (they would need one).
    requires_system_checks = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rules",
            required=True,
            help=f"a preset id ({', '.join(PRESETS)}) or the path of a rule-set JSON file",
        )
        parser.add_argument("--stake", required=True, help="đồng per unit, a positive integer")
        parser.add_argument(
            "--lang", choices=("en", "vi"), default="en", help="language of problem messages"
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

    def handle(self, *args: Any, **options: Any) -> None:
        lang: str = options["lang"]
        rules = self._rules(options["rules"], lang)
        stake = self._stake(options["stake"], rules, lang)
        data = self._read(options["file"])
        if isinstance(data, list):
            results: list[GameResult] = []
            problems: list[str] = []
            for i, item in enumerate(data):
                try:
                    results.append(score_game(rules, item, stake))
                except InvalidRecord as exc:
                    problems.extend(_line(p, lang, prefix=f"[{i}]") for p in exc.problems)
            if problems:
                self._fail(problems, f"{len(problems)} problem(s) in the records; nothing scored")
            self.stdout.write(_dumps_array([_result_json(r) for r in results], options["indent"]))
            return
        try:
            output = _result_json(score_game(rules, data, stake))
        except InvalidRecord as exc:
            lines = [_line(p, lang) for p in exc.problems]
            self._fail(lines, f"{len(lines)} problem(s) in the record; nothing scored")
        indent = 2 if options["indent"] is None else options["indent"]
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=indent))

    def _fail(self, lines: list[str], summary: str) -> None:
        for line in lines:
            self.stderr.write(line)
        raise CommandError(summary, returncode=1)

    def _rules(self, spec: str, lang: str) -> RuleSet:
        if spec in PRESETS:
            return PRESETS[spec]
        path = Path(spec)
        if not path.is_file():
            if path.suffix == ".json" or "/" in spec or "\\" in spec:
                raise CommandError(f"--rules: cannot read the rule-set file {spec}")
            known = ", ".join(PRESETS)
            raise CommandError(f"--rules: no preset {spec!r} (known: {known}) and no such file")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"--rules: cannot read {spec}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"--rules: {spec} is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise CommandError(f"--rules: {spec} must hold a JSON object (a rule set)")
        try:
            rules = load_rules(data)
            problems = check_rule_limits(rules)
            if problems:
                raise InvalidRuleSet(problems)
            return rules
        except InvalidRuleSet as exc:
            lines = [_line(p, lang, prefix="rules") for p in exc.problems]
            self._fail(lines, f"the rule set in {spec} has {len(lines)} problem(s)")
            raise  # pragma: no cover - _fail always raises

    def _stake(self, text: str, rules: RuleSet, lang: str) -> int:
        stake = command_int(text, f"--stake: {text!r} is not a whole number of đồng", low=None)
        problems = check_stake(rules, stake)
        if problems:
            self._fail([_line(p, lang) for p in problems], "bad --stake")
        return stake

    def _read(self, name: str) -> Any:
        try:
            if name == "-":
                text = sys.stdin.read()
                where = "standard input"
            else:
                text = Path(name).read_text(encoding="utf-8")
                where = name
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {name}: {exc}") from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{where} is not valid JSON: {exc}") from None


def _indent(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 16:
        raise ArgumentTypeError(f"{text!r} is not a number of spaces from 0 to 16")
    return value


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _dumps_array(results: list[dict[str, Any]], indent: int | None) -> str:
    """An array of results as JSON: compact by default, one result per line. The standard
    library's C encoder only runs without ``indent``; the pure-Python one that indenting needs
    took about a tenth of the command's time on 6 000 games (``bench/bench_score.py``)."""
    if indent is not None:
        return json.dumps(results, ensure_ascii=False, indent=indent)
    if not results:
        return "[]"
    encode = _COMPACT.encode
    lines = ",\n".join(encode(r) for r in results)
    return f"[\n{lines}\n]"


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
