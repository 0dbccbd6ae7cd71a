"""The smaller points of the end of the night: the stake input the browser accepts, a
what-if's extra reasons said in words, no totals of zeros before the first game, one way of
writing money in English, and the site's time zone for the scripts' times."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from scoring.engine.problems import Problem
from scoring.forms.pages import SittingForm
from scoring.ledger.reprice import _message
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db


def test_the_stake_input_takes_5000_and_any_whole_number(owner):
    html = str(SittingForm(user=owner)["stake"])
    assert 'min="1"' in html and "step" not in html and 'inputmode="numeric"' in html


def test_a_what_ifs_extra_reasons_are_counted_in_words():
    problems = [
        Problem("a", "not_a_list"),
        Problem("b", "not_a_bool"),
        Problem("c", "not_an_object"),
    ]
    text = _message(problems, "vi")
    assert text.endswith("(và 2 lý do nữa)") and "(+" not in text
    assert _message(problems, "en").endswith("(and 2 more reasons)")
    assert _message(problems[:2], "en").endswith("(and 1 more reason)")


def test_no_strip_of_zeros_before_the_first_game(owner_client, owner):
    sitting = open_sitting(owner)
    page = owner_client.get(f"/s/{sitting.pk}/").text
    assert 'id="no-games"' in page and 'class="totals"' not in page
    strip = page.split('class="totals waiting"')[1].split('id="no-games"')[0]
    assert '<div class="name">An</div>' in strip and "₫" not in strip  # names, no zeros
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    page = owner_client.get(f"/s/{sitting.pk}/").text
    assert 'id="no-games"' not in page and 'class="totals"' in page


def test_english_tiles_say_games_and_money_is_written_the_english_way(owner_client, owner):
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    sitting = open_sitting(owner)
    page = owner_client.get("/s/new/").text
    # Thousands grouped as English writes them, like its typing hints ("e.g. 200,000").
    assert "5,000\xa0₫" in page or "5,000 ₫" in page
    assert "5.000" not in page
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    settle_paid = owner_client.get(f"/s/{sitting.pk}/").text
    assert '<meta name="site-tz" content="Asia/Ho_Chi_Minh">' in settle_paid
    assert not re.search(r">game: ", settle_paid)
