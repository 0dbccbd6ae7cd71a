"""The admin shows money rows but never deletes them: a wrong game is voided, not erased."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services
from scoring.models import Game, HistoryEntry, Payment, Seat, Settlement
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db

MONEY = [Game, Seat, Payment, Settlement, HistoryEntry]


@pytest.fixture
def admin_client(owner):
    admin = get_user_model().objects.create_superuser("quan_tri", password="mat-khau-dai-789")
    client = Client()
    client.force_login(admin)
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    players = [m.player for m in sitting.memberships.all()]
    services.settlement_record(
        sitting=sitting, user=owner, payer=players[1], payee=players[0], amount=1000
    )
    return client


def _url(model, suffix=""):
    return f"/admin/scoring/{model._meta.model_name}/{suffix}"


def _counts():
    return {model: model.objects.count() for model in MONEY}


@pytest.mark.parametrize("model", MONEY)
def test_the_admin_lists_money_rows_without_a_delete_action(admin_client, model):
    response = admin_client.get(_url(model))
    assert response.status_code == 200
    assert "delete_selected" not in response.content.decode()


@pytest.mark.parametrize("model", MONEY)
def test_the_admin_refuses_to_delete_a_money_row(admin_client, model):
    before = _counts()
    row = model.objects.first()
    assert admin_client.get(_url(model, f"{row.pk}/delete/")).status_code == 403
    assert admin_client.post(_url(model, f"{row.pk}/delete/"), {"post": "yes"}).status_code == 403
    admin_client.post(
        _url(model), {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}
    )
    assert _counts() == before
