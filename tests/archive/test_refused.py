"""A hand-edited archive is refused naming what changed (which book, which entry), and nothing
of it is saved; a file that is not an archive, or too large or too deep, gets the same kind of
plain message as a session file."""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError
from django.utils import translation

from scoring.engine import chain
from scoring.ledger import archive, archive_file
from scoring.ledger.sessionfile import SessionFileError
from scoring.models import Group, GroupHistoryEntry, HistoryEntry, Player, Settlement, Sitting
from scoring.services import group_archive

pytestmark = pytest.mark.django_db

EVENING = "Table “Tối thứ Bảy” (2026-11-28)"


@pytest.fixture
def original(rich_group) -> dict[str, Any]:
    return archive.archive_build(rich_group)


def _counts() -> tuple[int, ...]:
    models = (Group, Sitting, Player, Settlement, HistoryEntry, GroupHistoryEntry)
    return tuple(m.objects.count() for m in models)


def _refused(owner: Any, data: dict[str, Any]) -> str:
    """The one problem the import names (in English), after checking nothing was saved."""
    before = _counts()
    with translation.override("en"), pytest.raises(SessionFileError) as raised:
        group_archive.group_import(owner=owner, data=data)
    assert _counts() == before
    problems = raised.value.problems
    assert len(problems) == 1
    return str(problems[0])


def _entry(entries: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> int:
    return next(i for i, e in enumerate(entries) if test(e))


def test_the_untouched_archive_imports(original, stranger):
    assert group_archive.group_import(owner=stranger, data=original).group.owner == stranger


def test_a_changed_settlement_amount_is_named_by_its_book_and_number(original, stranger):
    edited = copy.deepcopy(original)
    edited["sittings"][0]["settlements"][0]["amount"] += 1000
    message = _refused(stranger, edited)
    assert EVENING in message and "Settlement no. 1 differs" in message


def test_a_changed_history_entry_is_named_by_its_place(original, stranger):
    edited = copy.deepcopy(original)
    history = edited["sittings"][0]["history"]
    k = _entry(history, lambda e: e["action"] == "settled")
    history[k]["after"]["amount"] = 1000
    message = _refused(stranger, edited)
    assert EVENING in message and f"History entry #{k + 1} " in message


def test_a_changed_record_is_named_by_its_game(original, stranger):
    edited = copy.deepcopy(original)
    game = edited["sittings"][0]["games"][1]
    assert game["record"]["hands"]["An"]["cards"] == 2
    game["record"]["hands"]["An"]["cards"] = 3
    message = _refused(stranger, edited)
    assert EVENING in message and "Game 2: its details differ from the history" in message


def test_a_renamed_player_is_named(original, stranger):
    edited = copy.deepcopy(original)
    chi = next(p for p in edited["players"] if p["name"] == "Chi")
    chi["name"] = "Chí"
    message = _refused(stranger, edited)
    assert EVENING in message and "“Chi” is not a player of the group" in message


def test_a_removed_entry_breaks_the_chain_where_it_was(original, stranger):
    edited = copy.deepcopy(original)
    del edited["sittings"][1]["history"][1]
    message = _refused(stranger, edited)
    assert "Table “Nhất nhì cuối tuần” (2026-11-29)" in message
    assert "History entry #2 " in message


def test_a_removed_last_entry_changes_the_fingerprint(original, stranger):
    edited = copy.deepcopy(original)
    edited["history"].pop()
    message = _refused(stranger, edited)
    assert "Group “Hội Thứ Bảy”" in message and original["fingerprint"] in message


def test_a_confirmation_the_history_does_not_hold_is_named(original, stranger):
    edited = copy.deepcopy(original)
    confirmed = edited["settlements"][0]
    assert confirmed["confirmed_at"] and confirmed["confirmed_by_payee"]
    confirmed["confirmed_at"] = None
    message = _refused(stranger, edited)
    assert "settlement no. 1: “received” differs" in message


def test_a_moved_period_close_is_named(original, stranger):
    edited = copy.deepcopy(original)
    edited["periods"][-1]["closes_through"] = "2026-12-31"
    assert "Period close no. 2 differs" in _refused(stranger, edited)


def test_a_changed_stake_is_named(original, stranger):
    edited = copy.deepcopy(original)
    edited["sittings"][0]["stake"] *= 2
    message = _refused(stranger, edited)
    assert EVENING in message and "stake differ from the history" in message


def test_a_changed_group_name_is_named(original, stranger):
    edited = copy.deepcopy(original)
    edited["group"]["name"] = "Hội Chủ Nhật"
    assert "differs from its history (“Hội Thứ Bảy”)" in _refused(stranger, edited)


def test_a_wrong_type_is_named_by_its_path(original, stranger):
    edited = copy.deepcopy(original)
    edited["sittings"][0]["games"][0]["revision"] = "1"
    message = _refused(stranger, edited)
    assert message.startswith("sittings[0].games[0].revision: Missing or of the wrong type")


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"\xff\xfe not text", "isn't UTF-8 text"),
        (b'{"format": ', "isn't valid JSON (line 1"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply (more than 40 levels)"),
        (b"[" * 60 + b"]" * 60, "nested too deeply (more than 40 levels)"),
        (b'{"a": "x\\u0000y"}', "NUL"),
        (b"\x1f\x8b\x08\x00broken", "compressed (gzip) file is damaged"),
    ],
)
def test_what_is_not_json_gets_one_plain_message(raw, said):
    with translation.override("en"), pytest.raises(SessionFileError) as raised:
        archive_file.archive_read(raw)
    assert said in str(raised.value.problems[0])


