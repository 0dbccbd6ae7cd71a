"""parse_record's quick reading accepts exactly what the checker accepts, and reads it the same.

parse_record first tries ``_quick_record``, which gives up (None) on anything it does not
expect; the checker (``_checked_record``) then reads the record and says what is wrong. So for
any input the quick reading must either give up or build the very record the checker builds.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, GameRecord, InvalidRecord, parse_record
from scoring.engine.samples import random_record
from scoring.engine.validate import _checked_record, _quick_record
from scoring.engine.values import replace
from tests.hypothesis_counts import examples

from .test_properties import VARIANTS, table_choices
from .test_robustness import JUNK, json_values, mutate, paths, replaced


def agree(rules: Any, data: Any) -> GameRecord | None:
    """The quick reading gives up or agrees with the checker; the record, if valid."""
    quick = _quick_record(data, rules)
    try:
        checked = _checked_record(data, rules)
    except InvalidRecord:
        assert quick is None, data
        return None
    # repr: every field, the order of hands and the types included.
    assert quick is None or repr(quick) == repr(checked), data
    assert repr(parse_record(data, rules)) == repr(checked)
    return checked


@pytest.mark.parametrize("preset", VARIANTS)
@settings(max_examples=examples(150), deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_it_reads_every_plain_valid_record_quickly(preset, rng):
    rules = VARIANTS[preset]
    data = random_record(rules, rng)
    assert _quick_record(data, rules) is not None, data
    agree(rules, data)


@settings(max_examples=examples(150), deadline=None)
@given(rules=table_choices(), rng=st.randoms(use_true_random=False))
def test_it_reads_records_quickly_with_any_table_choices(rules, rng):
    data = random_record(rules, rng)
    assert _quick_record(data, rules) is not None, data
    agree(rules, data)


def plausible(names: list[str], rng: random.Random) -> Any:
    """A value that could well be in a record: a name, a count, a card, a play, a list of them."""
    pool: list[Any] = [
        *names, 0, 1, 5, 12, 13, 14, True, False, None, [], {}, "2H", "2S", " 2D", "3S", "9H",
        "heo", "doi_heo", "3dt", "tq", "4dt", "ba_heo", "sanh_rong", "6_doi", "tu_quy_3",
    ]  # fmt: skip
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(pool)
    if roll < 0.7:
        return rng.sample(names, rng.randint(0, len(names)))
    if roll < 0.8:
        return [rng.choice(names), rng.choice(names)]
    if roll < 0.9:
        return {"cards": rng.choice([0, 1, 7, 13]), "heo": rng.sample(["2S", "2C", "2D", "2H"], 1)}
    return {"player": rng.choice(names), "play": rng.choice(["heo", "3dt", "tq", "4dt"])}


def shuffle_some(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Valid-looking changes that may no longer fit together: values moved, keys dropped or
    added, lists reordered."""
    names = list(data["players"])
    for _ in range(rng.randint(1, 3)):
        places = list(paths(data))
        roll = rng.random()
        if roll < 0.55 and places:
            data = replaced(data, rng.choice(places), plausible(names, rng))
        elif roll < 0.7:
            key = rng.choice(["finish", "hands", "cong", "chat", "den", "ket_3_bich",
                              "chan_ket_3_bich", "toi_trang", "opening", "version"])  # fmt: skip
            data.pop(key, None)
        elif roll < 0.85:
            key = rng.choice(["cong", "den", "ket_3_bich", "version", "opening"])
            data[key] = plausible(names, rng)
        else:
            lists = [p for p in places if isinstance(_at(data, p), list)]
            if lists:
                place = rng.choice(lists)
                items = list(_at(data, place))
                rng.shuffle(items)
                data = replaced(data, place, items)
    return data


