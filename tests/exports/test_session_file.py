"""The session file: what an export holds, and export → import → export for every preset."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.utils import translation

from scoring import engine, ledger, services
from scoring.ledger import sessionfile
from scoring.models import Game, HistoryEntry, Player, Sitting
from scoring.services import bulk_import as importer
from tests.factories import STAKE, open_sitting, plain, record, session


def imported(owner, data):
    return importer.session_import(owner=owner, data=data, source="ban.json").sitting


def names_of(sitting):
    names = dict(sitting.members.values_list("pk", "name"))
    return {names[pk]: amount for pk, amount in ledger.balances(sitting).items()}


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_it_round_trips_every_preset(owner, preset):
    data = session(preset, games=12)
    first = sessionfile.session_build(imported(owner, data))
    second = sessionfile.session_build(imported(owner, json.loads(json.dumps(first))))
    assert _book(second) == _book(first)
    assert first["rules"] == engine.ruleset_to_dict(engine.PRESETS[preset])
    # The games are the records of the file, in canonical form, in order.
    rules = engine.PRESETS[preset]
    for given, kept in zip(data["games"], first["games"], strict=True):
        flags = {k: given[k] for k in ("void", "void_reason") if k in given}
        record = {k: v for k, v in given.items() if k not in flags}
        assert kept == {**engine.record_to_dict(engine.parse_record(record, rules)), **flags}


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_it_totals_exactly_what_the_engine_scores(owner, preset):
    data = session(preset, games=12)
    exported = sessionfile.session_build(imported(owner, data))
    expected = dict.fromkeys(data["players"], 0)
    for game in data["games"]:
        if not game.get("void"):
            record = {k: v for k, v in game.items() if k not in ("void", "void_reason")}
            for name, amount in engine.score_game(
                engine.PRESETS[preset], record, STAKE
            ).net.items():
                expected[name] += amount
    expected["An"] += 3000  # the one settlement that is not void
    expected["Bình"] -= 3000
    assert exported["totals"] == expected
    assert sum(expected.values()) == 0


def test_it_round_trips_a_sitting_recorded_at_the_table(owner):
    """Edits and voids made in the app survive as the current record and the void flag."""
    sitting = open_sitting(
        owner,
        name="Bàn thật",
        day=date(2026, 5, 16),
        preset="nhat-nhi-ba-bet",
        players=["An", "Bình", "Chi"],
    )
    first = {
        "players": ["An", "Bình", "Chi"],
        "finish": ["An", "Bình", "Chi"],
        "hands": {"Chi": {"cards": 4}},
    }
    game = record(sitting, owner, first)
    services.game_edit(
        game=game,
        user=owner,
        expected_revision=1,
        record={**first, "finish": ["Bình", "An", "Chi"]},
    )
    other = record(sitting, owner, first)
    services.game_void(game=other, user=owner, reason="ghi trùng")
    exported = sessionfile.session_build(sitting)
    assert exported["games"][0]["finish"] == ["Bình", "An", "Chi"]
    assert exported["games"][1]["void"] is True
    assert exported["games"][1]["void_reason"] == "ghi trùng"
    again = sessionfile.session_build(imported(owner, exported))
    assert _book(again) == _book(exported)


def _book(exported: dict[str, Any]) -> dict[str, Any]:
    """A session file less its history: an imported copy has a history of its own (opened,
    recorded, …, imported), with its own times, hashes and fingerprint."""
    assert len(exported.pop("history")) >= len(exported["games"])
    assert len(exported.pop("fingerprint")) == 9
    return exported


def test_it_writes_totals_and_the_fewest_payments_left(owner):
    exported = sessionfile.session_build(imported(owner, plain()))
    assert exported["version"] == 1
    assert exported["players"] == ["Ánh", "Đức", "Hương"]
    assert exported["totals"] == {"Ánh": 3000, "Đức": -9000, "Hương": 6000}
    # settle.min_payments orders by name as Python sorts them: "Hương" < "Ánh" < "Đức".
    assert exported["settle_up"] == [
        {"from": "Đức", "to": "Hương", "amount": 6000},
        {"from": "Đức", "to": "Ánh", "amount": 3000},
    ]
    text = sessionfile.session_json(Sitting.objects.get())
    assert "Đức" in text  # not \u-escaped


def test_it_imports_through_the_services_with_their_history(owner):
    sitting = imported(owner, session("dem-la", games=5))
    actions = list(sitting.history.values_list("action", flat=True))
    assert actions.count(HistoryEntry.Action.RECORDED) == 5
    assert actions.count(HistoryEntry.Action.VOIDED) == 1
    assert actions.count(HistoryEntry.Action.SETTLED) == 2
    assert actions.count(HistoryEntry.Action.SETTLEMENT_VOIDED) == 1
    assert sitting.history.get(action=HistoryEntry.Action.IMPORTED).note == "ban.json"
    assert list(sitting.games.order_by("number").values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]
    assert sitting.games.get(number=2).is_void


def test_it_reuses_the_owners_players_of_the_same_name(owner):
    imported(owner, plain())
    imported(owner, plain())
    assert Player.objects.filter(owner=owner).count() == 3


def test_it_takes_the_date_when_given_and_today_otherwise(owner):
    assert str(imported(owner, plain(date="2025-12-31")).date) == "2025-12-31"
    from django.utils import timezone

    assert imported(owner, plain()).date == timezone.localdate()


def test_it_accepts_a_rule_set_object(owner):
    rules = engine.ruleset_to_dict(engine.PRESETS["cuoc"]) | {"id": "custom", "name": "Nhà Tư"}
    sitting = imported(owner, session("cuoc", rules=rules))
    assert sitting.rules == rules
    assert sitting.rules_label == "Nhà Tư"


def test_it_warns_when_the_files_totals_disagree(owner):
    result = importer.session_import(
        owner=owner, data=plain(totals={"Ánh": 1, "Đức": -9000, "Hương": 6000})
    )
    assert len(result.warnings) == 1
    assert "Ánh" in result.warnings[0]
    assert names_of(result.sitting)["Ánh"] == 3000  # the ledger's own number wins


def test_it_imports_a_fact_the_rules_do_not_price_and_says_so(owner):
    """Records are facts: a tới trắng game with the dealt hands, under a rule set that does not
    count thối on it, is imported with its hands and a warning that they cost nothing."""
    toi = {"players": ["Ánh", "Đức", "Hương"], "toi_trang": {"player": "Hương", "hand": "6_doi"},
           "hands": {"Ánh": {"heo": ["2H", "2D"]}}}  # fmt: skip
    data = plain()
    data["games"].append(toi)
    result = importer.session_import(owner=owner, data=data)
    assert result.warnings == [
        'Ván 3: Bài trên tay không tính: luật "Đếm lá" không tính thối khi tới trắng bằng 6 đôi.'
    ]
    game = result.sitting.games.get(number=3)
    assert game.record["hands"] == {
        "Ánh": {"cards": 13, "heo": ["2D", "2H"], "3dt": 0, "tq": 0, "4dt": 0}
    }
    assert names_of(result.sitting)["Ánh"] == 3000 - 13000  # the first two, then the tới trắng
    with translation.override("en"):
        [warning] = importer.session_import(owner=owner, data=data).warnings
    assert warning == (
        'Game 3: The hands are not counted: the rule set "Đếm lá" does not count thối on a tới '
        "trắng with six pairs."
    )


def test_it_ignores_settle_up_and_agreeing_totals(owner):
    exported = sessionfile.session_build(imported(owner, plain()))
    exported["settle_up"] = [{"from": "whoever", "to": "nobody", "amount": -1}]
    result = importer.session_import(owner=owner, data=exported)
    assert result.warnings == []


def test_it_reads_utf8_with_or_without_a_bom():
    raw = json.dumps(plain(), ensure_ascii=False).encode()
    assert sessionfile.session_read(raw) == plain()
    assert sessionfile.session_read(b"\xef\xbb\xbf" + raw) == plain()


@pytest.mark.parametrize(
    "raw",
    [b"{not json", b"\xff\xfe\x00", b"[" * 100_000, b'{"stake": 1' + b"0" * 5000 + b"}"],
)
def test_it_refuses_what_is_not_json(raw):
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_read(raw)
    assert len(error.value.problems) == 1


def test_it_refuses_a_file_too_large():
    with pytest.raises(sessionfile.SessionFileError, match="MB"):
        sessionfile.session_read(b" " * (sessionfile.MAX_FILE_BYTES + 1))


def test_it_names_each_bad_game_by_number_and_field(owner):
    data = plain()
    data["games"][1]["hands"]["Ánh"]["cards"] = 14
    data["games"].append(
        {"players": ["Ánh", "Đức"], "finish": ["Ánh"], "hands": {"Ánh": {"cards": 3}}}
    )
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_check(data)
    where = {(p.game, p.path) for p in error.value.problems}
    assert (2, "games[1].hands.Ánh.cards") in where
    assert any(game == 3 and path.startswith("games[2]") for game, path in where)
    assert all(p.message for p in error.value.problems)
    assert any(
        str(p).startswith("Ván 2 (games[1].hands.Ánh.cards): ") for p in error.value.problems
    )


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"rules": "khong-co"}, "rules"),
        ({"rules": {"mode": "sideways"}}, "rules.mode"),
        ({"rules": 7}, "rules"),
        ({"stake": 0}, "stake"),
        ({"stake": "5000"}, "stake"),
        ({"stake": 1001, "rules": "cuoc"}, "stake"),
        ({"name": ""}, "name"),
        ({"date": "16/05/2026"}, "date"),
        ({"players": ["Ánh"]}, "players"),
        ({"players": ["Ánh", "ánh", "Đức", "Hương"]}, "players[1]"),
        ({"players": ["Ánh ", "Đức", "Hương"]}, "players[0]"),
        ({"version": 2}, "version"),
        ({"setlements": []}, "setlements"),
        ({"games": {"1": {}}}, "games"),
        ({"settlements": [{"from": "Ánh", "to": "Ánh", "amount": 1}]}, "settlements[0].to"),
        ({"settlements": [{"from": "Ánh", "to": "Đức", "amount": 1.5}]}, "settlements[0].amount"),
        ({"settlements": [{"from": "Ai", "to": "Đức", "amount": 1}]}, "settlements[0].from"),
    ],
)
def test_it_refuses_a_bad_field_and_saves_nothing(owner, change, path):
    with pytest.raises(sessionfile.SessionFileError) as error:
        importer.session_import(owner=owner, data=plain(**change))
    assert path in [p.path for p in error.value.problems]
    assert not Sitting.objects.exists()
    assert not Player.objects.exists()


def test_it_refuses_a_game_player_missing_from_the_players_list(owner):
    data = plain()
    data["games"][0]["players"] = ["Ánh", "Giang"]
    data["games"][0]["hands"] = {"Giang": {"cards": 5}}
    with pytest.raises(sessionfile.SessionFileError) as error:
        importer.session_import(owner=owner, data=data)
    problems = [(p.game, p.path) for p in error.value.problems]
    assert (1, "games[0].players[1]") in problems
    assert "Giang" in str(error.value)
    assert not Sitting.objects.exists() and not Game.objects.exists()


def test_it_lists_problems_in_reading_order(owner):
    data = plain(settlements=[{"from": "Ánh", "to": "Bảo", "amount": 1}], stake=-1)
    data["games"][1]["finish"] = ["Giang"]
    data["games"][0]["finish"] = ["Giang"]
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_check(data)
    paths = [p.path for p in error.value.problems]
    assert paths[0] == "stake"
    assert paths[-1] == "settlements[0].to"
    games = [p.game for p in error.value.problems if p.game]
    assert games == sorted(games) and set(games) == {1, 2}
