"""What a sitting can hold, what a file may hold, and how much a bad file can make us say.

The caps on games and settlements are the same for recording and for importing, so a
sitting's own export always re-imports; a file with thousands of mistakes gets the first
``SHOWN`` of them and a count of the rest, on the page and from the command.
"""

from __future__ import annotations

import json
import uuid
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scoring import services
from scoring.ledger import sessionfile
from scoring.models import MAX_GAMES, MAX_SETTLEMENTS, Game, Settlement, Sitting
from scoring.services import bulk_import as importer
from tests.factories import bulk_games, first_out, open_sitting, plain, session

URL = reverse("session_import")
SHOWN = sessionfile.SHOWN


def upload(data):
    raw = json.dumps(data, ensure_ascii=False).encode()
    return SimpleUploadedFile("ban.json", raw, content_type="application/json")


def settlements(count):
    return [{"from": "Ánh", "to": "Đức", "amount": 1000 + n} for n in range(count)]


# --- Caps ---------------------------------------------------------------------------------


def test_it_refuses_more_settlements_than_a_sitting_holds(owner):
    with pytest.raises(sessionfile.SessionFileError) as error:
        importer.session_import(
            owner=owner, data=plain(settlements=settlements(MAX_SETTLEMENTS + 1))
        )
    [problem] = error.value.problems
    assert problem.path == "settlements"
    assert f"{MAX_SETTLEMENTS + 1}" in problem.message and f"{MAX_SETTLEMENTS}" in problem.message
    assert not Sitting.objects.exists()


def test_it_refuses_more_games_than_a_sitting_holds(owner):
    data = session("dem-la", games=MAX_GAMES + 1)
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_check(data)
    assert [p.path for p in error.value.problems] == ["games"]


def test_a_sitting_full_to_both_caps_exports_and_re_imports(owner):
    data = session("dem-la", games=MAX_GAMES, settlements=settlements(MAX_SETTLEMENTS))
    data["players"] = ["An", "Bình", "Chi", "Dũng", "Ánh", "Đức"]
    sitting = importer.session_import(owner=owner, data=data).sitting
    raw = sessionfile.session_json(sitting).encode()
    assert len(raw) <= sessionfile.MAX_FILE_BYTES
    checked = sessionfile.session_check(sessionfile.session_read(raw))
    assert len(checked.games) == MAX_GAMES
    assert len(checked.settlements) == MAX_SETTLEMENTS
    assert checked.warnings == []  # its totals are the ledger's own


def test_recording_refuses_a_game_beyond_the_cap_and_writes_nothing(owner, monkeypatch):
    monkeypatch.setattr(services.games, "MAX_GAMES", 3)
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, 3)
    version = Sitting.objects.get(pk=sitting.pk).version
    with pytest.raises(services.Conflict, match="3 ván"):
        services.game_record(
            sitting=sitting, user=owner, record=first_out("An", Bình=2), token=uuid.uuid4()
        )
    assert Game.objects.filter(sitting=sitting).count() == 3
    assert Sitting.objects.get(pk=sitting.pk).version == version


def test_the_record_form_says_the_sitting_is_full(owner_client, owner, monkeypatch):
    monkeypatch.setattr(services.games, "MAX_GAMES", 2)
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, 2)
    form = {
        "played": ["An", "Bình"],
        "winner": "An",
        "cards_1": "4",
        "action": "save",
        "token": "0b7e2d0c-6a7e-4f0e-9c61-5d0f3c1f2a11",
    }
    url = f"/s/{sitting.pk}/games/"
    fragment = owner_client.post(url, form, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert "2 ván" in fragment.content.decode()
    page = owner_client.post(url, form, follow=True)
    assert page.status_code == 200
    assert "2 ván" in page.content.decode()
    assert Game.objects.filter(sitting=sitting).count() == 2


def test_settling_refuses_a_payment_beyond_the_cap(owner_client, owner, monkeypatch):
    monkeypatch.setattr(services.settlements, "MAX_SETTLEMENTS", 2)
    sitting = open_sitting(owner)
    an, binh = (m.player for m in sitting.memberships.select_related("player")[:2])
    for _n in range(2):
        services.settlement_record(sitting=sitting, user=owner, payer=an, payee=binh, amount=5)
    with pytest.raises(services.InvalidInput, match="2 khoản"):
        services.settlement_record(sitting=sitting, user=owner, payer=an, payee=binh, amount=5)
    sitting.refresh_from_db()
    response = owner_client.post(
        f"/s/{sitting.pk}/settlements/",
        {"payer": an.pk, "payee": binh.pk, "amount": "5000", "version": sitting.version},
    )
    assert response.status_code == 422
    assert "2 khoản" in response.content.decode()
    assert Settlement.objects.filter(sitting=sitting).count() == 2


# --- Amplification ------------------------------------------------------------------------


def test_a_file_of_unknown_fields_lists_the_first_and_counts_the_rest(owner):
    data = plain(**{f"k{n}": 1 for n in range(20_000)})
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_check(data)
    assert len(error.value.problems) == SHOWN
    assert error.value.more == 20_000 - SHOWN
    assert error.value.total == 20_000


def test_many_bad_games_list_the_first_in_reading_order(owner):
    data = session("dem-la", games=600)
    for game in data["games"]:
        game["finish"] = ["Giang"]
        game["bogus"] = True
    with pytest.raises(sessionfile.SessionFileError) as error:
        sessionfile.session_check(data)
    games = [p.game for p in error.value.problems]
    assert len(games) == SHOWN and games == sorted(games) and games[0] == 1
    assert error.value.more > 600


def test_totals_naming_thousands_of_strangers_give_a_short_list_of_warnings(owner):
    totals = {f"Người {n}": 1 for n in range(20_000)}
    result = importer.session_import(owner=owner, data=plain(totals=totals))
    assert len(result.warnings) == SHOWN + 1
    assert str(20_000 + 3 - SHOWN) in result.warnings[-1]  # the file's own three are off too


def test_the_page_shows_the_first_problems_and_how_many_more(owner_client):
    response = owner_client.post(
        URL, {"file": upload(plain(**{f"k{n}": 1 for n in range(20_000)}))}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert len(response.content) < 60_000
    assert body.count("<li>") <= SHOWN + 5
    assert 'id="import-more"' in body and f"{20_000 - SHOWN}" in body
    assert "20000 lỗi" in body


def test_the_page_shows_a_short_list_of_totals_warnings(owner_client):
    totals = {f"Người {n}": 1 for n in range(20_000)}
    response = owner_client.post(URL, {"file": upload(plain(totals=totals))}, follow=True)
    assert response.status_code == 200
    warnings = [m for m in response.context["messages"] if m.level_tag == "warning"]
    assert len(warnings) == SHOWN + 1
    assert len(response.content) < 60_000


def test_the_command_lists_the_first_problems_and_how_many_more(tmp_path, owner):
    path = tmp_path / "ban.json"
    path.write_text(json.dumps(plain(**{f"k{n}": 1 for n in range(5000)})))
    err = StringIO()
    with pytest.raises(CommandError, match="5000 problem"):
        call_command("import_session", str(path), "--owner", owner.username, stderr=err)
    lines = err.getvalue().splitlines()
    assert len(lines) == SHOWN + 1
    assert lines[-1] == f"… and {5000 - SHOWN} more"
