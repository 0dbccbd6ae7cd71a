"""The canonical JSON form of a record, and reading card text."""

from __future__ import annotations

import json
import random

import pytest

from scoring.engine import PRESETS, parse_card, parse_record, record_to_dict
from scoring.engine.samples import random_record

from .helpers import four


@pytest.mark.parametrize("preset", PRESETS)
def test_it_round_trips_records_through_their_canonical_form(preset):
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for _ in range(300):
        record = parse_record(random_record(rules, rng), rules)
        data = json.loads(json.dumps(record_to_dict(record)))
        assert parse_record(data, rules) == record
        assert record_to_dict(parse_record(data, rules)) == data


def test_it_writes_the_canonical_form():
    record = parse_record(
        four(
            finish=["B"],
            hands={
                "A": {"cards": 5, "heo": ["2♥", "2s"]},
                "C": {"cards": 8},
                "D": {"cards": 13},
                "B": {"cards": 0},
            },
        ),
        PRESETS["dem-la"],
    )
    assert record_to_dict(record) == {
        "players": ["A", "B", "C", "D"],
        "opening": False,
        "finish": ["B"],
        "hands": {
            "A": {"cards": 5, "heo": ["2S", "2H"], "3dt": 0, "tq": 0, "4dt": 0},
            "C": {"cards": 8, "heo": [], "3dt": 0, "tq": 0, "4dt": 0},
            "D": {"cards": 13, "heo": [], "3dt": 0, "tq": 0, "4dt": 0},
        },
        "cong": ["D"],
        "chat": [],
        "toi_trang": None,
        "den": None,
        "ket_3_bich": False,
        "chan_ket_3_bich": None,
    }


def test_it_writes_a_toi_trang_record_with_only_its_fields():
    record = parse_record(
        four(toi_trang={"player": "C", "hand": "6_doi"}, finish=[]), PRESETS["dem-la"]
    )
    assert record_to_dict(record) == {
        "players": ["A", "B", "C", "D"],
        "opening": False,
        "toi_trang": {"player": "C", "hand": "6_doi"},
    }
    assert record.winner == "C"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("2H", "2H"),
        ("2♥", "2H"),
        ("2h", "2H"),
        ("2♡", "2H"),
        ("10D", "10D"),
        ("10♦", "10D"),
        ("QC", "QC"),
        ("q♣", "QC"),
        ("3S", "3S"),
        ("3♠", "3S"),
        (" AH ", "AH"),
    ],
)
def test_it_reads_card_text_in_letter_and_symbol_form(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["1H", "11D", "2", "H2", "2X", "", "10", 2, None, "2HH"])
def test_it_refuses_text_that_is_not_a_card(text):
    assert parse_card(text) is None
