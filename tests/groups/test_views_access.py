"""Nobody outside a group sees it: another user, a scorekeeper of one of its sittings who is
not a member of the group, and a member who is not the owner (for the owner's pages) get a
404 on every group URL — the same answer as for a group that does not exist."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import get_resolver, resolve, reverse

from scoring import engine, services
from scoring.models import Invitation, PeriodClose, Player, Settlement
from tests.factories import first_out, record

pytestmark = pytest.mark.django_db

FOUR = ["An", "Bình", "Chi", "Dũng"]
# Every URL name of the group pages, with whether only the owner may use it.
GROUP_URLS = {
    "group": False,
    "group_settle": False,
    "group_settlement_new": False,
    "group_settlement_void": False,
    "group_statement": False,
    "group_statement_games": False,
    "group_why": False,
    "group_why_games": False,
    "group_statement_csv": False,
    "group_statement_json": False,
    "group_close": False,
    "group_reopen": False,
    "group_leave": False,
    "group_merge": True,
    "group_sitting_new": False,
    "sitting_move": True,
    "group_share": True,
    "group_invitation_withdraw": True,
    "group_keeper_remove": True,
    "group_live_settings": True,
    "group_rename": True,
    "group_history": False,
    "group_check": True,
    "group_stats": False,
    "group_stats_games": False,
    "group_player_year": False,
    "group_what_if": False,
    "group_live_leaderboard": True,
    "group_archive": True,
}


@pytest.fixture
def world(owner):
    users = get_user_model().objects
    group = services.group_create(owner=owner, name="Thứ Bảy").value
    other = services.group_create(owner=owner, name="Chủ nhật").value
    sitting = services.sitting_open(
        owner=owner,
        name="Tối 1/11",
        date=datetime.date(2026, 11, 1),
        rules=engine.PRESETS["dem-la"],
        stake=5000,
        player_names=FOUR,
        group=group,
    )
    record(sitting, owner, first_out("An", Bình=3, Chi=4, Dũng=5))
    players = {p.name: p for p in Player.objects.filter(group=group)}
    settlement = services.group_settlement_record(
        group=group, user=owner, payer=players["Bình"], payee=players["An"], amount=1000
    ).value
    close = services.period_close(
        group=group, user=owner, through=datetime.date(2026, 10, 31)
    ).value
    member = users.create_user("thanh_vien", password="x")
    services.group_share(group=group, user=owner, invitee=member)
    invitation = services.group_invite(group=group, user=owner, username="ai_do").value
    # A scorekeeper of the sitting alone, not of the group.
    sitting_keeper = users.create_user("ghi_ban", password="x")
    services.sitting_share(sitting=sitting, user=owner, invitee=sitting_keeper)
    services.group_live_link(group=group, user=owner, action="enable")
    group.refresh_from_db()
    kwargs = {
        "group": {"pk": group.pk},
        "group_settle": {"pk": group.pk},
        "group_settlement_new": {"pk": group.pk},
        "group_settlement_void": {"pk": group.pk, "settlement_id": settlement.pk},
        "group_statement": {"pk": group.pk, "player_id": players["An"].pk},
        "group_statement_games": {
            "pk": group.pk,
            "player_id": players["An"].pk,
            "sitting_id": sitting.pk,
        },
        "group_why": {"pk": group.pk, "payer_id": players["Bình"].pk, "payee_id": players["An"].pk},
        "group_why_games": {
            "pk": group.pk,
            "payer_id": players["Bình"].pk,
            "payee_id": players["An"].pk,
            "sitting_id": sitting.pk,
        },
        "group_statement_csv": {"pk": group.pk, "player_id": players["An"].pk},
        "group_statement_json": {"pk": group.pk, "player_id": players["An"].pk},
        "group_close": {"pk": group.pk},
        "group_reopen": {"pk": group.pk, "close_id": close.pk},
        "group_leave": {"pk": group.pk},
        "group_merge": {"pk": group.pk},
        "group_sitting_new": {"pk": group.pk},
        "sitting_move": {"pk": group.pk, "sitting_id": sitting.pk},
        "group_share": {"pk": group.pk},
        "group_invitation_withdraw": {"pk": group.pk, "invitation_id": invitation.pk},
        "group_keeper_remove": {"pk": group.pk, "user_id": member.pk},
        "group_live_settings": {"pk": group.pk},
        "group_rename": {"pk": group.pk},
        "group_history": {"pk": group.pk},
        "group_check": {"pk": group.pk},
        "group_archive": {"pk": group.pk},
        "group_stats": {"pk": group.pk},
        "group_stats_games": {"pk": group.pk, "player_id": players["An"].pk, "what": "wins"},
        "group_player_year": {"pk": group.pk, "player_id": players["An"].pk},
        "group_what_if": {"pk": group.pk},
        "group_live_leaderboard": {"pk": group.pk},
    }
    return {
        "group": group,
        "other": other,
        "kwargs": kwargs,
        "member": member,
        "sitting_keeper": sitting_keeper,
        "settlement": settlement,
        "close": close,
        "invitation": invitation,
    }


POST_ONLY = {"group_settlement_new", "group_settlement_void", "group_reopen"}
POST_ONLY |= {"group_invitation_withdraw", "group_keeper_remove", "group_live_leaderboard"}
GET_ONLY = {"group", "group_settle", "group_statement", "group_statement_csv", "group_why"}
GET_ONLY |= {"group_statement_games", "group_why_games"}
GET_ONLY |= {"group_statement_json", "group_history", "group_check", "group_archive"}
GET_ONLY |= {"group_stats", "group_stats_games", "group_player_year", "group_what_if"}


def _refused(client, url, data):
    """404 for each method the URL answers (a method it never answers is 405 for everyone,
    whether or not the group exists, so it tells nothing)."""
    name = resolve(url).url_name
    if name not in POST_ONLY:
        assert client.get(url).status_code == 404, url
    if name not in GET_ONLY:
        assert client.post(url, data).status_code == 404, url


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_table_names_every_group_url():
    names = {key for key in get_resolver().reverse_dict if isinstance(key, str)}
    group_names = {n for n in names if n.startswith("group")} | {"sitting_move"}
    # "group_import" makes a new group: any signed-in user may (tests/archive/test_pages.py).
    assert group_names - {"group_live", "groups", "group_import"} == set(GROUP_URLS)


@pytest.mark.parametrize("name", sorted(GROUP_URLS))
@pytest.mark.parametrize("who", ["stranger", "sitting_keeper"])
def test_outsiders_get_404_on_every_group_url(world, stranger, name, who):
    user = stranger if who == "stranger" else world["sitting_keeper"]
    client = _client(user)
    url = reverse(name, kwargs=world["kwargs"][name])
    _refused(client, url, {"closes_through": "2026-11-20"})
    # Nothing changed for anyone.
    assert Settlement.objects.get(pk=world["settlement"].pk).is_void is False
    assert PeriodClose.objects.get(pk=world["close"].pk).undone_at is None
    assert Invitation.objects.get(pk=world["invitation"].pk).is_pending


@pytest.mark.parametrize("name", sorted(n for n, owner_only in GROUP_URLS.items() if owner_only))
def test_a_member_gets_404_on_the_owner_pages(world, name):
    client = _client(world["member"])
    url = reverse(name, kwargs=world["kwargs"][name])
    _refused(client, url, {"target": world["other"].pk})


@pytest.mark.parametrize(
    "name", sorted(n for n, owner_only in GROUP_URLS.items() if not owner_only)
)
def test_a_member_reads_the_group(world, name):
    if name in POST_ONLY:
        pytest.skip("POST only")
    client = _client(world["member"])
    assert client.get(reverse(name, kwargs=world["kwargs"][name])).status_code == 200


def test_a_group_that_does_not_exist_is_the_same_404(owner_client):
    assert owner_client.get("/groups/999999/").status_code == 404
    assert owner_client.get("/groups/999999/settle/").status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(world, client):
    response = client.get(reverse("group", kwargs=world["kwargs"]["group"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_group_list_shows_only_ones_own_groups(world, stranger):
    page = _client(stranger).get("/groups/")
    assert page.status_code == 200
    assert "Thứ Bảy" not in page.text


def test_the_live_link_of_another_group_is_404(world, client):
    assert client.get("/gl/" + "A" * 43 + "/").status_code == 404
    assert client.get(f"/gl/{world['group'].live_token}/").status_code == 200


def test_a_player_of_another_group_is_404(world, owner_client, owner):
    outsider = Player.objects.create(owner=owner, group=world["other"], name="Khác")
    url = reverse("group_statement", kwargs={"pk": world["group"].pk, "player_id": outsider.pk})
    assert owner_client.get(url).status_code == 404
