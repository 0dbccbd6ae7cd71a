"""The live link's poll, as real clients send it: through gzip, and echoing the ETag.

A browser asks for gzip, so GZipMiddleware compresses the board and, as Django does for every
compressed response, turns its ETag weak (W/"…"). A client that revalidates with the ETag it
was sent (the browser's HTTP cache, a proxy, any HTTP-conforming client) then sends W/"…".
If-None-Match is defined with the weak comparison (RFC 9110, 13.1.2): that must be a 304.
"""

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from tests.factories import first_out, live_link, open_sitting, record

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br", "HX-Request": "true"}


def _live(owner):
    sitting = open_sitting(owner)
    for _ in range(8):  # enough games for a board big enough to be compressed
        record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    token = live_link(sitting, owner)
    return reverse("live", args=[token])


def test_an_unchanged_board_is_a_304_for_the_etag_the_server_sent(owner):
    url = _live(owner)
    client = Client()
    first = client.get(url, headers=GZIP)
    assert first.status_code == 200
    assert first["Content-Encoding"] == "gzip"
    etag = first["ETag"]
    again = client.get(url, headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304, f"sent ETag {etag}, a poll echoing it got a full board"


def test_the_strong_tag_in_the_page_still_gets_a_304(owner):
    url = _live(owner)
    client = Client()
    etag = client.get(url, headers=GZIP)["ETag"].removeprefix("W/")
    assert client.get(url, headers={**GZIP, "If-None-Match": etag}).status_code == 304


def test_the_scorekeepers_board_is_a_304_for_the_weak_tag_too(owner):
    sitting = open_sitting(owner)
    for _ in range(8):
        record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    client = Client()
    client.force_login(owner)
    url = f"{reverse('sitting', args=[sitting.pk])}?part=board"
    first = client.get(url, headers={**GZIP, "If-None-Match": '"old"'})
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert client.get(url, headers={**GZIP, "If-None-Match": first["ETag"]}).status_code == 304


def test_the_group_live_page_is_a_304_for_the_weak_tag_too(owner):
    group = services.group_create(owner=owner, name="Thứ Bảy").value
    sitting = open_sitting(owner, group=group)
    record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    services.group_live_link(group=group, user=owner, action="enable")
    group.refresh_from_db()
    url = reverse("group_live", args=[group.live_token])
    client = Client()
    first = client.get(url, headers=GZIP)
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert client.get(url, headers={**GZIP, "If-None-Match": first["ETag"]}).status_code == 304
