"""English writes amounts as its typing hints show them (18,000 ₫ beside "e.g. 200,000");
Vietnamese as its own (18.000 ₫ beside "200.000"). Either is read back by the money parser."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.engine import messages
from scoring.engine.readnumbers import parse_money
from scoring.text.money import vnd, vnd_short

pytestmark = pytest.mark.django_db


def test_it_groups_thousands_the_way_each_language_writes_them():
    with translation.override("vi"):
        assert vnd(18000) == "18.000\xa0₫" and vnd(-1234567) == "\u22121.234.567\xa0₫"
        assert vnd_short(1_200_000) == "1,2tr"
    with translation.override("en"):
        assert vnd(18000) == "18,000\xa0₫" and vnd(-1234567) == "\u22121,234,567\xa0₫"
        assert vnd_short(1_200_000) == "1.2tr"


def test_what_either_language_writes_reads_back_as_the_same_amount():
    for language in ("vi", "en"):
        with translation.override(language):
            assert parse_money(vnd(18000), high=10**13) == 18000


def test_the_engines_english_messages_group_amounts_the_english_way():
    said = messages.render("stake_above_max", {"stake": "200.000.000", "max": "100.000.000"}, "en")
    assert "200,000,000" in said and "100,000,000" in said and "200.000" not in said
    said = messages.render("stake_above_max", {"stake": "200.000.000", "max": "100.000.000"}, "vi")
    assert "200.000.000" in said
    hint = messages.render("not_money", {"value": '"abc"'}, "en")
    assert "200,000" in hint and "200.000" not in hint


def test_the_settle_up_in_english_shows_amounts_like_its_hint(owner_client, owner):
    from tests.factories import open_sitting, won

    table = open_sitting(owner, players=["An", "Bình"])
    won(table, owner, "An", {"Bình": 4})
    owner_client.cookies["django_language"] = "en"
    page = owner_client.get(f"/s/{table.pk}/settle/").text
    assert "E.g. 200000, 200,000 or 200k." in page
    assert ",000\xa0₫" in page and ".000\xa0₫" not in page
