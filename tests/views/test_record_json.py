"""A game's record is shown as JSON (what exports and imports use), never as a Python repr."""

import html as htmllib
import json
import re

import pytest

from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(owner):
    sitting = open_sitting(owner)
    return record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))


def _pre(text):
    match = re.search(r'<pre class="small json">(.*?)</pre>', text, re.S)
    assert match, "no JSON block on the page"
    return htmllib.unescape(match[1])


def test_the_game_page_shows_the_record_as_indented_json(owner_client, game):
    shown = _pre(owner_client.get(f"/s/{game.sitting_id}/g/{game.number}/").text)
    assert json.loads(shown) == game.record
    assert '\n  "players": [' in shown and "Bình" in shown  # indented, accents as written
    assert "None" not in shown and "{'" not in shown


def test_the_conflict_page_shows_the_newer_record_as_json(owner_client, game):
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "An",
        "cards_1": "5",
        "cards_2": "2",
        "cards_3": "3",
        "revision": "1",
        "action": "save",
    }
    url = f"/s/{game.sitting_id}/g/{game.number}/edit/"
    owner_client.post(url, data)
    data["cards_1"] = "9"
    response = owner_client.post(url, data)
    assert response.status_code == 409
    game.refresh_from_db()
    assert json.loads(_pre(response.text)) == game.record
    assert "{'" not in response.text and "None" not in _pre(response.text)
