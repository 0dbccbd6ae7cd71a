"""The chặt chips of the record form: a 2 used anywhere is greyed everywhere else, the top card
by rank and suit, a 2 written twice said in words, and the whole chain saved without scripts."""

from __future__ import annotations

import re

import pytest

from scoring.models import Game
from tests.factories import open_sitting
from tests.views.test_record_form_messages import _field_error, _post
from tests.views.test_sitting_page import _form

pytestmark = pytest.mark.django_db


def _chop(**extra):
    data = dict(chains="1", chat_0_steps="2", chat_0_0_player="Bình", chat_0_1_player="Chi")
    data.update(extra)
    return _form("An", {1: 5, 2: 8, 3: 3}, **data)


def _disabled(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="(\w+)"\s+disabled', html)


def test_a_chopped_2_is_greyed_in_every_hand_the_chopped_players_own_included(owner_client, owner):
    sitting = open_sitting(owner)
    data = _chop(action="preview", chat_0_0_cards="2S", chat_0_1_play="tq", heo_3="2H")
    html = _post(owner_client, sitting, data).content.decode()
    for index in (1, 2):  # Bình (chopped) and Chi
        assert _disabled(html, f"heo_{index}") == ["2S", "2H"]
    assert _disabled(html, "heo_3") == ["2S"]  # Dũng holds the 2♥ himself
    assert _disabled(html, "chat_0_0_cards") == ["2H"]
    assert "Bình → Chi" in html


def test_a_2_written_twice_names_the_hand_in_words_in_both_languages(owner_client, owner):
    sitting = open_sitting(owner)
    data = _chop(chat_0_0_cards="2S", chat_0_1_play="tq", heo_1="2S")
    html = _post(owner_client, sitting, data).content.decode()
    assert "đã được ghi trên tay Bình" in html and "hands." not in html
    html = _post(owner_client, sitting, data, english=True).content.decode()
    assert "already recorded in Bình&#x27;s hand" in html and "hands." not in html
    assert not Game.objects.exists()


def test_the_top_card_is_picked_by_rank_and_suit(owner_client, owner):
    sitting = open_sitting(owner)
    # 3 đôi thông up to 9♥ chopped by a bigger 3 đôi thông, up to 10♠.
    base = dict(chat_0_0_play="3dt", chat_0_1_play="3dt", chat_0_0_top_rank="9")
    base.update(chat_0_0_top_suit="H", chat_0_1_top_rank="10", chat_0_1_top_suit="S")
    response = _post(owner_client, sitting, _chop(**base))
    assert response.status_code == 200
    steps = Game.objects.get().record["chat"][0]["steps"]
    assert [s.get("top") for s in steps] == ["9H", "10S"]
    # A rank without its suit, for a run of pairs, asks for the suit by name.
    data = _chop(**{**base, "chat_0_1_top_suit": "", "token": "9" * 32})
    html = _post(owner_client, sitting, data).content.decode()
    assert _field_error(html, "chat_0_1_top") == (
        "Lần chặt 1: chọn chất của lá cao nhất (bích, chuồn, rô hay cơ)."
    )
    html = _post(owner_client, sitting, {**data, "action": "preview"}, english=True)
    assert "Spades" in html.content.decode() and "Hearts" in html.content.decode()


def test_a_tu_quy_needs_only_its_rank(owner_client, owner):
    sitting = open_sitting(owner)
    data = _chop(chat_0_0_play="tq", chat_0_1_play="tq", chat_0_0_top_rank="5")
    data.update(chat_0_1_top_rank="J")
    assert _post(owner_client, sitting, data).status_code == 200
    steps = Game.objects.get().record["chat"][0]["steps"]
    assert [s.get("top") for s in steps] == ["5H", "JH"]


def test_a_chain_of_chips_saves_without_scripts(owner_client, owner):
    sitting = open_sitting(owner)
    data = _chop(chat_0_0_cards=["2S", "2D"], chat_0_1_play="4dt")
    response = owner_client.post(f"/s/{sitting.pk}/games/", data)  # a plain form post
    assert response.status_code == 302
    steps = Game.objects.get().record["chat"][0]["steps"]
    assert steps == [
        {"player": "Bình", "play": "doi_heo", "cards": ["2S", "2D"]},
        {"player": "Chi", "play": "4dt"},
    ]
