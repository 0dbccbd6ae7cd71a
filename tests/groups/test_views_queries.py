"""The group's pages ask the database the same number of questions whatever the number of
sittings: one load of the group ledger per page, never one query per sitting."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import engine, services
from scoring.models import Player
from tests.factories import bulk_games

pytestmark = pytest.mark.django_db

FOUR = ["An", "Bình", "Chi", "Dũng"]


def _grow(group, owner, count, start):
    for n in range(count):
        sitting = services.sitting_open(
            owner=owner,
            name=f"Bàn {start + n}",
            date=datetime.date(2026, 10, 1) + datetime.timedelta(days=start + n),
            rules=engine.PRESETS["dem-la"],
            stake=5000,
            player_names=FOUR,
            group=group,
        )
        bulk_games(sitting, owner, 3)


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path", ["/", "/?period=all", "/settle/", "/settle/?method=played", "/players/{an}/?period=all"]
)
def test_the_same_queries_at_two_and_eight_sittings(owner_client, owner, path):
    group = services.group_create(owner=owner, name="Đông").value
    _grow(group, owner, 2, 0)
    an = Player.objects.get(group=group, name="An").pk
    url = f"/groups/{group.pk}" + path.format(an=an)
    services.group_live_link(group=group, user=owner, action="enable")
    few = _queries(owner_client, url)
    _grow(group, owner, 6, 2)
    many = _queries(owner_client, url)
    assert many == few, (url, few, many)
