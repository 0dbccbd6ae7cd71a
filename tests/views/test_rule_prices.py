"""The sitting's rules panel lists what everything costs under the sitting's frozen rule set,
in the reader's language, with halves written ½ 1½ 2½."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest
from django.conf import settings

from scoring import engine
from scoring.models import Sitting
from tests.factories import open_sitting

pytestmark = pytest.mark.django_db


def _panel(client, sitting, language="vi"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(f"/s/{sitting.pk}/").content.decode()
    return html.split('id="rule-choices"')[1].split("</details>")[0]


def test_dem_la_lists_cards_cong_thoi_chat_and_toi_trang(owner_client, owner):
    panel = _panel(owner_client, open_sitting(owner))
    for line in (
        "Mỗi lá còn lại: 1 lá",
        "Cóng: tiền lá × 2",
        "Thối heo (lá): 2♠ 5 · 2♣ 5 · 2♦ 10 · 2♥ 10",
        "Thối hàng (lá): 3 đôi thông 10 · tứ quý 15 · 4 đôi thông 20",
        "Chặt: phạt như thối",
        "Tới trắng: mỗi người thua trả 13 lá",
    ):
        assert line in panel, line


def test_halves_are_written_as_fractions_in_both_languages(owner_client, owner):
    sitting = open_sitting(owner, preset="cuoc", stake=2000)
    panel = _panel(owner_client, sitting)
    assert "4 người: 1 · ½ · −½ · −1 cược" in panel
    assert "3 đôi thông 1½ · tứ quý 2 · 4 đôi thông 2½" in panel
    english = _panel(owner_client, sitting, "en")
    assert "4 players: 1 · ½ · −½ · −1 bet" in english
    assert "Thối of bombs (bet): 3 consecutive pairs 1½ · four of a kind 2 · 4 consecutive" in (
        english
    )
    assert not re.search(r"\d/\d", english + panel)


def test_the_frozen_rule_set_is_what_is_shown(owner_client, owner):
    sitting = open_sitting(owner)
    chat = engine.PenaltyTable.of(1, 2, 3, 4, 5, 6, Fraction(15, 2))
    rules = replace(
        engine.PRESETS["dem-la"],
        id="custom",
        name="Luật nhà",
        card_value=Fraction(1, 2),
        chat_penalties=chat,
        toi_trang_value=Fraction(20),
    )
    Sitting.objects.filter(pk=sitting.pk).update(rules=engine.ruleset_to_dict(rules))
    panel = _panel(owner_client, sitting)
    assert "Mỗi lá còn lại: ½ lá" in panel
    chop = "Chặt (lá): 2♠ 1 · 2♣ 2 · 2♦ 3 · 2♥ 4 · 3 đôi thông 5 · tứ quý 6 · 4 đôi thông 7½"
    assert chop in panel
    assert "Tới trắng: mỗi người thua trả 20 lá" in panel


def test_per_hand_toi_trang_prices_are_named_in_the_readers_language(owner_client, owner):
    sitting = open_sitting(owner, preset="dem-la-26")
    assert "Tới trắng (cược): sảnh rồng 9 · 6 đôi thông 8" in _panel(owner_client, sitting)
    english = _panel(owner_client, sitting, "en")
    assert "Tới trắng (bet): dragon (3 to A straight) 9 · 6 consecutive pairs 8" in english


def test_the_rule_set_list_writes_halves_as_fractions(owner_client):
    for language in ("vi", "en"):
        owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        html = owner_client.get("/rules/").content.decode()
        assert "2♠ ½ · 2♣ ½ · 2♦ 1 · 2♥ 1" in html
        assert "1/2" not in html and "3/2" not in html and "5/2" not in html
