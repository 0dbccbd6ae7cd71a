"""English counts agree with their number ("1 game", "11 games"), Vietnamese ones never
inflect ("1 ván", "11 ván"): each count is a plural entry of the catalogue (``ngettext``,
``{% blocktranslate count %}``), and the pages read right with 1 and with 11."""

from __future__ import annotations

import dataclasses
import datetime
import html
import re
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.pofile import read_po
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from scoring import engine
from scoring.ledger import rulesummary
from scoring.text.wording import PRESET_UNITS, preset_unit
from tests.factories import group_player, new_group, open_in_group, won

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%%|%\(\w+\)[sd]|\{\{ ?\w+ ?\}\}")

# The counts this file checks, as the code asks for them: (singular msgid, English for 1,
# English for 11).
COUNTS = [
    ("%(n)d ván", "1 game", "11 games"),
    ("%(n)d bàn", "1 table", "11 tables"),
    ("và %(n)s ván nữa.", "and 1 more game.", "and 11 more games."),
    ("… và %(n)d ván khác có ghi chú như thế.", "… and 1 more game", "… and 11 more games"),
    ("Đã nhập bàn “%(name)s” với %(n)d ván.", "with 1 game.", "with 11 games."),
]


def _plural_entries() -> dict[tuple[str, str | None], tuple[str, ...]]:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f)
    return {
        (m.id[0], m.context): tuple(m.string)
        for m in catalogue
        if m.id and m.pluralizable  # type: ignore[attr-defined]
    }


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_every_plural_entry_has_two_english_forms_with_the_same_placeholders():
    entries = _plural_entries()
    assert len(entries) > 30
    for (msgid, context), forms in entries.items():
        assert len(forms) == 2 and all(forms), (msgid, context)
        one, many = forms
        assert sorted(PLACEHOLDER.findall(one)) == sorted(PLACEHOLDER.findall(many)), msgid
        assert sorted(PLACEHOLDER.findall(one)) == sorted(PLACEHOLDER.findall(msgid)), msgid


@pytest.mark.parametrize(("msgid", "one", "eleven"), COUNTS)
def test_a_count_says_one_and_eleven_in_english_and_never_inflects_in_vietnamese(
    msgid, one, eleven
):
    assert (msgid, None) in _plural_entries()
    values = {"name": "Tối nay"}
    with translation.override("en"):
        assert one in ngettext(msgid, msgid, 1) % {**values, "n": 1}
        assert eleven in ngettext(msgid, msgid, 11) % {**values, "n": 11}
    with translation.override("vi"):
        assert ngettext(msgid, msgid, 11) % {**values, "n": 11} == msgid % {**values, "n": 11}


def test_a_units_price_agrees_with_its_amount():
    assert {unit for unit, context in _plural_entries() if context == "đơn vị tính"} == set(
        PRESET_UNITS
    )
    with translation.override("en"):
        assert preset_unit("lá", 1) == "card" and preset_unit("lá", Fraction(1, 2)) == "card"
        assert preset_unit("lá", 13) == "cards" and preset_unit("lá") == "cards"
        assert preset_unit("điểm", 0) == "points" and preset_unit("phần", -3) == "phần"
        assert preset_unit("quả", 13) == "quả"  # typed by a person: as typed
        rules = dataclasses.replace(engine.PRESETS["dem-la"], toi_trang_value=Fraction(13))
        lines = rulesummary.price_lines(rules)
        assert "Each card left: 1 card" in lines
        assert "Tới trắng: each loser pays 13 cards" in lines
    with translation.override("vi"):
        assert "Tới trắng: mỗi người thua trả 13 lá" in rulesummary.price_lines(rules)


def test_the_what_if_list_says_how_many_more_games_in_english():
    game = SimpleNamespace(sitting_id=1, sitting_name="Tối nay", number=1, reason="")
    with translation.override("en"):
        one = _text(render_to_string("groups/_what_if_games.html", {"games": [game] * 51}))
        many = _text(render_to_string("groups/_what_if_games.html", {"games": [game] * 61}))
    assert "and 1 more game." in one and "and 11 more games." in many


@pytest.fixture
def english(owner) -> Client:
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("nights", [1, 11])
def test_the_stats_and_the_year_read_right_with_one_and_with_eleven(owner, english, nights):
    group = new_group(owner, "Hội thứ Năm")
    day = datetime.date.today().replace(month=1, day=1)
    for night in range(nights):
        sitting = open_in_group(
            group, owner, ["An", "Bình"], day=day + datetime.timedelta(night), name=f"Tối {night}"
        )
        won(sitting, owner, "An", {"Bình": 2})
    stats = _text(english.get(f"/groups/{group.pk}/stats/?period=all").content.decode())
    # The count is labelled "Games", never read as the game numbered 11.
    assert f"Games {nights} Wins {nights}" in stats
    assert "Game 1" not in stats and "Game 11" not in stats
    an = group_player(group, "An")
    year = english.get(f"/groups/{group.pk}/players/{an.pk}/year/?year={day.year}")
    share = html.unescape(re.search(r'data-share-text="([^"]*)"', year.content.decode())[1])
    noun = "table" if nights == 1 else "tables"
    assert f"An's {day.year}: {nights} {noun}, " in share
