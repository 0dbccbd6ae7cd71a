"""The live page's poll: 304 when nothing is new, from the cache (one indexed query when the
cache misses)."""

import pytest
from django.core.cache import cache

from scoring import services
from tests.factories import SECOND, live_url, record

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _poll(client, sitting, etag=None):
    headers = dict(HX)
    if etag:
        headers["If-None-Match"] = etag
    return client.get(live_url(sitting), headers=headers)


def test_it_answers_304_without_any_query_when_nothing_is_new(
    client, live_sitting, django_assert_num_queries
):
    etag = _poll(client, live_sitting).headers["ETag"]
    with django_assert_num_queries(0):
        response = _poll(client, live_sitting, etag)
    assert response.status_code == 304
    assert response.content == b""
    assert response.headers["ETag"] == etag


def test_it_answers_304_with_one_query_when_the_cache_has_lost_the_version(
    client, live_sitting, django_assert_num_queries
):
    etag = _poll(client, live_sitting).headers["ETag"]
    cache.clear()
    with django_assert_num_queries(1):
        assert _poll(client, live_sitting, etag).status_code == 304


def test_it_costs_the_same_one_query_however_long_the_night(
    client, owner, live_sitting, django_assert_num_queries
):
    for _ in range(5):
        record(live_sitting, owner, SECOND)
    etag = _poll(client, live_sitting).headers["ETag"]
    cache.clear()
    with django_assert_num_queries(1):
        assert _poll(client, live_sitting, etag).status_code == 304


def test_it_returns_the_new_game_after_one_is_recorded(client, owner, live_sitting):
    etag = _poll(client, live_sitting).headers["ETag"]
    record(live_sitting, owner, SECOND)
    response = _poll(client, live_sitting, etag)
    assert response.status_code == 200
    assert "Ván 2" in response.content.decode()
    assert response.headers["ETag"] != etag
    assert _poll(client, live_sitting, response.headers["ETag"]).status_code == 304


def test_it_returns_the_board_again_after_an_edit(client, owner, live_sitting):
    etag = _poll(client, live_sitting).headers["ETag"]
    game = live_sitting.games.latest("number")
    services.game_edit(game=game, user=owner, record=SECOND, expected_revision=1)
    response = _poll(client, live_sitting, etag)
    assert response.status_code == 200
    assert "đã sửa" in response.content.decode()


def test_it_returns_the_board_again_after_a_void(client, owner, live_sitting):
    etag = _poll(client, live_sitting).headers["ETag"]
    services.game_void(game=live_sitting.games.latest("number"), user=owner, reason="nhầm")
    response = _poll(client, live_sitting, etag)
    assert response.status_code == 200
    assert "đã huỷ" in response.content.decode()


def test_it_answers_404_to_a_poll_once_the_link_is_revoked(client, owner, live_sitting):
    etag = _poll(client, live_sitting).headers["ETag"]
    services.sitting_live_link(sitting=live_sitting, user=owner, action="revoke")
    assert _poll(client, live_sitting, etag).status_code == 404


def test_it_never_answers_304_for_the_full_page(client, live_sitting):
    # The full page carries a fresh CSP nonce; a cached copy would have its scripts refused.
    etag = _poll(client, live_sitting).headers["ETag"]
    response = client.get(live_url(live_sitting), headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert "ETag" not in response.headers


def test_it_tags_each_language_apart(client, live_sitting):
    etag = _poll(client, live_sitting).headers["ETag"]
    client.cookies["django_language"] = "en"
    assert _poll(client, live_sitting, etag).status_code == 200


def test_it_tells_caches_the_fragment_differs_from_the_page(client, live_sitting):
    response = _poll(client, live_sitting)
    assert "HX-Request" in response.headers["Vary"]
    assert "no-cache" in response.headers["Cache-Control"]
