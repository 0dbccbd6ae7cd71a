"""Only the latest standing close can be undone: the group page offers "Huỷ chốt" on that
one alone (an older one would answer 404)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import first_out, new_group, open_in_group, record

pytestmark = pytest.mark.django_db
FOUR = ["An", "Bình", "Chi", "Dũng"]


def test_it_offers_to_undo_the_latest_close_only(owner, owner_client):
    group = new_group(owner, "Thứ Bảy")
    closes = []
    for day in (datetime.date(2026, 11, 1), datetime.date(2026, 11, 8)):
        sitting = open_in_group(group, owner, FOUR, day=day)
        record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
        closes.append(services.period_close(group=group, user=owner, through=day).value)
    older, latest = closes
    page = owner_client.get(reverse("group", args=[group.pk])).text
    assert reverse("group_reopen", args=[group.pk, latest.pk]) in page
    assert reverse("group_reopen", args=[group.pk, older.pk]) not in page
    assert owner_client.post(reverse("group_reopen", args=[group.pk, older.pk])).status_code == 404

    services.period_close_undo(group=group, user=owner)
    page = owner_client.get(reverse("group", args=[group.pk])).text
    assert reverse("group_reopen", args=[group.pk, older.pk]) in page
    assert reverse("group_reopen", args=[group.pk, latest.pk]) not in page
