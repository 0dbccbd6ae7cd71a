""" "Mời cả bàn": one code for the whole table. Each phone takes its own name and gets that
player's own link (kept in a cookie); a name is taken once, until the scorekeeper frees it
(which turns that link off); the code lasts one night, and stops when turned off, replaced or
when the sitting is closed into a period."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import GroupHistoryEntry, HistoryEntry, JoinClaim, JoinCode
from scoring.views.links import MY_LINKS
from tests.factories import group_player, new_group, open_in_group, settle, won

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(owner):
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"], day=timezone.localdate())
    won(sitting, owner, "Bình", {"An": 6})
    settle(sitting, owner, "An", "Bình", 10000)
    return group, sitting


def _code(owner_client, sitting) -> str:
    response = owner_client.post(f"/s/{sitting.pk}/join/", {"action": "enable"})
    assert response.status_code == 302
    code = services.open_code(sitting)
    assert code is not None
    return code.token


def _claim(client, token, player):
    """A phone opens the code's page (which gives it its own cookie), then taps a name."""
    client.get(f"/j/{token}/")
    return client.post(f"/j/{token}/", {"player": str(player.pk)})


def test_the_owner_turns_the_code_on_and_shows_its_qr_and_who_joined(owner_client, table):
    _group, sitting = table
    page = owner_client.get(f"/s/{sitting.pk}/join/").content.decode()
    assert "/j/" not in page and 'value="enable"' in page
    assert f'href="/s/{sitting.pk}/join/"' in owner_client.get(f"/s/{sitting.pk}/").content.decode()
    token = _code(owner_client, sitting)
    html = owner_client.get(f"/s/{sitting.pk}/join/").content.decode()
    assert f"/j/{token}/" in html and "<svg" in html
    assert html.count("chưa vào") == 4
    entry = HistoryEntry.objects.filter(sitting=sitting).latest("id")
    assert entry.note_code == "join_on" and token not in str(entry.before) + str(entry.after)
    # On again when on: the same code, nothing written.
    owner_client.post(f"/s/{sitting.pk}/join/", {"action": "enable"})
    assert JoinCode.objects.filter(sitting=sitting).count() == 1


def test_a_phone_claims_its_name_and_gets_exactly_that_players_link(owner_client, table):
    group, sitting = table
    token = _code(owner_client, sitting)
    phone = Client()
    page = phone.get(f"/j/{token}/")
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex, nofollow" and "no-cache" in page["Cache-Control"]
    html = page.content.decode()
    for name in ("An", "Bình", "Chi", "Dũng"):
        assert name in html
    binh = group_player(group, "Bình")
    response = _claim(phone, token, binh)
    binh.refresh_from_db()
    assert binh.link_token
    assert response.status_code == 302 and response["Location"] == f"/p/{binh.link_token}/"
    assert response.cookies[MY_LINKS].value == binh.link_token
    assert response.cookies[MY_LINKS]["httponly"]
    # The claimed link is the player's own page, the same as the scorekeeper's link.
    own = phone.get(response["Location"])
    assert own.status_code == 200 and "Sổ của Bình" in own.content.decode()
    assert services.player_link(player=binh, user=sitting.owner, action="enable") == binh.link_token
    # The phone keeps it: the code again, and the installed app's start page, open it.
    assert phone.get(f"/j/{token}/")["Location"] == f"/p/{binh.link_token}/"
    assert phone.get("/")["Location"] == f"/p/{binh.link_token}/"
    assert Client().get("/").status_code == 200  # a phone without it sees the welcome page
    # The scorekeeper sees who joined.
    html = owner_client.get(f"/s/{sitting.pk}/join/?part=joined").content.decode()
    assert html.count("chưa vào") == 3 and "Gỡ tên Bình" in html
    entry = GroupHistoryEntry.objects.filter(group=group).latest("id")
    assert entry.note_code == "join_claimed" and entry.user is None
    assert entry.sitting_id == sitting.pk


def test_a_name_already_taken_asks_the_scorekeeper_and_issues_no_second_link(owner_client, table):
    group, sitting = table
    token = _code(owner_client, sitting)
    chi = group_player(group, "Chi")
    _claim(Client(), token, chi)
    chi.refresh_from_db()
    first = chi.link_token
    other = Client()
    assert 'disabled aria-describedby="taken-' in other.get(f"/j/{token}/").content.decode()
    response = _claim(other, token, chi)
    assert response.status_code == 409
    html = response.content.decode()
    assert "đã có người chọn" in html and "người ghi sổ" in html
    assert MY_LINKS not in response.cookies and first not in html
    chi.refresh_from_db()
    assert chi.link_token == first and JoinClaim.objects.filter(player=chi).count() == 1


def test_the_scorekeeper_frees_a_name_and_the_link_it_handed_out_stops(owner_client, table):
    group, sitting = table
    token = _code(owner_client, sitting)
    dung = group_player(group, "Dũng")
    wrong_phone = Client()
    link = _claim(wrong_phone, token, dung)["Location"]
    response = owner_client.post(f"/s/{sitting.pk}/join/{dung.pk}/reset/")
    assert response.status_code == 302
    assert wrong_phone.get(link).status_code == 410
    dung.refresh_from_db()
    assert dung.link_token is None and not JoinClaim.objects.filter(player=dung).exists()
    assert GroupHistoryEntry.objects.filter(group=group).latest("id").note_code == "join_reset"
    # The right phone takes the name again and gets a new link.
    new = _claim(Client(), token, dung)["Location"]
    assert new != link and Client().get(new).status_code == 200
    # Freeing a name nobody took writes nothing.
    an = group_player(group, "An")
    entries = GroupHistoryEntry.objects.count()
    owner_client.post(f"/s/{sitting.pk}/join/{an.pk}/reset/")
    assert GroupHistoryEntry.objects.count() == entries


