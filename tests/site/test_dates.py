"""One date style per language, through Django's format modules (tienlen_site/formats):
Vietnamese 02/12/2026 and 02/12, English 2 Dec 2026 and 2 Dec, on pages, in messages and on
the charts' axes."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format

from scoring.ledger import charts
from tests.factories import FOUR, open_sitting, won

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 2)


@pytest.mark.parametrize(
    ("language", "full", "short"),
    [("vi", "02/12/2026", "02/12"), ("en", "2 Dec 2026", "2 Dec")],
)
def test_each_language_has_one_date_style(language, full, short):
    with translation.override(language):
        assert date_format(DAY, "DATE_FORMAT") == full
        assert date_format(DAY, "SHORT_DATE_FORMAT") == full
        assert date_format(DAY, "MONTH_DAY_FORMAT") == short


def test_a_time_axis_keeps_the_year_only_when_it_spans_years():
    new_year = [datetime.date(2026, 12, 31), datetime.date(2027, 1, 2)]
    with translation.override("vi"):
        assert charts.date_labels([DAY, DAY]) == ["02/12", "02/12"]
        assert charts.date_labels(new_year) == ["31/12/2026", "02/01/2027"]
    with translation.override("en"):
        assert charts.date_labels([DAY]) == ["2 Dec"]
        assert charts.date_labels(new_year) == ["31 Dec 2026", "2 Jan 2027"]


def _page(client, url, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url).content.decode()


@pytest.mark.parametrize(
    ("language", "full", "short", "wrong"),
    [
        ("vi", "02/12/2026", "02/12", ["02-12-2026", "tháng 12"]),
        ("en", "2 Dec 2026", "2 Dec", ["12/02/2026", "Dec. 2", "02/12"]),
    ],
)
def test_pages_and_charts_use_the_language_style(owner_client, owner, language, full, short, wrong):
    sitting = open_sitting(owner, day=DAY)
    won(sitting, owner, FOUR[0], {name: 3 for name in FOUR[1:]})
    pages = {
        "sitting": _page(owner_client, f"/s/{sitting.pk}/", language),
        "home": _page(owner_client, "/", language),
        "print": _page(owner_client, f"/s/{sitting.pk}/print/", language),
        "group": _page(owner_client, f"/groups/{sitting.group_id}/?period=all", language),
    }
    for name, html in pages.items():
        assert full in html, name
        for text in wrong:
            assert text not in html, (name, text)
    # The group chart's x axis: one label per sitting, the short form.
    axis = rf'<text [^>]*text-anchor="(?:start|middle|end)">\s*{re.escape(short)}\s*</text>'
    assert re.search(axis, pages["group"])
    player = sitting.memberships.select_related("player").first().player
    html = _page(owner_client, f"/players/{player.pk}/", language)
    assert re.search(axis, html)
