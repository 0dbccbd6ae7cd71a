"""Any input at all gets either a score or an InvalidRecord: never another exception."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, InvalidRecord, score_game
from scoring.engine.samples import random_record
from tests.hypothesis_counts import examples

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=True)
    | st.sampled_from(["An", "Bình", "2H", "2♥", "heo", "3dt", "tq", "sanh_rong", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["players", "finish", "hands", "cards", "heo", "steps", "player",
                         "play", "An", "Bình", "cong", "chat", "toi_trang", "hand", "top"]),
        inner, max_size=5),
    max_leaves=20,
)  # fmt: skip


def score_or_refuse(rules, data):
    try:
        result = score_game(rules, data, 1000)
    except InvalidRecord as exc:
        assert exc.problems
        for problem in exc.problems:
            problem.message("vi"), problem.message("en")
        return
    assert sum(result.net.values()) == 0


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=examples(200), deadline=None)
@given(data=json_values)
def test_it_never_crashes_on_arbitrary_json(preset, data):
    score_or_refuse(PRESETS[preset], data)


def mutate(value, rng: random.Random, junk):
    """Replace one nested value of a record by junk."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        if rng.random() < 0.4:
            value[key] = junk
        else:
            value[key] = mutate(value[key], rng, junk)
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        if rng.random() < 0.4:
            value[i] = junk
        else:
            value[i] = mutate(value[i], rng, junk)
    else:
        return junk
    return value


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=examples(200), deadline=None)
@given(rng=st.randoms(use_true_random=False), junk=json_values)
def test_it_never_crashes_on_a_damaged_valid_record(preset, rng, junk):
    rules = PRESETS[preset]
    data = mutate(copy.deepcopy(random_record(rules, rng)), rng, junk)
    score_or_refuse(rules, data)


JUNK = [None, True, 0, -1, 1.5, "", "?", [], [[]], {}, {"x": 1}, [{}]]


def paths(value, prefix=()):
    """Every place in a nested record: dict keys and list items, at every depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield (*prefix, i)
            yield from paths(item, (*prefix, i))


def replaced(data, path, junk):
    out = copy.deepcopy(data)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    return out


@pytest.mark.long
@pytest.mark.parametrize("preset", PRESETS)
def test_it_never_crashes_on_junk_in_any_field(preset):
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for _ in range(40):
        data = random_record(rules, rng)
        for path in paths(data):
            for junk in JUNK:
                score_or_refuse(rules, replaced(data, path, junk))
