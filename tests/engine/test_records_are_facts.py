"""Records are facts, rules decide money: a record may state a fact its rule set does not price
(the losers' dealt hands in a tới trắng, under a rule set that does not count thối on it; a kết
3 bích or a chặn kết 3 bích, under one without kết 3 bích). It is accepted, the fact is kept,
and the result notes that it cost nothing; so a stored record can be priced again under any
rule set. An impossible fact is still refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import engine

ROOT = Path(__file__).resolve().parents[2]
DEM_LA = engine.PRESETS["dem-la"]
COUNTS = engine.ruleset_from_dict({**engine.ruleset_to_dict(DEM_LA), "toi_trang_counts_thoi": True})
TOI = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "toi_trang": {"player": "Chi", "hand": "sanh_rong"},
    "hands": {"An": {"heo": ["2H"]}},
}
NO_HANDS = {key: value for key, value in TOI.items() if key != "hands"}
PLAYED = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "finish": ["An"],
    "hands": {"Bình": {"cards": 4, "heo": ["2H"]}, "Chi": {"cards": 13}, "Dũng": {"cards": 1}},
}
KET = {"ket_3_bich": True}
CHAN = {"chan_ket_3_bich": {"player": "Bình", "last_round": ["An", "Bình", "Dũng"]}}


def test_the_hands_are_accepted_and_cost_nothing_where_the_rules_do_not_count_them():
    parsed = engine.parse_record(TOI, DEM_LA)
    assert parsed.hands == {"An": engine.Hand(13, ("2H",))}  # the fact is kept
    result = engine.score_game(DEM_LA, parsed, 1000)
    assert result.net == {"An": -13000, "Bình": -13000, "Chi": 39000, "Dũng": -13000}
    assert result.transfers == engine.score_game(DEM_LA, NO_HANDS, 1000).transfers
    assert result.thoi == {}
    assert [(n.path, n.code) for n in result.notes] == [("hands", "hands_set_aside")]
    assert result.notes[0].message("vi") == (
        'Bài trên tay không tính: luật "Đếm lá" không tính thối khi tới trắng bằng sảnh rồng.'
    )
    assert result.notes[0].message("en") == (
        'The hands are not counted: the rule set "Đếm lá" does not count thối on a tới trắng '
        "with dragon (3 to A straight)."
    )


def test_a_rule_set_that_counts_them_charges_them_and_notes_nothing():
    result = engine.score_game(COUNTS, TOI, 1000)
    assert result.net["An"] == -23000 and result.thoi == {"An": 10000}
    assert result.notes == ()


def test_a_record_without_hands_has_no_note():
    assert engine.score_game(DEM_LA, NO_HANDS, 1000).notes == ()


def test_the_stored_form_keeps_the_hands_so_another_rule_set_can_price_them():
    stored = engine.record_to_dict(engine.parse_record(TOI, DEM_LA))
    assert stored["hands"]["An"]["heo"] == ["2H"]
    assert engine.score_game(COUNTS, stored, 1000).net["An"] == -23000


@pytest.mark.parametrize(
    ("fact", "words"),
    [
        (KET, ("Kết 3 bích không tính", "The kết 3 bích is not counted")),
        (CHAN, ("Chặn kết 3 bích không tính", "The chặn kết 3 bích is not counted")),
    ],
)
def test_a_ket_3_bich_fact_is_priced_as_any_game_where_the_rules_do_not_play_it(fact, words):
    result = engine.score_game(DEM_LA, {**PLAYED, **fact}, 1000)
    assert result.transfers == engine.score_game(DEM_LA, PLAYED, 1000).transfers
    [note] = result.notes
    assert note.path == next(iter(fact))
    assert note.message("vi").startswith(words[0]) and note.message("en").startswith(words[1])
    assert '"Đếm lá"' in note.message("en")
    # The fact is kept: the rule set that plays kết 3 bích prices it from the stored form.
    stored = engine.record_to_dict(engine.parse_record({**PLAYED, **fact}, DEM_LA))
    ket_26 = engine.score_game(engine.PRESETS["dem-la-26"], stored, 1000)
    assert {t.reason for t in ket_26.transfers} == {next(iter(fact))} and ket_26.notes == ()


def test_a_ket_3_bich_fact_still_needs_what_the_other_rules_price():
    """Under a rule set that plays kết 3 bích a loser's cards may be left out; where it is
    priced as any game they are needed, and a record without them is refused."""
    bare = {"players": ["An", "Bình"], "finish": ["An"], **KET}
    assert engine.score_game(engine.PRESETS["dem-la-26"], bare, 1000).net["An"] == 26000
    with pytest.raises(engine.InvalidRecord) as refused:
        engine.parse_record(bare, DEM_LA)
    assert [(p.path, p.code) for p in refused.value.problems] == [
        ("hands.Bình.cards", "loser_without_cards")
    ]
    both = {**PLAYED, **KET, **CHAN}  # one 3♠: still impossible, whatever the rule set
    with pytest.raises(engine.InvalidRecord) as refused:
        engine.parse_record(both, DEM_LA)
    assert [p.code for p in refused.value.problems] == ["ket_and_chan"]


@pytest.mark.parametrize(
    ("hands", "path", "code"),
    [
        ({"An": {"cards": 12}}, "hands.An.cards", "dealt_hand_not_13"),
        ({"Giang": {"heo": ["2H"]}}, "hands.Giang", "unknown_player"),
        ({"An": {"heo": ["2H"]}, "Bình": {"heo": ["2H"]}}, "hands.Bình.heo[0]", "duplicate_heo"),
        ({"An": {"heo": ["9H"]}}, "hands.An.heo[0]", "not_a_heo"),
        ({"An": {"tq": 4}}, "hands.An.cards", "special_exceeds_cards"),
        ("An", "hands", "not_an_object"),
    ],
)
def test_an_impossible_fact_is_still_refused(hands, path, code):
    with pytest.raises(engine.InvalidRecord) as refused:
        engine.parse_record({**TOI, "hands": hands}, DEM_LA)
    assert [(p.path, p.code) for p in refused.value.problems] == [(path, code)]


def test_the_score_command_scores_it_and_says_the_note_on_stderr():
    def score(records: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "scoring.engine.cli", "--rules", "dem-la", "--stake", "1000"],
            input=json.dumps(records), capture_output=True, text=True, timeout=60, check=False,
            cwd=ROOT,
        )  # fmt: skip

    done, plain = score([NO_HANDS, TOI]), score([NO_HANDS, NO_HANDS])
    assert done.returncode == 0
    assert done.stdout == plain.stdout  # the output is what the same game without hands gives
    assert done.stderr.splitlines() == [
        'note: [1].hands: The hands are not counted: the rule set "Đếm lá" does not count thối '
        "on a tới trắng with dragon (3 to A straight)."
    ]
    assert plain.stderr == ""
    one = score(TOI)
    assert one.returncode == 0 and json.loads(one.stdout)["net"]["Chi"] == 39000
    assert one.stderr.startswith("note: hands: The hands are not counted")
