"""The owner decides whether the group's live link shows the open period's leaderboard: off
until they turn it on, the open period only (a closed one is left out), written once, in the
history, and refused for anyone else or for a value that is neither on nor off."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.ledger.standing import ledger_version
from scoring.models import Group, GroupHistoryEntry
from tests.factories import first_out, new_group, open_sitting, record

pytestmark = pytest.mark.django_db

EARLY, LATE = datetime.date(2025, 5, 3), datetime.date(2025, 5, 10)


@pytest.fixture
def group(owner):
    group = new_group(owner, "Thứ Bảy")
    early = open_sitting(owner, group=group, day=EARLY, name="Tối 3/5", stake=1000)
    record(early, owner, first_out("An", Bình=3, Chi=4, Dũng=5))
    late = open_sitting(owner, group=group, day=LATE, name="Tối 10/5", stake=1000)
    record(late, owner, first_out("Dũng", An=2, Bình=2, Chi=2))
    record(late, owner, first_out("Dũng", An=1, Bình=1, Chi=1))
    services.group_live_link(group=group, user=owner, action="enable")
    group.refresh_from_db()
    return group


def live(group):
    return Client().get(f"/gl/{group.live_token}/")


def board(page) -> list[tuple[str, str]]:
    """(name, wins/games) of each row of the live leaderboard, in order."""
    section = page.text.split('id="live-leaderboard"', 1)[1].split("</section>", 1)[0]
    return re.findall(r"<bdi>([^<]+)</bdi></td><td class=\"num\">(\d+/\d+)</td>", section)


def test_the_leaderboard_is_off_until_the_owner_turns_it_on(owner_client, owner, group):
    assert 'id="live-leaderboard"' not in live(group).text
    settings = owner_client.get(reverse("group_live_settings", args=[group.pk]))
    assert 'id="leaderboard-setting"' in settings.text
    version = ledger_version(group)
    answer = owner_client.post(reverse("group_live_leaderboard", args=[group.pk]), {"show": "1"})
    assert answer.status_code == 302
    assert Group.objects.get(pk=group.pk).live_leaderboard is True
    assert ledger_version(group) != version  # open live pages refresh
    page = live(group)
    # By the net from the games: An +9 000 (one big win), Dũng +4 000, Bình −6 000, Chi −7 000.
    assert board(page) == [("An", "1/3"), ("Dũng", "2/3"), ("Bình", "0/3"), ("Chi", "0/3")]
    entry = GroupHistoryEntry.objects.filter(group=group).order_by("-id").first()
    assert entry.after == {"leaderboard": True}


def test_asking_again_for_what_is_set_writes_nothing(owner, group):
    assert services.group_live_leaderboard(group=group, user=owner, show=True) is True
    entries = GroupHistoryEntry.objects.count()
    version = Group.objects.get(pk=group.pk).version
    assert services.group_live_leaderboard(group=group, user=owner, show=True) is False
    assert GroupHistoryEntry.objects.count() == entries
    assert Group.objects.get(pk=group.pk).version == version
    assert services.group_live_leaderboard(group=group, user=owner, show=False) is True
    assert 'id="live-leaderboard"' not in live(group).text


def test_it_shows_the_open_period_only(owner, group):
    services.group_live_leaderboard(group=group, user=owner, show=True)
    services.period_close(group=group, user=owner, through=LATE - datetime.timedelta(days=1))
    # The early night (An's win) is closed: only the late one counts.
    assert board(live(group)) == [("Dũng", "2/2"), ("An", "0/2"), ("Bình", "0/2"),
                                  ("Chi", "0/2")]  # fmt: skip


def test_a_value_that_is_neither_on_nor_off_is_refused(owner_client, group):
    url = reverse("group_live_leaderboard", args=[group.pk])
    for value in ("", "yes", "2", "1" * 5000):
        answer = owner_client.post(url, {"show": value})
        assert answer.status_code == 400
        assert "bảng xếp hạng" in answer.text
    assert owner_client.get(url).status_code == 405
    assert Group.objects.get(pk=group.pk).live_leaderboard is False


def test_only_the_owner_decides(group, owner, stranger):
    member = Client()
    from django.contrib.auth import get_user_model

    keeper = get_user_model().objects.create_user("ghi_cung", password="x")
    services.group_share(group=group, user=owner, invitee=keeper)
    member.force_login(keeper)
    url = reverse("group_live_leaderboard", args=[group.pk])
    assert member.post(url, {"show": "1"}).status_code == 404
    with pytest.raises(services.InvalidInput):
        services.group_live_leaderboard(group=group, user=keeper, show=True)
    assert Group.objects.get(pk=group.pk).live_leaderboard is False
