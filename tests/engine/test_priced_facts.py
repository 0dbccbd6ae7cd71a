"""Records are facts, rules decide money: a stored record priced under another rule set has the
facts that rule set does not price set aside with a note (``engine.priced_facts``), while a new
record still follows the rules book (the same record is refused by ``parse_record``)."""

from __future__ import annotations

import pytest

from scoring import engine

DEM_LA = engine.PRESETS["dem-la"]
COUNTS = engine.ruleset_from_dict({**engine.ruleset_to_dict(DEM_LA), "toi_trang_counts_thoi": True})
TOI = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "toi_trang": {"player": "Chi", "hand": "sanh_rong"},
    "hands": {"An": {"heo": ["2H"]}},
}


def test_hands_of_a_toi_trang_are_set_aside_where_the_rules_do_not_count_them():
    facts, notes = engine.priced_facts(TOI, DEM_LA)
    assert "hands" not in facts and facts["toi_trang"] == TOI["toi_trang"]
    assert [(n.path, n.code) for n in notes] == [("hands", "hands_set_aside")]
    assert "không tính thối" in notes[0].message("vi")
    assert "does not count thối" in notes[0].message("en")
    result = engine.score_game(DEM_LA, engine.parse_record(facts, DEM_LA), 1000)
    assert result.net == {"An": -13000, "Bình": -13000, "Chi": 39000, "Dũng": -13000}
    assert "hands" in TOI  # the stored record is not changed


def test_a_rule_set_that_counts_them_keeps_them():
    facts, notes = engine.priced_facts(TOI, COUNTS)
    assert facts is TOI and notes == []
    assert engine.score_game(COUNTS, engine.parse_record(facts, COUNTS), 1000).net["An"] == -23000


@pytest.mark.parametrize(
    "data",
    [
        {"players": ["An", "Bình"], "finish": ["An"], "hands": {"Bình": {"cards": 3}}},
        {**TOI, "toi_trang": {"player": "Chi", "hand": "no_such_hand"}},
        {**TOI, "toi_trang": "Chi"},
        {**TOI, "hands": {}},
        ["not", "a", "record"],
    ],
)
def test_anything_else_is_left_for_the_checker(data):
    assert engine.priced_facts(data, DEM_LA) == (data, [])


def test_a_new_record_with_those_hands_is_still_refused():
    with pytest.raises(engine.InvalidRecord) as refused:
        engine.parse_record(TOI, DEM_LA)
    assert [p.code for p in refused.value.problems] == ["hands_not_with_toi_trang"]
