"""Numbers typed on the settle-up page: one parser, one limit, a message instead of a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine.limits import MAX_AMOUNT
from scoring.models import Settlement
from tests.factories import STAKE, open_sitting, owe, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def sitting(owner):
    table = open_sitting(owner, players=["An", "Bình", "Chi"], stake=STAKE)
    owe(table, owner, "Bình", "An", 5)
    return table


def post(client, sitting, amount, **extra):
    sitting.refresh_from_db()
    data = {
        "payer": player(sitting, "Bình").pk,
        "payee": player(sitting, "An").pk,
        "amount": amount,
        "version": sitting.version,
        **extra,
    }
    return client.post(reverse("settlement_new", args=[sitting.pk]), data)


@pytest.mark.parametrize("amount", ["²", "①", "1²", "١٢"])
def test_it_refuses_digits_that_are_not_0_to_9_and_names_them(owner_client, sitting, amount):
    response = post(owner_client, sitting, amount)
    assert response.status_code == 422
    assert "0–9" in response.content.decode()
    assert Settlement.objects.count() == 0


@pytest.mark.parametrize("amount", ["１０００", "１ｋ"])
def test_it_reads_full_width_digits_as_the_digits_they_are(owner_client, sitting, amount):
    response = post(owner_client, sitting, amount)
    assert response.status_code == 302
    assert Settlement.objects.get().amount == 1000


@pytest.mark.parametrize("amount", ["9" * 40, "999999999999999k", str(MAX_AMOUNT + 1)])
def test_it_refuses_an_amount_above_the_limit_and_says_it(owner_client, sitting, amount):
    response = post(owner_client, sitting, amount)
    assert response.status_code == 422
    assert "9.999.999.999.999" in response.content.decode()
    assert Settlement.objects.count() == 0


def test_the_largest_amount_is_recorded(owner_client, sitting):
    assert post(owner_client, sitting, "9.999.999.999.999").status_code == 302
    assert Settlement.objects.get().amount == MAX_AMOUNT


@pytest.mark.parametrize("version", ["²", "9" * 40, "1e309"])
def test_a_mangled_version_is_a_form_error(owner_client, sitting, version):
    sitting.refresh_from_db()
    data = {
        "payer": player(sitting, "Bình").pk,
        "payee": player(sitting, "An").pk,
        "amount": "1000",
        "version": version,
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 422
    assert Settlement.objects.count() == 0


@pytest.mark.parametrize("banker", ["²", "①", "9" * 40, "-1", "１"])
def test_any_banker_in_the_query_string_is_answered(owner_client, sitting, banker):
    url = reverse("sitting_settle", args=[sitting.pk])
    for headers in ({}, {"HX-Request": "true"}):
        response = owner_client.get(url, {"method": "banker", "banker": banker}, headers=headers)
        assert response.status_code == 200


def test_the_service_itself_refuses_an_amount_above_the_limit(owner, sitting):
    with pytest.raises(services.LedgerError) as error:
        services.settlement_record(
            sitting=sitting,
            user=owner,
            payer=player(sitting, "Bình"),
            payee=player(sitting, "An"),
            amount=MAX_AMOUNT + 1,
        )
    assert "9.999.999.999.999" in error.value.message


def test_a_void_reason_with_a_hidden_character_is_refused_not_dropped(owner_client, sitting, owner):
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "Bình"),
        payee=player(sitting, "An"),
        amount=1000,
    )
    url = reverse("settlement_void", args=[sitting.pk, settlement.pk])
    response = owner_client.post(url, {"reason": "nhầm\u202e"})
    assert response.status_code == 422
    assert "U+202E" in response.content.decode()
    settlement.refresh_from_db()
    assert not settlement.is_void
