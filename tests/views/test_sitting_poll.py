"""The sitting page polls its board: another scorekeeper's saves appear without a reload."""

import json
import re

import pytest
from django.test import Client

from scoring import services
from scoring.models import Sitting
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def sitting(owner):
    return open_sitting(owner)


def _etag_on_page(html):
    match = re.search(r'id="board-poll"[^>]*hx-headers="([^"]*)"', html)
    return json.loads(match[1].replace("&quot;", '"'))["If-None-Match"]


def _poll(client, sitting, etag, page=1):
    return client.get(
        f"/s/{sitting.pk}/?part=board&page={page}", headers={**HX, "If-None-Match": etag}
    )


def test_the_page_polls_with_the_version_it_was_rendered_at(owner_client, sitting):
    html = owner_client.get(f"/s/{sitting.pk}/").text
    assert 'hx-trigger="every 3s"' in html
    assert _etag_on_page(html) == f'"{sitting.version}-1-vi"'


def test_a_poll_with_nothing_new_is_304_and_renders_nothing(
    owner_client, sitting, django_assert_max_num_queries
):
    etag = _etag_on_page(owner_client.get(f"/s/{sitting.pk}/").text)
    with django_assert_max_num_queries(4):  # session, user, sitting, membership check
        response = _poll(owner_client, sitting, etag)
    assert response.status_code == 304 and response["ETag"] == etag and not response.content


def test_a_co_scorekeepers_save_reaches_the_other_phone(owner_client, sitting, owner, stranger):
    services.sitting_share(sitting=sitting, user=owner, invitee=stranger)
    etag = _etag_on_page(owner_client.get(f"/s/{sitting.pk}/").text)
    record(sitting, stranger, first_out("Chi", An=1, Bình=2, Dũng=3))
    response = _poll(owner_client, sitting, etag)
    html = response.text
    assert response.status_code == 200 and response["ETag"] != etag
    # Totals, the leader line and the games list, swapped out of band; never the record form.
    assert '<section id="totals" aria-labelledby="totals-h" hx-swap-oob="true">' in html
    assert 'id="games"' in html and 'id="game-1"' in html
    assert "Ván tới: Chi đi trước" in html
    assert 'id="record-form"' not in html and "<form" not in html
    assert 'id="board-poll"' in html and _etag_on_page(html) == response["ETag"]
    assert _poll(owner_client, sitting, response["ETag"]).status_code == 304


def test_a_settlement_moves_the_totals_too(owner_client, sitting, owner):
    record(sitting, owner, first_out("Chi", An=1, Bình=2, Dũng=3))
    etag = _etag_on_page(owner_client.get(f"/s/{sitting.pk}/").text)
    members = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    services.settlement_record(
        sitting=sitting, user=owner, payer=members["An"], payee=members["Chi"], amount=5000
    )
    assert _poll(owner_client, sitting, etag).status_code == 200


def test_the_poll_refreshes_the_page_of_games_being_read(owner_client, sitting, owner):
    for _ in range(12):
        record(sitting, owner, first_out("Chi", An=1, Bình=2, Dũng=3))
    response = _poll(owner_client, sitting, '"0-2-vi"', page=2)
    assert 'data-page="2"' in response.text and 'id="game-2"' in response.text
    assert 'id="game-12"' not in response.text


def test_each_language_and_page_has_its_own_tag(owner_client, sitting):
    vi = _etag_on_page(owner_client.get(f"/s/{sitting.pk}/").text)
    owner_client.cookies["django_language"] = "en"
    en = _etag_on_page(owner_client.get(f"/s/{sitting.pk}/").text)
    assert vi != en and en.endswith('-en"')
    assert _poll(owner_client, sitting, vi).status_code == 200


def test_the_poll_is_never_cached_and_varies_on_htmx(owner_client, sitting):
    response = _poll(owner_client, sitting, '"nothing"')
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]


def test_strangers_cannot_poll(stranger_client, sitting):
    assert _poll(stranger_client, sitting, '"x"').status_code == 404
    assert Client().get(f"/s/{sitting.pk}/?part=board", headers=HX).status_code == 302


def test_the_version_moves_with_every_save(sitting, owner):
    before = Sitting.objects.get(pk=sitting.pk).version
    record(sitting, owner, first_out("Chi", An=1, Bình=2, Dũng=3))
    assert Sitting.objects.get(pk=sitting.pk).version > before
