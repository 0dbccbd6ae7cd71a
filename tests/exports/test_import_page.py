"""The upload form: a new sitting from a session file, or nothing and every reason why."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.ledger import sessionfile
from scoring.models import Game, Player, Sitting
from tests.factories import plain, session

URL = reverse("session_import")


def upload(data, name="ban.json"):
    raw = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()
    return SimpleUploadedFile(name, raw, content_type="application/json")


def test_it_shows_the_form(owner_client):
    response = owner_client.get(URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'enctype="multipart/form-data"' in body and 'type="file"' in body


def test_it_imports_a_file_and_opens_the_new_sitting(owner_client, owner):
    response = owner_client.post(URL, {"file": upload(session("nhat-nhi-ba-bet", games=8))})
    sitting = Sitting.objects.get()
    assert response.status_code == 302
    assert response["Location"] == sitting.get_absolute_url()
    assert sitting.owner == owner
    assert sitting.games.count() == 8
    page = owner_client.get(response["Location"]).content.decode()
    assert "Đã nhập bàn" in page


def test_it_round_trips_through_the_download_and_the_upload(owner_client, owner):
    owner_client.post(URL, {"file": upload(session("dem-la-26", games=10))})
    first = Sitting.objects.get()
    exported = owner_client.get(reverse("sitting_export_json", args=[first.pk])).content
    owner_client.post(URL, {"file": upload(exported, "lan-2.json")})
    second = Sitting.objects.exclude(pk=first.pk).get()
    # The games, settlements and totals come back the same; the history is each sitting's
    # own (the copy's begins with its import), so is its fingerprint.
    again, original = sessionfile.session_build(second), sessionfile.session_build(first)
    for built in (again, original):
        del built["history"], built["fingerprint"]
    assert again == original


def test_it_shows_the_warning_when_the_totals_disagree(owner_client):
    data = plain(totals={"Ánh": 999, "Đức": -9000, "Hương": 6000})
    response = owner_client.post(URL, {"file": upload(data)}, follow=True)
    assert "Ánh" in response.content.decode()
    assert [m.level_tag for m in response.context["messages"]].count("warning") == 1


def bad_game():
    data = plain()
    data["games"][1]["hands"]["Đức"] = {"cards": 4, "heo": ["2H", "2H"]}
    return data


def unknown_player():
    data = plain()
    data["games"][0]["players"] = ["Ánh", "Giang"]
    data["games"][0]["hands"] = {"Giang": {"cards": 5}}
    return data


@pytest.mark.parametrize(
    ("raw", "expect"),
    [
        (b"{ this is not json", "JSON"),
        (upload(plain(rules="dem-la-27")).read(), "rules"),
        (upload(bad_game()).read(), "games[1].hands.Đức.heo"),
        (upload(unknown_player()).read(), "Giang"),
        (upload([1, 2, 3]).read(), "{…}"),
    ],
)
def test_it_explains_a_bad_file_and_saves_nothing(owner_client, raw, expect):
    response = owner_client.post(URL, {"file": upload(raw)})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="import-problems"' in body
    assert expect in body
    assert response.context["problems"]
    assert not Sitting.objects.exists()
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_it_names_the_bad_games_number(owner_client):
    response = owner_client.post(URL, {"file": upload(bad_game())})
    problem = next(p for p in response.context["problems"] if p.game)
    assert problem.game == 2
    assert "<strong>Ván 2</strong>" in response.content.decode()


def test_it_refuses_a_missing_or_too_large_file(owner_client, monkeypatch):
    response = owner_client.post(URL, {})
    assert response.status_code == 422
    assert "file" in response.context["form"].errors
    monkeypatch.setattr(sessionfile, "MAX_FILE_BYTES", 100)
    response = owner_client.post(URL, {"file": upload(plain())})
    assert response.status_code == 422
    assert "MB" in response.context["form"].errors["file"][0]
    assert not Sitting.objects.exists()


def test_it_sends_anonymous_visitors_to_log_in(client, db):
    for response in (client.get(URL), client.post(URL, {"file": upload(plain())})):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not Sitting.objects.exists()


def test_it_only_answers_get_and_post(owner_client):
    assert owner_client.put(URL).status_code == 405


def test_it_refuses_a_post_without_the_csrf_token(owner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(URL, {"file": upload(plain())})
    assert response.status_code == 403
    assert not Sitting.objects.exists()
