"""A stored game may hold a fact its rule set does not price (the dealt 2s of a tới trắng that
counts no thối, a kết 3 bích at a table without it: an imported record). The edit form shows it,
says the rules do not count it, and a save of the form as shown keeps it."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.services import bulk_import as importer
from tests.factories import plain
from tests.hostile import crawl

pytestmark = pytest.mark.django_db

TOI = {"players": ["Ánh", "Đức", "Hương"], "toi_trang": {"player": "Hương", "hand": "6_doi"},
       "hands": {"Ánh": {"heo": ["2H", "2D"]}}}  # fmt: skip
KET = {"players": ["Ánh", "Đức", "Hương"], "finish": ["Ánh"], "ket_3_bich": True,
       "hands": {"Đức": {"cards": 5}, "Hương": {"cards": 2}}}  # fmt: skip


def _form_of(url: str, html: str) -> dict[str, list[str]]:
    """What the record form at ``url`` sends as a browser would (the crawl's form reader)."""
    [form] = [f for f in crawl.parse(url, html).forms if f.action.endswith(url)]
    out: dict[str, list[str]] = {}
    for name, value in form.fields:
        out.setdefault(name, []).append(value)
    return out


def _imported(owner, game):
    data = plain()
    data["games"].append(game)
    sitting = importer.session_import(owner=owner, data=data).sitting
    return sitting, sitting.games.get(number=3)


def _edit(client, game):
    url = f"/s/{game.sitting_id}/g/{game.number}/edit/"
    html = client.get(url).content.decode()
    return url, html


def test_an_edit_keeps_the_dealt_2s_the_rules_do_not_count(owner_client, owner):
    _sitting, game = _imported(owner, TOI)
    url, html = _edit(owner_client, game)
    assert "Heo và hàng trên tay lúc chia (luật này không tính thối)" in html
    data = _form_of(url, html)
    assert sorted(data["heo_0"]) == ["2D", "2H"]  # Ánh's, ticked as recorded
    preview = owner_client.post(url, {**data, "action": "preview"}, headers={"HX-Request": "true"})
    assert "Bài trên tay không tính" in preview.content.decode()
    response = owner_client.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    game = Game.objects.get(pk=game.pk)  # the same record: nothing to revise
    assert game.revision == 1 and game.record["hands"]["Ánh"]["heo"] == ["2D", "2H"]
    # Unticked, they go: that save records a new revision without them.
    data.pop("heo_0")
    assert owner_client.post(url, {**data, "action": "save"}).status_code == 302
    game = Game.objects.get(pk=game.pk)
    assert game.revision == 2 and "hands" not in game.record


def test_an_edit_keeps_a_ket_3_bich_the_rules_do_not_play(owner_client, owner):
    _sitting, game = _imported(owner, KET)
    url, html = _edit(owner_client, game)
    assert "Luật này không chơi kết 3 bích" in html
    data = _form_of(url, html)
    assert data["ket_3_bich"] == ["on"]
    response = owner_client.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    game = Game.objects.get(pk=game.pk)
    assert game.revision == 1 and game.record["ket_3_bich"] is True
    nets = {seat.player.name: seat.net for seat in game.seats.select_related("player")}
    assert nets == {"Ánh": 7000, "Đức": -5000, "Hương": -2000}  # priced as any đếm lá game


def test_a_new_game_asks_for_no_fact_the_rules_do_not_price(owner_client, owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    html = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert 'name="ket_3_bich"' not in html  # đếm lá plays no kết 3 bích
    data = {"played": ["Ánh", "Đức", "Hương"], "toi_trang_player": "Hương",
            "toi_trang_hand": "6_doi", "action": "preview"}  # fmt: skip
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers={"HX-Request": "true"})
    html = html.content.decode()
    assert 'name="heo_0"' not in html and "không tính thối)" not in html
    assert "Bài trên tay không tính" not in html
