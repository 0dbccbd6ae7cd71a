"""``verify_session FILE``: an exported session file checked offline against its history."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring import services
from scoring.ledger import replay, sessionfile, verify
from scoring.ledger.sessionfile import session_check
from scoring.services import bulk_import as importer
from tests.factories import CHOPPED, FIRST, SECOND, open_sitting, record, settle

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(owner) -> dict:
    sitting = open_sitting(owner)
    first = record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    third = record(sitting, owner, CHOPPED)
    services.game_edit(game=first, user=owner, record=CHOPPED, expected_revision=1)
    services.game_void(game=third, user=owner, reason="chia sai")
    settle(sitting, owner, "An", "Bình", 7000)
    wrong = settle(sitting, owner, "Chi", "Dũng", 2000)
    services.settlement_void(settlement=wrong, user=owner, reason="nhầm")
    data = json.loads(sessionfile.session_json(sitting))
    assert data["fingerprint"] == verify.fingerprint_of(sitting)
    return data


def _verify(tmp_path: Path, data: object) -> tuple[int, str]:
    path = tmp_path / "ban.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    try:
        call_command("verify_session", str(path), stdout=out, stderr=io.StringIO())
    except CommandError as error:
        return error.returncode, str(error)
    return 0, out.getvalue().strip()


def test_an_exported_file_verifies_with_its_fingerprint(tmp_path, exported):
    assert _verify(tmp_path, exported) == (0, exported["fingerprint"])
    assert [e["action"] for e in exported["history"]][:2] == ["opened", "recorded"]
    assert all(len(e["hash"]) == 64 for e in exported["history"])


def test_a_game_edited_by_hand_is_named(tmp_path, exported):
    exported["games"][1]["finish"] = ["An"]
    code, message = _verify(tmp_path, exported)
    assert code == 1 and message.startswith("Game 2:")


def test_a_game_unvoided_by_hand_is_named(tmp_path, exported):
    del exported["games"][2]["void"]
    code, message = _verify(tmp_path, exported)
    assert code == 1 and message.startswith("Game 3:")


def test_a_settlement_edited_by_hand_is_named(tmp_path, exported):
    exported["settlements"][0]["amount"] = 70000
    code, message = _verify(tmp_path, exported)
    assert code == 1 and "Settlement no. 1" in message


def test_totals_edited_by_hand_are_caught(tmp_path, exported):
    name = next(iter(exported["totals"]))
    exported["totals"][name] += 1000
    code, message = _verify(tmp_path, exported)
    assert code == 1 and "totals" in message


def test_a_history_entry_edited_by_hand_is_named(tmp_path, exported):
    exported["history"][1]["after"]["finish"] = ["Dũng"]
    code, message = _verify(tmp_path, exported)
    assert code == 1 and message.startswith("History entry #2 (game 1,")


def test_a_history_rewritten_with_new_hashes_no_longer_matches_its_fingerprint(tmp_path, exported):
    entries = exported["history"]
    edited = next(e for e in entries if e["action"] == "edited")
    edited["after"]["finish"] = ["Dũng"]
    head = ""
    for entry in entries:
        data = {k: v for k, v in entry.items() if k != "hash"}
        head = entry["hash"] = replay.chain.link(head, replay.chain.canonical(data))
    code, message = _verify(tmp_path, exported)
    assert code == 1 and "fingerprint" in message
    exported["fingerprint"] = replay.chain.fingerprint(head)
    code, message = _verify(tmp_path, exported)
    assert code == 1 and message.startswith("Game 1:")


@pytest.mark.parametrize(
    "data", [[], {"games": []}, {"history": "x"}, {"history": [1]}, {"history": [{"at": 1}]}]
)
def test_files_without_a_readable_history_are_refused_plainly(tmp_path, data):
    code, message = _verify(tmp_path, data)
    assert code == 1 and message and "\n" not in message


def test_not_json_is_refused_plainly(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"{nope")
    with pytest.raises(CommandError) as raised:
        call_command("verify_session", str(path), stdout=io.StringIO())
    assert raised.value.returncode == 1


def test_a_file_with_history_imports_and_its_copy_verifies(tmp_path, exported, owner):
    imported = importer.session_import(owner=owner, data=exported, source="ban.json")
    copy = json.loads(sessionfile.session_json(imported.sitting))
    assert copy["games"] == exported["games"]
    assert _verify(tmp_path, copy) == (0, copy["fingerprint"])
    assert verify.verify_sitting(imported.sitting).ok
    # The copy's history is its own (opened, recorded, … imported), not the original's.
    assert copy["fingerprint"] != exported["fingerprint"]


def test_a_file_without_history_still_imports(exported, owner):
    del exported["history"], exported["fingerprint"]
    assert session_check(exported).games


def test_it_never_opens_the_database(tmp_path, exported):
    """Run as its own process with a database that does not exist: it still answers."""
    path = tmp_path / "ban.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://nobody@127.0.0.1:9/no_such_database",
        "DJANGO_SETTINGS_MODULE": "tienlen_site.settings",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_session", str(path)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == exported["fingerprint"]
    exported["games"][0]["finish"] = ["Bình"]
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_session", str(path)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("Game 1: its details differ from the history.")
