"""Undo says what it took back and offers a one-tap redo, which goes through the services."""

import re

import pytest
from django.conf import settings

from scoring import ledger, services
from scoring.models import Game, HistoryEntry
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def sitting(owner):
    return open_sitting(owner)


def _undo(client, sitting):
    response = client.post(f"/s/{sitting.pk}/undo/")
    assert response.status_code == 302
    return response["Location"]


def _redo_entry(html):
    return re.search(r'name="entry" value="(\d+)"', html)[1]


def test_undo_shows_the_game_it_dropped_with_a_redo_button(owner_client, sitting, owner):
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    location = _undo(owner_client, sitting)
    assert location.startswith(f"/s/{sitting.pk}/?undone=")
    html = owner_client.get(location).text
    assert "Đã hoàn tác ghi ván 1: ván này không còn tính vào tổng." in html
    assert "Làm lại" in html and 'An <b class="pos">30k</b>' in html
    game.refresh_from_db()
    assert game.is_void


def test_one_tap_on_redo_puts_the_game_back_with_a_history_entry(owner_client, sitting, owner):
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    html = owner_client.get(_undo(owner_client, sitting)).text
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": _redo_entry(html)})
    assert response.status_code == 302 and response["Location"] == f"/s/{sitting.pk}/"
    game.refresh_from_db()
    assert not game.is_void and sum(ledger.game_totals(sitting).values()) == 0
    actions = list(game.history.order_by("at", "id").values_list("action", "note", "note_code"))
    assert actions == [
        ("recorded", "", ""),
        ("voided", "", "undo_record"),
        ("restored", "", "redo"),
    ]
    assert "Đã làm lại: ván 1." in owner_client.get(f"/s/{sitting.pk}/").text


def test_a_second_tap_on_redo_changes_nothing(owner_client, sitting, owner):
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    entry = _redo_entry(owner_client.get(_undo(owner_client, sitting)).text)
    owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": entry})
    count = HistoryEntry.objects.count()
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": entry}, follow=True)
    assert "Đã làm lại rồi." in response.text
    assert HistoryEntry.objects.count() == count


def test_redo_is_refused_once_someone_else_changed_the_sitting(owner_client, sitting, owner):
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    location = _undo(owner_client, sitting)
    entry = _redo_entry(owner_client.get(location).text)
    record(sitting, owner, first_out("Bình", An=1, Chi=2, Dũng=3))
    # The page no longer offers it, and a stale form is refused.
    assert 'name="entry"' not in owner_client.get(location).text
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": entry}, follow=True)
    assert "sổ đã có thay đổi khác" in response.text
    assert Game.objects.get(number=1).is_void


def test_redo_of_an_undone_edit_reapplies_the_edit_as_a_new_revision(owner_client, sitting, owner):
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game, user=owner, record=first_out("An", Bình=4, Chi=2, Dũng=3), expected_revision=1
    )
    html = owner_client.get(_undo(owner_client, sitting)).text
    assert "Đã hoàn tác lần sửa ván 1" in html
    game.refresh_from_db()
    assert game.revision == 3 and game.record["hands"]["Bình"]["cards"] == 1
    owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": _redo_entry(html)})
    game.refresh_from_db()
    assert game.revision == 4 and game.record["hands"]["Bình"]["cards"] == 4
    assert game.history.first().note_code == "redo"


def test_redo_of_an_undone_void_voids_again_with_the_first_reason(owner_client, sitting, owner):
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_void(game=game, user=owner, reason="Chia sai bài")
    html = owner_client.get(_undo(owner_client, sitting)).text
    assert "Đã hoàn tác huỷ ván 1: ván tính lại vào tổng." in html
    owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": _redo_entry(html)})
    game.refresh_from_db()
    assert game.is_void and game.void_reason == "Chia sai bài"


def test_after_a_redo_undo_takes_back_the_same_game_again(owner_client, sitting, owner):
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    html = owner_client.get(_undo(owner_client, sitting)).text
    owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": _redo_entry(html)})
    _undo(owner_client, sitting)
    game.refresh_from_db()
    assert game.is_void


def test_undo_and_redo_from_htmx_answer_a_client_redirect(owner_client, sitting, owner):
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    response = owner_client.post(f"/s/{sitting.pk}/undo/", headers=HX)
    assert response.status_code == 200 and "?undone=" in response["HX-Redirect"]
    entry = response["HX-Redirect"].rsplit("=", 1)[1]
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": entry}, headers=HX)
    assert response["HX-Redirect"] == f"/s/{sitting.pk}/"


def test_redo_refuses_strangers_gets_and_nonsense(owner_client, stranger_client, sitting, owner):
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    assert stranger_client.post(f"/s/{sitting.pk}/redo/", {"entry": "1"}).status_code == 404
    assert owner_client.get(f"/s/{sitting.pk}/redo/").status_code == 405
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": "abc"}, follow=True)
    assert "Không có gì để làm lại." in response.text
    assert owner_client.get(f"/s/{sitting.pk}/?undone=abc").status_code == 200


@pytest.mark.parametrize("value", ["²", "①", "٣", "1" * 12, "9" * 5000, "-1", "\x00", ""])
def test_a_hostile_undone_or_entry_is_ignored_not_a_500(owner_client, sitting, owner, value):
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    _undo(owner_client, sitting)
    page = owner_client.get(f"/s/{sitting.pk}/", {"undone": value})
    if len(value) > settings.MAX_QUERY_CHARS:  # longer than any address the site makes
        assert page.status_code == 414
    else:
        assert page.status_code == 200 and "Làm lại" not in page.text
    response = owner_client.post(f"/s/{sitting.pk}/redo/", {"entry": value}, follow=True)
    assert "Không có gì để làm lại." in response.text
    assert Game.objects.get().is_void
