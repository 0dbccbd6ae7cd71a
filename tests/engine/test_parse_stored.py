"""A stored record read again without a second check: only under a rule set that checks records
as the one it was stored under, and then exactly the record ``parse_record`` would read."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from scoring import engine
from scoring.engine import PRESETS, parse_record, parse_stored, record_from_dict, record_to_dict
from scoring.engine.samples import random_record
from scoring.engine.validate import RECORD_CHECKS, checks_alike

VALIDATE = Path(engine.__file__).with_name("validate.py")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_canonical_form_reads_back_without_a_check(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"stored-{preset}")
    for _ in range(300):
        record = parse_record(random_record(rules, rng), rules)
        stored = json.loads(json.dumps(record_to_dict(record)))
        assert record_from_dict(stored) == record


@pytest.mark.parametrize("stored_under", PRESETS)
def test_a_stored_record_reads_as_parse_record_reads_it_under_every_preset(stored_under):
    """Under a rule set that checks alike, the record read without a check is the one
    ``parse_record`` reads; under any other, ``parse_record`` decides (and may refuse)."""
    before = PRESETS[stored_under]
    rng = random.Random(f"across-{stored_under}")
    for _ in range(150):
        stored = record_to_dict(parse_record(random_record(before, rng), before))
        for rules in PRESETS.values():
            try:
                expected = parse_record(stored, rules)
            except engine.InvalidRecord:
                assert not checks_alike(rules, before)
                with pytest.raises(engine.InvalidRecord):
                    parse_stored(stored, rules, before)
                continue
            assert parse_stored(stored, rules, before) == expected


def test_some_presets_check_alike_and_others_do_not():
    dem_la = PRESETS["dem-la"]
    dearer = engine.ruleset_from_dict({**engine.ruleset_to_dict(dem_la), "card_value": 2,
                                       "id": "custom", "name": "Đếm lá gấp đôi"})  # fmt: skip
    assert checks_alike(dem_la, dearer)  # what the cards cost does not change a record
    assert not checks_alike(dem_la, PRESETS["dem-la-26"])  # kết 3 bích priced: cards needed
    assert not checks_alike(dem_la, PRESETS["cuoc"])


def _fields_read() -> set[str]:
    """Every attribute the checker reads off a rule set: ``rules.x`` or ``self.rules.x``."""
    read = set()
    for node in ast.walk(ast.parse(VALIDATE.read_text("utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if (isinstance(owner, ast.Name) and owner.id == "rules") or (
            isinstance(owner, ast.Attribute) and owner.attr == "rules"
        ):
            read.add(node.attr)
    return read


def test_every_field_the_checker_reads_is_in_the_list_it_compares():
    """A field read by ``parse_record`` but missing from ``RECORD_CHECKS`` would let a record
    through unchecked under a rule set that refuses it."""
    read = _fields_read()
    assert "mode" in read and "chops" in read  # the scan sees the reads
    assert read - {"name"} <= set(RECORD_CHECKS)
    assert set(RECORD_CHECKS) <= read  # and lists nothing the checker does not read
