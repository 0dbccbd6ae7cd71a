"""den_allowed: the one place that says when the rule set lets a game record đền."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest

from scoring.engine import PRESETS, InvalidRecord, den_allowed, parse_record

WHEN = ("any_cong", "all_cong", "always", "never")
LOSERS = ("B", "C", "D")


@pytest.mark.parametrize(
    ("when", "cong", "allowed"),
    [
        ("any_cong", set(), False),
        ("any_cong", {"C"}, True),
        ("all_cong", {"C"}, False),
        ("all_cong", {"B", "C", "D"}, True),
        ("always", set(), True),
        ("never", {"B", "C", "D"}, False),
    ],
)
def test_it_follows_den_when(when, cong, allowed):
    rules = replace(PRESETS["dem-la"], den_when=when)
    assert den_allowed(rules, LOSERS, cong) is allowed


@pytest.mark.parametrize("when", WHEN)
def test_the_checker_accepts_den_exactly_when_it_is_allowed(when):
    rules = replace(PRESETS["dem-la"], den_when=when)
    for size in range(len(LOSERS) + 1):
        for cong in combinations(LOSERS, size):
            hands = {p: {"cards": 13 if p in cong else 5} for p in LOSERS}
            record = {"players": ["A", *LOSERS], "finish": ["A"], "hands": hands, "den": "B"}
            try:
                parse_record(record, rules)
                accepted = True
            except InvalidRecord as exc:
                assert [p.path for p in exc.problems] == ["den"]
                accepted = False
            assert accepted is den_allowed(rules, LOSERS, set(cong)), (when, cong)
