"""Small builders so each test states only the part of a record it is about."""

from __future__ import annotations

from typing import Any

from scoring.engine import PRESETS, InvalidRecord, RuleSet, parse_record, score_game


def rules_of(rules: str | RuleSet) -> RuleSet:
    return PRESETS[rules] if isinstance(rules, str) else rules


def net(rules: str | RuleSet, record: dict[str, Any], stake: int = 1) -> dict[str, int]:
    return score_game(rules_of(rules), record, stake).net


def transfers(
    rules: str | RuleSet, record: dict[str, Any], stake: int = 1
) -> list[tuple[str, str, int, str, str]]:
    result = score_game(rules_of(rules), record, stake)
    return [(t.payer, t.payee, t.amount, t.reason, t.detail) for t in result.transfers]


def problems(rules: str | RuleSet, record: object) -> list[tuple[str, str]]:
    """(path, code) of every problem of a record that must be refused."""
    try:
        parse_record(record, rules_of(rules))
    except InvalidRecord as exc:
        assert exc.problems, "InvalidRecord raised without problems"
        for problem in exc.problems:  # every problem must read as a sentence in both languages
            for lang in ("vi", "en"):
                text = problem.message(lang)
                assert text and "?" not in text, (problem, text)
        return [(p.path, p.code) for p in exc.problems]
    raise AssertionError("the record was accepted")


def four(**fields: Any) -> dict[str, Any]:
    """A four-player record A, B, C, D (seating order) with the given fields."""
    return {"players": ["A", "B", "C", "D"], **fields}


def two(**fields: Any) -> dict[str, Any]:
    return {"players": ["A", "B"], **fields}


def three(**fields: Any) -> dict[str, Any]:
    return {"players": ["A", "B", "C"], **fields}
