"""A write to a sitting whose period was closed (on another phone, a moment ago) is refused
with a 409 page saying why, or, for htmx, sent back with the message; never a 500."""

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import services
from scoring.models import Game
from tests.factories import DAY, new_group, open_in_group, won

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
CLOSED = "đã chốt đến hết ngày 28/11/2026"


@pytest.fixture
def closed(owner):
    """A sitting with a game played and one voided, a payment, and then its period closed."""
    group = new_group(owner, "Cuối tuần")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"], day=DAY)
    played = won(sitting, owner, "An", {"Bình": 5, "Chi": 7})
    voided = won(sitting, owner, "Bình", {"An": 3, "Chi": 2})
    services.game_void(game=voided, user=owner, reason="ghi nhầm")
    players = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    settlement = services.settlement_record(
        sitting=sitting, user=owner, payer=players["Bình"], payee=players["An"], amount=1000
    )
    services.period_close(group=group, user=owner, through=DAY)
    sitting.refresh_from_db()
    return sitting, played, voided, settlement


def test_it_refuses_voiding_a_game_with_a_409_page(owner_client, closed):
    sitting, played, _voided, _settlement = closed
    response = owner_client.post(reverse("game_void", args=[sitting.pk, 1]), {"reason": "sai"})
    assert response.status_code == 409
    assert CLOSED in response.text
    assert f'href="{played.get_absolute_url()}"' in response.text
    assert Game.objects.get(pk=played.pk).status == Game.Status.ACTIVE
    assert type(sitting).objects.get(pk=sitting.pk).version == sitting.version


def test_it_refuses_restoring_a_game_with_a_409_page(owner_client, closed):
    sitting, _played, voided, _settlement = closed
    response = owner_client.post(reverse("game_restore", args=[sitting.pk, voided.number]))
    assert response.status_code == 409
    assert CLOSED in response.text
    assert Game.objects.get(pk=voided.pk).status == Game.Status.VOID


def test_it_refuses_an_undo_with_a_409_page(owner_client, closed):
    sitting, _played, voided, _settlement = closed
    response = owner_client.post(reverse("sitting_undo", args=[sitting.pk]))
    assert response.status_code == 409
    assert CLOSED in response.text
    assert f'href="{sitting.get_absolute_url()}"' in response.text
    assert Game.objects.get(pk=voided.pk).status == Game.Status.VOID


def test_it_sends_an_htmx_void_back_to_the_game_with_the_message(owner_client, closed):
    sitting, played, _voided, _settlement = closed
    url = reverse("game_void", args=[sitting.pk, 1])
    response = owner_client.post(url, {"reason": "sai"}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == played.get_absolute_url()
    assert CLOSED in owner_client.get(played.get_absolute_url()).text
    assert Game.objects.get(pk=played.pk).status == Game.Status.ACTIVE


def test_it_refuses_a_change_of_players_on_the_form_with_a_409(owner_client, closed):
    sitting, _played, _voided, _settlement = closed
    url = reverse("sitting_members", args=[sitting.pk])
    response = owner_client.post(url, {"players": "An\nBình\nChi\nDũng"})
    assert response.status_code == 409
    assert CLOSED in response.text
    assert sitting.memberships.count() == 3


def test_it_refuses_voiding_a_payment_with_a_409_page_or_the_htmx_message(owner_client, closed):
    sitting, _played, _voided, settlement = closed
    url = reverse("settlement_void", args=[sitting.pk, settlement.pk])
    page = owner_client.post(url, {"reason": "chưa trả"})
    assert page.status_code == 409
    assert CLOSED in page.text
    fragment = owner_client.post(url, {"reason": "chưa trả"}, headers=HX)
    assert fragment.status_code == 200  # htmx swaps only 2xx answers
    assert CLOSED in fragment.text and "<html" not in fragment.text
    settlement.refresh_from_db()
    assert not settlement.is_void


def test_it_says_so_in_english(owner_client, closed):
    sitting, _played, _voided, _settlement = closed
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = owner_client.post(reverse("game_void", args=[sitting.pk, 1]), {"reason": "sai"})
    assert response.status_code == 409
    assert "Not recorded" in response.text
    assert "nothing in a closed period can be added or changed" in response.text
