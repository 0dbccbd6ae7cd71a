"""Every problem code has a message in Vietnamese and English that fills all its blanks."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import scoring.engine
from scoring.engine import Problem
from scoring.engine.messages import CATALOG

ENGINE = Path(scoring.engine.__file__).parent


def codes_in_source() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:add|Problem)\(\s*[^,()]+,\s*"([a-z0-9_]+)"', text))
        found |= set(re.findall(r'Problem\(\s*"[^"]*",\s*"([a-z0-9_]+)"', text))
    found |= {f"unknown_{key}" for key in ("mode", "thoi_to", "den_when", "cong_thoi_to")}
    return found


def test_it_has_a_message_for_every_code_the_engine_uses():
    used = codes_in_source()
    assert len(used) > 60
    assert used - set(CATALOG) == set()


@pytest.mark.parametrize("code", sorted(CATALOG))
def test_it_says_the_same_thing_in_both_languages(code):
    vi, en = CATALOG[code]
    fields = {name for _, name, _, _ in string.Formatter().parse(vi) if name}
    assert fields == {name for _, name, _, _ in string.Formatter().parse(en) if name}
    params = dict.fromkeys(fields, "X")
    problem = Problem("path", code, params)
    for lang in ("vi", "en"):
        text = problem.message(lang)
        assert text[0].isupper() or text[0] in '{X"' or text[0].isdigit(), text
        assert "?" not in text and "{" not in text.replace("{…}", ""), text


def test_it_speaks_vietnamese_by_default():
    problem = Problem("hands.An.cards", "winner_holds_cards", {"player": "An", "cards": 2})
    assert problem.message() == problem.message("vi")
    assert "An" in problem.message() and "An" in problem.message("en")
    assert str(problem).startswith("hands.An.cards: An won")