def test_a_revoked_or_replaced_code_is_a_404_and_the_joined_keep_their_links(owner_client, table):
    group, sitting = table
    token = _code(owner_client, sitting)
    an = group_player(group, "An")
    phone = Client()
    link = _claim(phone, token, an)["Location"]
    owner_client.post(f"/s/{sitting.pk}/join/", {"action": "regenerate"})
    new = services.open_code(sitting)
    assert new is not None and new.token != token
    assert Client().get(f"/j/{token}/").status_code == 410
    assert _claim(Client(), token, group_player(group, "Chi")).status_code == 410
    assert Client().get(f"/j/{new.token}/").status_code == 200
    owner_client.post(f"/s/{sitting.pk}/join/", {"action": "revoke"})
    assert services.open_code(sitting) is None
    assert Client().get(f"/j/{new.token}/").status_code == 410
    assert phone.get(link).status_code == 200
    assert 'value="enable"' in owner_client.get(f"/s/{sitting.pk}/join/").content.decode()


def test_the_code_expires_with_the_night(owner_client, table, monkeypatch):
    group, sitting = table
    token = _code(owner_client, sitting)
    code = JoinCode.objects.get(token=token)
    zone = timezone.get_default_timezone()
    assert timezone.localtime(code.expires_at, zone) == datetime.datetime.combine(
        sitting.date + datetime.timedelta(days=1), datetime.time(6), tzinfo=zone
    )
    later = code.expires_at + datetime.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert Client().get(f"/j/{token}/").status_code == 410
    assert _claim(Client(), token, group_player(group, "An")).status_code == 410
    assert services.open_code(sitting) is None


def test_night_end_for_a_sitting_whose_night_is_over_is_the_next_morning():
    zone = timezone.get_default_timezone()
    day = datetime.date(2026, 12, 3)
    at = datetime.datetime(2026, 12, 3, 21, 0, tzinfo=zone)
    assert services.night_end(day, at) == datetime.datetime(2026, 12, 4, 6, 0, tzinfo=zone)
    # Past midnight, still the same night.
    at = datetime.datetime(2026, 12, 4, 2, 0, tzinfo=zone)
    assert services.night_end(day, at) == datetime.datetime(2026, 12, 4, 6, 0, tzinfo=zone)
    # A sitting of last week opened again today: until tomorrow morning.
    at = datetime.datetime(2026, 12, 10, 20, 0, tzinfo=zone)
    assert services.night_end(day, at) == datetime.datetime(2026, 12, 11, 6, 0, tzinfo=zone)
    at = datetime.datetime(2026, 12, 10, 3, 0, tzinfo=zone)
    assert services.night_end(day, at) == datetime.datetime(2026, 12, 10, 6, 0, tzinfo=zone)


def test_a_sitting_closed_into_a_period_stops_its_code(owner, owner_client, table):
    group, sitting = table
    token = _code(owner_client, sitting)
    services.period_close(group=group, user=owner, through=sitting.date)
    assert Client().get(f"/j/{token}/").status_code == 410
    html = owner_client.get(f"/s/{sitting.pk}/join/").content.decode()
    assert f"/j/{token}/" not in html and "đã chốt sổ" in html
    response = owner_client.post(f"/s/{sitting.pk}/join/", {"action": "regenerate"}, follow=True)
    assert "/j/" not in response.content.decode()


def test_a_wrong_code_or_a_wrong_name_is_refused_without_writing(owner_client, table, owner):
    _group, sitting = table
    token = _code(owner_client, sitting)
    phone = Client()
    phone.get(f"/j/{token}/")
    assert phone.get(f"/j/{'A' * 43}/").status_code == 404
    assert phone.post(f"/j/{'A' * 43}/", {"player": "1"}).status_code == 404
    assert phone.get(f"/j/{token[:-1]}/").status_code == 404
    other = open_in_group(new_group(owner, "Nhóm khác"), owner, ["Tư", "Năm"])
    stranger = group_player(other.group, "Tư")
    for value in (str(stranger.pk), "", "²", "9" * 40, "abc"):
        response = phone.post(f"/j/{token}/", {"player": value})
        assert response.status_code == 422, value
        assert "alert" in response.content.decode()
    assert not JoinClaim.objects.exists() and MY_LINKS not in phone.cookies


def test_only_the_owner_manages_the_code(stranger_client, owner_client, table):
    group, sitting = table
    _code(owner_client, sitting)
    an = group_player(group, "An")
    assert stranger_client.get(f"/s/{sitting.pk}/join/").status_code == 404
    assert stranger_client.post(f"/s/{sitting.pk}/join/", {"action": "revoke"}).status_code == 404
    assert stranger_client.post(f"/s/{sitting.pk}/join/{an.pk}/reset/").status_code == 404
    assert Client().get(f"/s/{sitting.pk}/join/").status_code == 302
    assert owner_client.post(f"/s/{sitting.pk}/join/", {"action": "nope"}).status_code == 400
    assert owner_client.get(f"/s/{sitting.pk}/join/{an.pk}/reset/").status_code == 405
    assert services.open_code(sitting) is not None
