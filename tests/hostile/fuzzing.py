"""Hypothesis strategies for hostile form posts, and the ledger checks every fuzz test makes.

Bounded on purpose: 100 examples per test under the ``ci`` Hypothesis profile, 20 under
``dev`` (tests/conftest.py), or ``FUZZ_EXAMPLES``; no deadline (a request is milliseconds,
but CI machines stall).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scoring.models import (
    Game,
    HistoryEntry,
    Membership,
    Payment,
    Player,
    Seat,
    Settlement,
    Sitting,
)
from tests.hypothesis_counts import examples

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES") or examples(100)),
    deadline=None,
    # One table per test, shared by every example: the checks compare counts before/after.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

NASTY = [
    "",
    " ",
    "on",
    "off",
    "save",
    "preview",
    "add_chain",
    "add_step_0",
    "add_step_99",
    "add_step_-1",
    "drop_chain_0",
    "drop_step_0",
    "drop_chain_x",
    "2S",
    "2H",
    "2h",
    "2♥",
    "3S",
    "AH",
    "10D",
    "heo",
    "doi_heo",
    "3dt",
    "tq",
    "4dt",
    "sanh_rong",
    "6_doi",
    "tu_quy_heo",
    "-1",
    "0",
    "1",
    "13",
    "14",
    "1e9",
    "NaN",
    "inf",
    "0x10",
    "١٢",  # Arabic-Indic digits: int() accepts them
    "9" * 30,
    "-" + "9" * 30,
    "\x00",
    "a\x00b",
    "\u202e",
    "<script>alert(1)</script>",
    "null",
    "[]",
    "{}",
    "true",
    "00000000-0000-0000-0000-000000000000",
]


def values(extra: list[str] | None = None) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY + (extra or [])),
        st.text(max_size=40),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
    )


def field_names(documented: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(documented), st.text(min_size=1, max_size=16))


def posts(documented: list[str], extra: list[str] | None = None) -> st.SearchStrategy:
    """A form body: a list of (name, value) pairs, names repeated at will."""
    return st.lists(st.tuples(field_names(documented), values(extra)), max_size=40)


def mutations(documented: list[str], extra: list[str] | None = None) -> st.SearchStrategy:
    """Up to four changes to a valid body: replace a value, add a field, drop a field."""
    change = st.one_of(
        st.tuples(st.just("set"), st.sampled_from(documented), values(extra)),
        st.tuples(st.just("add"), field_names(documented), values(extra)),
        st.tuples(st.just("drop"), st.sampled_from(documented), st.just("")),
    )
    return st.lists(change, max_size=4)


def mutate(body: list[tuple[str, str]], changes) -> list[tuple[str, str]]:
    body = list(body)
    for kind, name, value in changes:
        if kind == "drop":
            body = [(k, v) for k, v in body if k != name]
        elif kind == "set":
            body = [(k, v) for k, v in body if k != name] + [(name, value)]
        else:
            body.append((name, value))
    return body


def as_data(body: list[tuple[str, str]]) -> dict[str, list[str]]:
    """What the test client posts for repeated names."""
    data: dict[str, list[str]] = {}
    for name, value in body:
        data.setdefault(name, []).append(value)
    return data


def note(label: str) -> None:
    """Count an outcome in ``--hypothesis-show-statistics`` (does nothing outside a fuzz)."""
    from hypothesis import event
    from hypothesis.control import current_build_context

    try:
        current_build_context()
    except Exception:
        return
    event(label)


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Sitting, Game, Payment, Seat, HistoryEntry, Settlement, Player, Membership)
    }


def ledger_problems(sitting_id: int) -> list[str]:
    from tests.reliability.dbtool import audit

    return audit(sitting_id)["problems"]
