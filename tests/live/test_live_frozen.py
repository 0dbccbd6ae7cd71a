"""A live link of a sitting in a closed period: its board says there is no next game, and the
phones already watching see it on their next poll (the close moves the sitting's version)."""

from datetime import date

import pytest

from scoring import services
from tests.factories import live_url

pytestmark = pytest.mark.django_db


def _poll(client, sitting, etag=None):
    headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
    return client.get(live_url(sitting), headers=headers)


def test_closing_the_period_reaches_the_watching_phones(client, owner, live_sitting):
    first = _poll(client, live_sitting)
    assert "đi trước" in first.content.decode()
    etag = first.headers["ETag"]
    assert _poll(client, live_sitting, etag).status_code == 304

    services.period_close(group=live_sitting.group, user=owner, through=date(2025, 3, 1))
    poll = _poll(client, live_sitting, etag)
    assert poll.status_code == 200
    html = poll.content.decode()
    assert "Sổ đã chốt: không còn ván tới." in html and "đi trước" not in html

    services.period_close_undo(group=live_sitting.group, user=owner)
    reopened = _poll(client, live_sitting, poll.headers["ETag"])
    assert reopened.status_code == 200 and "đi trước" in reopened.content.decode()
