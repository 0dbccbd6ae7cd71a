"""A void reason over the 200-character limit is refused with the limit, never cut or lost."""

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import STAKE, first_out, open_sitting, player, record, table_with

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
LONG = "x" * 201


@pytest.fixture
def game(owner):
    return record(open_sitting(owner), owner, first_out("An", Bình=1, Chi=2, Dũng=3))


def _void(client, game, reason, **kwargs):
    return client.post(f"/s/{game.sitting_id}/g/{game.number}/void/", {"reason": reason}, **kwargs)


def test_a_too_long_game_void_reason_names_the_limit(owner_client, game):
    response = _void(owner_client, game, LONG, follow=True)
    html = response.content.decode()
    assert "tối đa 200 ký tự (đang có 201)" in html
    assert "Hãy ghi lý do" not in html
    game.refresh_from_db()
    assert not game.is_void


def test_a_too_long_game_void_reason_names_the_limit_in_english(owner_client, game):
    owner_client.cookies["django_language"] = "en"
    html = _void(owner_client, game, LONG, follow=True).content.decode()
    assert "at most 200 characters (it has 201)" in html


def test_an_empty_game_void_reason_still_asks_for_one(owner_client, game):
    html = _void(owner_client, game, "", follow=True).content.decode()
    assert "Hãy ghi lý do huỷ ván." in html


def test_exactly_200_characters_is_accepted(owner_client, game):
    _void(owner_client, game, "y" * 200, headers=HX)
    game.refresh_from_db()
    assert game.is_void and game.void_reason == "y" * 200


def _settlement(owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "B"),
        payee=player(sitting, "A"),
        amount=4 * STAKE,
    )
    return sitting, settlement


@pytest.mark.parametrize("headers", [{}, HX])
def test_a_too_long_settlement_void_reason_is_refused_not_cut(owner_client, owner, headers):
    sitting, settlement = _settlement(owner)
    url = reverse("settlement_void", args=[sitting.pk, settlement.pk])
    response = owner_client.post(url, {"reason": LONG}, headers=headers)
    html = response.content.decode()
    # A refused form: the whole page answers 422; htmx only swaps 2xx, so its fragment is 200.
    assert response.status_code == (200 if headers else 422)
    assert "tối đa 200 ký tự (đang có 201)" in html
    assert ("<html" in html) is not bool(headers)
    settlement.refresh_from_db()
    assert not settlement.is_void
