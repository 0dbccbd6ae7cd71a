"""Redis stopped and started under the site: the shared cache is best-effort.

A real redis-server in a temporary folder is the cache, configured as production configures it
(``cache_from_url``). With it stopped, saves and voids succeed, the scorekeeper's page and the
live page (full page and poll) render, and ``/healthz`` answers 200 with the cache degraded.
With it started again, a poll holding the tag from before the outage gets the board of every
game saved meanwhile, and the cache is used again.

The tests run with real transactions (``transactional_db``) so the after-commit update of the
cache runs as it does in production.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis
from django.test import Client, override_settings
from django.urls import reverse

from scoring.models import Sitting
from tests.factories import first_out, live_link, open_sitting, record
from tests.reliability.realserver import HOST, free_port
from tests.reliability.stack import Redis, find_binary
from tienlen_site.plumbing import cache_backend
from tienlen_site.settings import cache_from_url

pytestmark = [
    pytest.mark.skipif(find_binary("redis-server") is None, reason="needs redis-server"),
    pytest.mark.django_db(transaction=True),
]

POLL = {"HX-Request": "true"}


@pytest.fixture
def redis_server(tmp_path) -> Iterator[Redis]:
    server = Redis(tmp_path).start()
    try:
        with override_settings(CACHES={"default": cache_from_url(server.url)}):
            yield server
    finally:
        server.stop()


def _restart(server: Redis) -> None:
    server.start()
    # The process leaves Redis alone for a moment after an error; then it is used again.
    time.sleep(cache_backend.RETRY_SECONDS + 0.1)


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_it_saves_and_renders_with_redis_stopped(redis_server, owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    token = live_link(sitting, owner)
    client = _client(owner)
    assert client.get(f"/live/{token}/").status_code == 200  # the cache filled

    redis_server.stop()
    game = record(sitting, owner, first_out("Bình", An=4, Chi=6, Dũng=8))
    void = client.post(reverse("game_void", args=[sitting.pk, game.number]), {"reason": "nhầm"})
    assert void.status_code == 302
    assert client.get(reverse("sitting", args=[sitting.pk])).status_code == 200
    assert Client().get(f"/live/{token}/").status_code == 200  # the shared page for a visitor
    poll = Client().get(f"/live/{token}/", headers=POLL)
    assert poll.status_code == 200
    version = Sitting.objects.get(pk=sitting.pk).version
    assert poll["ETag"].startswith(f'"{version}-')


def test_healthz_says_the_cache_is_degraded_while_redis_is_stopped(redis_server, db):
    client = Client()
    up = client.get("/healthz")
    assert (up.status_code, up.json()["cache"], up.json()["status"]) == (200, "ok", "ok")

    redis_server.stop()
    down = client.get("/healthz")
    # Still 200: every page works without the cache, so the load balancer keeps the server.
    assert down.status_code == 200
    assert (down.json()["status"], down.json()["cache"]) == ("degraded", "degraded")

    _restart(redis_server)
    assert client.get("/healthz").json()["cache"] == "ok"


def test_the_live_page_catches_up_when_redis_is_back(redis_server, owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    token = live_link(sitting, owner)
    phone = Client()
    before = phone.get(f"/live/{token}/", headers=POLL)["ETag"]

    redis_server.stop()
    record(sitting, owner, first_out("Chi", An=2, Bình=9, Dũng=1))  # its update is lost
    _restart(redis_server)

    poll = phone.get(f"/live/{token}/", headers={**POLL, "If-None-Match": before})
    assert poll.status_code == 200, "a save made while Redis was down never reached the phone"
    version = Sitting.objects.get(pk=sitting.pk).version
    assert poll["ETag"].startswith(f'"{version}-')

    # And the cache serves again: the poll put its board there, and the next save is seen.
    assert redis.Redis.from_url(redis_server.url).keys("*live-board:*")
    record(sitting, owner, first_out("Dũng", An=3, Bình=4, Chi=5))
    again = phone.get(f"/live/{token}/", headers={**POLL, "If-None-Match": poll["ETag"]})
    assert again.status_code == 200
    assert again["ETag"].startswith(f'"{version + 1}-')


def test_a_redis_that_refuses_costs_no_more_than_a_miss(db):
    """Nothing listens on the port: every call answers as a cold cache would, at once."""
    closed = f"redis://{HOST}:{free_port()}/0"
    with override_settings(CACHES={"default": cache_from_url(closed)}):
        from django.core.cache import cache

        started = time.monotonic()
        assert cache.get("k", "default") == "default"
        cache.set("k", 1)
        assert cache.get_many(["k"]) == {}
        assert cache.add("claim", 1) is True  # nobody else can hold the claim
        cache.delete_many(["k"])
        assert time.monotonic() - started < 1
        assert cache_backend.cache_status() == "degraded"
