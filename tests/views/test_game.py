import pytest
from django.test import Client

from scoring.models import Game, HistoryEntry
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def game(owner):
    sitting = open_sitting(owner)
    return record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))


def _url(game, suffix=""):
    return f"/s/{game.sitting_id}/g/{game.number}/{suffix}"


def test_the_game_page_shows_payments_history_and_record(owner_client, game):
    html = owner_client.get(_url(game)).content.decode()
    assert "Bình" in html and "5.000\xa0₫" in html and "ghi ván" in html
    assert f'id="payment-{game.payments.first().pk}"' in html


def test_the_edit_form_is_prefilled_and_previews(owner_client, game):
    html = owner_client.get(_url(game, "edit/")).content.decode()
    assert 'value="An" checked' in html  # the winner
    assert 'name="revision" value="1"' in html
    assert "Xem trước" in html and "30.000\xa0₫" in html


def test_an_edit_saves_a_new_revision(owner_client, game):
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "An",
        "cards_1": "5",
        "cards_2": "2",
        "cards_3": "3",
        "revision": "1",
        "action": "save",
    }
    response = owner_client.post(_url(game, "edit/"), data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.revision == 2 and game.record["hands"]["Bình"]["cards"] == 5


def test_a_second_scorekeepers_stale_edit_gets_a_conflict_showing_the_newer_version(
    owner_client, game
):
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "An",
        "cards_1": "5",
        "cards_2": "2",
        "cards_3": "3",
        "revision": "1",
        "action": "save",
    }
    owner_client.post(_url(game, "edit/"), data)
    data["cards_1"] = "9"
    response = owner_client.post(_url(game, "edit/"), data)
    html = response.content.decode()
    assert response.status_code == 409
    assert "vừa được người khác sửa" in html and "Bản mới nhất" in html
    game.refresh_from_db()
    assert game.record["hands"]["Bình"]["cards"] == 5


def test_the_edit_preview_is_an_htmx_fragment(owner_client, game):
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "An",
        "cards_1": "5",
        "cards_2": "2",
        "cards_3": "3",
        "revision": "1",
        "action": "preview",
    }
    response = owner_client.post(_url(game, "edit/"), data, headers=HX)
    assert response.content.decode().lstrip().startswith('<form id="record-form"')
    game.refresh_from_db()
    assert game.revision == 1


def test_void_needs_a_reason_and_restore_brings_it_back(owner_client, game):
    owner_client.post(_url(game, "void/"), {"reason": ""})
    game.refresh_from_db()
    assert not game.is_void
    response = owner_client.post(_url(game, "void/"), {"reason": "Nhầm ván"}, headers=HX)
    assert response.status_code == 200 and response.headers["HX-Redirect"] == _url(game)
    game.refresh_from_db()
    assert game.is_void and game.void_reason == "Nhầm ván"
    assert "Nhầm ván" in owner_client.get(f"/s/{game.sitting_id}/").content.decode()
    owner_client.post(_url(game, "restore/"))
    game.refresh_from_db()
    assert not game.is_void


def test_undo_takes_back_the_last_save(owner_client, game):
    response = owner_client.post(f"/s/{game.sitting_id}/undo/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_void
    assert HistoryEntry.objects.filter(action="voided", undoes__isnull=False).exists()


@pytest.mark.parametrize("suffix", ["", "edit/"])
def test_game_pages_are_404_for_strangers(stranger_client, game, suffix):
    assert stranger_client.get(_url(game, suffix)).status_code == 404


@pytest.mark.parametrize("suffix", ["void/", "restore/", "edit/"])
def test_game_actions_are_404_for_strangers(stranger_client, game, suffix):
    assert stranger_client.post(_url(game, suffix), {"reason": "x"}).status_code == 404
    assert not Game.objects.get(pk=game.pk).is_void


@pytest.mark.parametrize("suffix", ["void/", "restore/"])
def test_game_actions_refuse_get(owner_client, game, suffix):
    assert owner_client.get(_url(game, suffix)).status_code == 405


def test_an_unknown_game_number_is_404(owner_client, game):
    assert owner_client.get(f"/s/{game.sitting_id}/g/99/").status_code == 404


def test_void_enforces_csrf(owner, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(_url(game, "void/"), {"reason": "x"}).status_code == 403
