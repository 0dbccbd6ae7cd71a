"""The owner's page that turns the live link on, shows its QR code, replaces and revokes it."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services
from scoring.models import HistoryEntry, Sitting

pytestmark = pytest.mark.django_db


def _url(sitting):
    return f"/s/{sitting.pk}/live/"


def test_it_offers_to_turn_the_link_on(owner_client, sitting):
    html = owner_client.get(_url(sitting)).content.decode()
    assert 'value="enable"' in html
    assert "testserver/live/" not in html


def test_it_turns_the_link_on_and_shows_it_with_a_qr_code(owner_client, sitting):
    version = sitting.version
    response = owner_client.post(_url(sitting), {"action": "enable"})
    assert response.status_code == 302
    sitting.refresh_from_db()
    assert len(sitting.live_token) == 43
    assert sitting.version > version
    entry = HistoryEntry.objects.get(sitting=sitting, action=HistoryEntry.Action.LIVE)
    assert entry.after == {"live": True}
    assert sitting.live_token not in str(entry.before) + str(entry.after) + entry.note
    html = owner_client.get(_url(sitting)).content.decode()
    assert f"http://testserver/live/{sitting.live_token}/" in html
    assert 'class="vietqr"' in html
    assert 'value="regenerate"' in html and 'value="revoke"' in html


def test_it_keeps_the_same_link_when_turned_on_twice(owner_client, sitting):
    owner_client.post(_url(sitting), {"action": "enable"})
    token = Sitting.objects.get(pk=sitting.pk).live_token
    owner_client.post(_url(sitting), {"action": "enable"})
    assert Sitting.objects.get(pk=sitting.pk).live_token == token
    assert HistoryEntry.objects.filter(action=HistoryEntry.Action.LIVE).count() == 1


def test_it_replaces_the_link_and_the_old_one_stops_working(owner_client, client, sitting):
    owner_client.post(_url(sitting), {"action": "enable"})
    old = Sitting.objects.get(pk=sitting.pk).live_token
    owner_client.post(_url(sitting), {"action": "regenerate"})
    new = Sitting.objects.get(pk=sitting.pk).live_token
    assert new != old
    anonymous = Client()
    assert anonymous.get(f"/live/{old}/").status_code == 404
    assert anonymous.get(f"/live/{new}/").status_code == 200


def test_it_revokes_the_link(owner_client, sitting):
    owner_client.post(_url(sitting), {"action": "enable"})
    token = Sitting.objects.get(pk=sitting.pk).live_token
    owner_client.post(_url(sitting), {"action": "revoke"})
    assert Sitting.objects.get(pk=sitting.pk).live_token is None
    assert Client().get(f"/live/{token}/").status_code == 404
    entries = HistoryEntry.objects.filter(action=HistoryEntry.Action.LIVE).order_by("id")
    assert [e.after for e in entries] == [{"live": True}, {"live": False}]


def test_it_refuses_an_unknown_action(owner_client, sitting):
    assert owner_client.post(_url(sitting), {"action": "delete"}).status_code == 400


def test_it_is_404_to_a_stranger(stranger_client, sitting):
    assert stranger_client.get(_url(sitting)).status_code == 404
    assert stranger_client.post(_url(sitting), {"action": "enable"}).status_code == 404
    assert Sitting.objects.get(pk=sitting.pk).live_token is None


def test_it_is_404_to_a_co_scorekeeper(client, owner, sitting):
    helper = get_user_model().objects.create_user("ban_than", password="mat-khau-dai-456")
    services.sitting_share(sitting=sitting, user=owner, invitee=helper)
    client.force_login(helper)
    assert client.get(_url(sitting)).status_code == 404


def test_it_sends_anonymous_visitors_to_log_in(client, sitting):
    response = client.get(_url(sitting))
    assert response.status_code == 302
    assert "/accounts/login/" in response.headers["Location"]


def test_it_refuses_other_methods(owner_client, sitting):
    assert owner_client.put(_url(sitting)).status_code == 405


def test_it_needs_the_csrf_token(owner, sitting):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(owner)
    assert csrf_client.post(_url(sitting), {"action": "enable"}).status_code == 403
    assert Sitting.objects.get(pk=sitting.pk).live_token is None


def test_it_is_reached_from_the_sitting_page_by_the_owner_only(owner_client, owner, sitting):
    assert f'href="/s/{sitting.pk}/live/"' in owner_client.get(f"/s/{sitting.pk}/").content.decode()
    helper = get_user_model().objects.create_user("ban_than", password="mat-khau-dai-456")
    services.sitting_share(sitting=sitting, user=owner, invitee=helper)
    other = Client()
    other.force_login(helper)
    assert f"/s/{sitting.pk}/live/" not in other.get(f"/s/{sitting.pk}/").content.decode()
