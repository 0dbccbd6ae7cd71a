"""The live poll reads the sitting's version from the cache first (scoring.ledger.live_cache).

A quiet poll runs no SQL; a write puts its new version in the cache once it commits; and a
cached version that is wrong, whatever made it wrong, is gone before a phone polls again.
"""

import time

import pytest
from django.core.cache import cache
from django.core.cache.backends import base, locmem
from django.db.models import F

from scoring import services
from scoring.ledger import live_cache
from scoring.models import Sitting
from scoring.views.links import POLL_SECONDS
from tests.factories import SECOND, live_url, record

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
# A phone's timer drifts; live.js and the load test allow 5 % either way.
SHORTEST_POLL_INTERVAL = POLL_SECONDS * 0.95


def _poll(client, sitting, etag=None):
    headers = dict(HX)
    if etag:
        headers["If-None-Match"] = etag
    return client.get(live_url(sitting), headers=headers)


def _cached(sitting):
    return cache.get(f"live-version:{sitting.live_token}")


class Clock:
    """The memory cache's clock, moved only by the test: a cached version expires when the
    test says a second has passed, not when a busy machine takes a second to answer a poll."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    clock = Clock()
    # Where an entry's expiry is set, and where it is checked.
    monkeypatch.setattr(base, "time", clock)
    monkeypatch.setattr(locmem, "time", clock)
    return clock


def test_a_cached_version_lives_less_than_one_poll_interval():
    assert live_cache.VERSION_SECONDS < SHORTEST_POLL_INTERVAL


def test_it_puts_the_new_version_in_the_cache_when_a_save_commits(
    client, owner, live_sitting, django_capture_on_commit_callbacks, django_assert_num_queries
):
    etag = _poll(client, live_sitting).headers["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        record(live_sitting, owner, SECOND)
    live_sitting.refresh_from_db()
    assert _cached(live_sitting) == live_sitting.version
    fresh = _poll(client, live_sitting, etag)
    assert fresh.status_code == 200
    assert "Ván 2" in fresh.content.decode()
    with django_assert_num_queries(0):
        assert _poll(client, live_sitting, fresh.headers["ETag"]).status_code == 304


def test_a_save_shows_on_the_next_poll_even_before_its_commit_hook_runs(
    client, owner, live_sitting
):
    # Inside the test's transaction the after-commit update never runs: the write has already
    # dropped the cached version, so the next poll reads the database.
    etag = _poll(client, live_sitting).headers["ETag"]
    assert _cached(live_sitting) is not None
    record(live_sitting, owner, SECOND)
    assert _cached(live_sitting) is None
    assert _poll(client, live_sitting, etag).status_code == 200


def test_a_stale_cached_version_hides_a_change_for_less_than_one_poll(client, live_sitting, clock):
    etag = _poll(client, live_sitting).headers["ETag"]
    # A write the cache never heard of: another process with its own memory cache, a commit
    # hook lost with a killed server, or two hooks landing out of order.
    Sitting.objects.filter(pk=live_sitting.pk).update(version=F("version") + 1)
    assert _poll(client, live_sitting, etag).status_code == 304  # the cache answered
    clock.advance(live_cache.VERSION_SECONDS + 0.05)
    assert live_cache.VERSION_SECONDS + 0.05 < SHORTEST_POLL_INTERVAL
    response = _poll(client, live_sitting, etag)
    assert response.status_code == 200
    assert response.headers["ETag"] != etag


def test_an_out_of_order_commit_hook_cannot_pin_an_old_version(client, live_sitting, clock):
    etag = _poll(client, live_sitting).headers["ETag"]
    old = live_sitting.version
    Sitting.objects.filter(pk=live_sitting.pk).update(version=F("version") + 1)
    cache.set(f"live-version:{live_sitting.live_token}", old, live_cache.VERSION_SECONDS)
    clock.advance(live_cache.VERSION_SECONDS + 0.05)
    assert _poll(client, live_sitting, etag).status_code == 200


def test_a_regenerated_link_stops_answering_at_once(client, owner, live_sitting):
    old_url = live_url(live_sitting)
    etag = _poll(client, live_sitting).headers["ETag"]
    services.sitting_live_link(sitting=live_sitting, user=owner, action="regenerate")
    assert client.get(old_url, headers={**HX, "If-None-Match": etag}).status_code == 404
    assert _poll(client, live_sitting).status_code == 200


def test_a_revoked_link_is_dropped_from_the_cache_after_the_commit(
    client, owner, live_sitting, django_capture_on_commit_callbacks
):
    _poll(client, live_sitting)
    token = live_sitting.live_token
    with django_capture_on_commit_callbacks(execute=True):
        services.sitting_live_link(sitting=live_sitting, user=owner, action="revoke")
    assert cache.get(f"live-version:{token}") is None


def test_the_opening_page_reuses_the_board_the_polls_rendered(
    client, live_sitting, django_assert_max_num_queries
):
    board = _poll(client, live_sitting).content.decode()
    with django_assert_max_num_queries(2):
        response = client.get(live_url(live_sitting))
    text = response.content.decode()
    assert response.status_code == 200
    assert board in text
    assert "<html" in text and "nonce=" in text