def nudge(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One small change of meaning, so the record is often still valid, or wrong in one way
    only: how the fields fit together."""
    names = list(data["players"])
    hands = data.get("hands") or {}
    chains = data.get("chat") or []
    roll = rng.randrange(9)
    if roll == 0:
        data["den"] = rng.choice(names)
    elif roll == 1 and data.get("finish"):
        finish = list(data["finish"])
        rest = finish[1:]
        rng.shuffle(rest)  # the winner stays, or not
        finish = finish[:1] + rest if rng.random() < 0.6 else rng.sample(finish, len(finish))
        data["finish"] = finish if rng.random() < 0.8 else finish[:1]
    elif roll == 2 and chains:
        step = rng.choice(rng.choice(chains)["steps"])
        if step["play"] not in ("heo", "doi_heo"):
            step["play"] = rng.choice(["3dt", "tq", "4dt"])
        if rng.random() < 0.5:
            step["player"] = rng.choice(names)
    elif roll == 3:
        data["cong"] = rng.sample(names, rng.randint(0, len(names) - 1))
    elif roll == 4 and chains:
        chain = rng.choice(chains)
        chain["victim_out"] = not chain.get("victim_out")
    elif roll == 5 and hands:
        player = rng.choice(list(hands))
        if rng.random() < 0.5:
            del hands[player]
        else:
            hands[player]["cards"] = rng.choice([0, 1, 12, 13])
    elif roll == 6:
        hands[rng.choice(names)] = {"cards": rng.choice([1, 5, 13])}
        data["hands"] = hands
    elif roll == 7:
        data["ket_3_bich"] = True
    else:
        stopped = rng.choice(names)
        data["chan_ket_3_bich"] = {"player": stopped, "last_round": rng.sample(names, 2)}
        if rng.random() < 0.3:
            data["chan_ket_3_bich"]["last_round"] = [stopped]
    return data


DEN_WHEN = ("any_cong", "all_cong", "always", "never")


@pytest.mark.parametrize("preset", VARIANTS)
def test_it_agrees_with_the_checker_on_nudged_records(preset):
    # Plain seeded randomness rather than Hypothesis's: the mistakes to find need several
    # unlikely draws at once, which Hypothesis's preference for simple values makes rarer.
    rng = random.Random(f"nudge-{preset}")
    for i in range(1500):
        rules = replace(VARIANTS[preset], den_when=DEN_WHEN[i % 4])
        agree(rules, nudge(nudge(random_record(rules, rng), rng), rng) if i % 3 == 0
              else nudge(random_record(rules, rng), rng))  # fmt: skip


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


@pytest.mark.parametrize("preset", VARIANTS)
@settings(max_examples=examples(300), deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_it_agrees_with_the_checker_on_changed_records(preset, rng):
    rules = VARIANTS[preset]
    agree(rules, shuffle_some(copy.deepcopy(random_record(rules, rng)), rng))


@settings(max_examples=examples(300), deadline=None)
@given(rules=table_choices(), rng=st.randoms(use_true_random=False))
def test_it_agrees_with_the_checker_on_changed_records_with_any_table_choices(rules, rng):
    agree(rules, shuffle_some(copy.deepcopy(random_record(rules, rng)), rng))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=examples(150), deadline=None)
@given(rng=st.randoms(use_true_random=False), junk=json_values)
def test_it_agrees_with_the_checker_on_damaged_records(preset, rng, junk):
    rules = PRESETS[preset]
    agree(rules, mutate(copy.deepcopy(random_record(rules, rng)), rng, junk))


@pytest.mark.parametrize("preset", PRESETS)
def test_it_agrees_with_the_checker_on_junk_in_any_field(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"quick-{preset}")
    for _ in range(20):
        data = random_record(rules, rng)
        for path in paths(data):
            for junk in [*JUNK, 13, "2H", "An", "Bình", ["An"]]:
                agree(rules, replaced(data, path, junk))


@pytest.mark.parametrize(
    "data",
    [
        # Valid, though not written the plain way: the checker reads them.
        {"players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 2, "heo": [" 2H"]}}},
        {"version": 1.0, "players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 1}}},
        {"players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 3}},
         "chat": [{"steps": [{"player": "A", "play": "3dt", "top": " 9h"},
                             {"player": "B", "play": "tq"}]}]},
    ],
)  # fmt: skip
def test_the_checker_still_reads_what_the_quick_reading_leaves(data):
    rules = PRESETS["dem-la"]
    assert _quick_record(data, rules) is None
    assert agree(rules, data) is not None