def test_a_file_over_the_limit_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setattr(archive_file, "MAX_ARCHIVE_BYTES", 1000)
    with translation.override("en"), pytest.raises(SessionFileError) as raised:
        archive_file.archive_read(b" " * 1001)
    assert "too large" in str(raised.value)
    with translation.override("en"), pytest.raises(SessionFileError) as raised:
        archive_file.archive_read(gzip.compress(b" " * 2000))
    assert "too large" in str(raised.value) and "unpacked" in str(raised.value)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({}, "not a group archive"),
        ({"version": 1, "games": []}, "not a group archive"),
        ({"format": archive.FORMAT, "version": 3}, "version 3; this site reads version 2"),
    ],
)
def test_what_is_not_an_archive_is_refused(owner, data, said):
    assert said in _refused(owner, data)


def test_a_session_file_is_not_taken_for_an_archive(owner, rich_group):
    from scoring.ledger import sessionfile

    data = json.loads(sessionfile.session_json(rich_group.sittings.order_by("id").first()))
    assert "not a group archive" in _refused(owner, data)


# --- What the group's fingerprint covers: each hand edit named ---------------------------


def _sitting_dated(data: dict[str, Any], day: str) -> int:
    return next(i for i, s in enumerate(data["sittings"]) if s["date"] == day)


def _renumbered(data: dict[str, Any]) -> dict[str, Any]:
    """The sittings numbered again after one was taken out, as a careful hand would."""
    for n, sitting in enumerate(data["sittings"], 1):
        sitting["n"] = n
    for entry in data["history"]:
        entry["sitting"] = None
    for period in data["periods"]:
        period["through_sitting"] = None
    return data


def test_a_removed_sitting_of_the_open_period_is_named(original, stranger):
    edited = copy.deepcopy(original)
    gone = edited["sittings"].pop(_sitting_dated(edited, "2026-12-01"))
    message = _refused(stranger, _renumbered(edited))
    assert f"sitting “{gone['name']}” (2026-12-01" in message
    assert "is in the group's fingerprint but not in the archive" in message


def test_a_removed_sitting_of_a_closed_period_is_named(original, stranger):
    edited = copy.deepcopy(original)
    gone = edited["sittings"].pop(_sitting_dated(edited, "2026-11-28"))
    message = _refused(stranger, _renumbered(edited))
    assert f"sitting “{gone['name']}” (2026-11-28" in message
    assert "is in the group's fingerprint but not in the archive" in message


def test_a_sitting_moved_into_a_closed_period_is_named(original, stranger):
    edited = copy.deepcopy(original)
    moved = edited["sittings"][_sitting_dated(edited, "2026-12-01")]
    moved["date"] = "2026-11-20"
    message = _refused(stranger, edited)
    assert f"sitting “{moved['name']}” is dated 2026-11-20" in message
    assert "the group's fingerprint says 2026-12-01" in message


def test_changed_bank_details_are_named(original, stranger):
    edited = copy.deepcopy(original)
    for player in edited["players"]:
        player["bank_bin"], player["bank_account"] = "970436", "0011223344"
        player["bank_holder"] = "KE GIAN"
    message = _refused(stranger, edited)
    assert "bank account of player" in message and "differs from the group's fingerprint" in message


def test_an_added_player_no_row_names_is_named(original, stranger):
    edited = copy.deepcopy(original)
    edited["players"].append({**edited["players"][0], "n": len(edited["players"]) + 1,
                              "name": "Người lạ", "merged_into": None})  # fmt: skip
    message = _refused(stranger, edited)
    assert "player “Người lạ” is not in the group's fingerprint" in message


def test_a_look_alike_name_is_named(original, stranger):
    edited = copy.deepcopy(original)
    edited["players"].append({**edited["players"][0], "n": len(edited["players"]) + 1,
                              "name": "Аn", "merged_into": None})  # fmt: skip
    message = _refused(stranger, edited)
    assert "Player “Аn” looks like “An”" in message


def test_a_carried_balance_the_sittings_do_not_add_up_to_is_named(original, stranger):
    edited = copy.deepcopy(original)
    # The standing close (the first was undone: what it carried is history only).
    at = max(i for i, e in enumerate(edited["history"]) if e["action"] == "period_closed")
    carried = edited["history"][at]["after"]["carried"]
    first = sorted(carried)[0]
    carried[first] += 1000
    # The history's hashes made again, as a forger would, and the covers with them.
    head = ""
    for entry in edited["history"]:
        fields = {k: v for k, v in entry.items() if k not in ("hash", "sitting")}
        head = entry["hash"] = chain.link(head, chain.canonical(fields))
    edited["covers"]["history"] = head
    edited["fingerprint"] = chain.fingerprint(chain.seal(edited["covers"]))
    message = _refused(stranger, edited)
    assert "Period close no. 2" in message and f"carried for {first}" in message


def test_imported_players_keep_their_skeleton(original, stranger):
    group = group_archive.group_import(owner=stranger, data=original).group
    players = Player.objects.filter(group=group, merged_into__isnull=True)
    assert players.exists() and not players.filter(skeleton__isnull=True).exists()
    with pytest.raises(IntegrityError):
        Player.objects.create(owner=stranger, group=group, name="Аn")
