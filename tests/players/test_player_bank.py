"""A player's bank account: chosen from the VietQR bank list, checked by VietQR's rules."""

import pytest
from django.test import Client

from scoring import services
from scoring.models import Player, Sitting
from scoring.services import InvalidInput

pytestmark = pytest.mark.django_db


@pytest.fixture
def an(owner, night):
    return Player.objects.get(owner=owner, name="An")


def _url(player):
    return f"/players/{player.pk}/bank/"


def test_it_stores_an_account_the_way_banks_print_it(an):
    services.player_set_bank(
        player=an, bank_bin="970407", account=" 1903 6655 4420 19 ", holder="Nguyễn Thị Ân"
    )
    an.refresh_from_db()
    assert (an.bank_bin, an.bank_account, an.bank_holder) == (
        "970407",
        "19036655442019",
        "NGUYEN THI AN",
    )


@pytest.mark.parametrize(
    ("bank_bin", "account", "holder", "field"),
    [
        ("123456", "0123456789", "AN", "bank_bin"),  # not a VietQR bank
        ("", "0123456789", "AN", "bank_bin"),
        ("970436", "0123-456-789", "AN", "account"),
        ("970436", "01234567890123456789", "AN", "account"),  # 20 > 19 characters
        ("970436", "", "AN", "account"),
        ("970436", "0123456789", "", "holder"),
        ("970436", "0123456789", "AN 3", "holder"),
    ],
)
def test_it_refuses_what_vietqr_cannot_carry(an, bank_bin, account, holder, field):
    with pytest.raises(InvalidInput) as error:
        services.player_set_bank(player=an, bank_bin=bank_bin, account=account, holder=holder)
    assert error.value.field == field
    an.refresh_from_db()
    assert an.bank_account == ""


def test_it_removes_the_account_when_everything_is_blank(an):
    services.player_set_bank(player=an, bank_bin="970436", account="1", holder="AN")
    services.player_set_bank(player=an, bank_bin="", account="", holder="")
    an.refresh_from_db()
    assert (an.bank_bin, an.bank_account, an.bank_holder) == ("", "", "")


def test_it_tells_the_players_live_pages(an, night):
    first, second = night
    versions = {s.pk: Sitting.objects.get(pk=s.pk).version for s in night}
    services.player_set_bank(player=an, bank_bin="970436", account="1", holder="AN")
    for sitting in (first, second):
        assert Sitting.objects.get(pk=sitting.pk).version > versions[sitting.pk]


# --- The page -------------------------------------------------------------------------------


def test_it_offers_every_vietqr_bank(owner_client, an):
    html = owner_client.get(_url(an)).content.decode()
    assert '<option value="970436">Vietcombank — Ngân hàng TMCP Ngoại thương Việt Nam' in html
    assert '<option value="963388">Timo' in html


def test_it_renders_the_form_alone_for_htmx(owner_client, an):
    html = owner_client.get(_url(an), headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<section id="bank"') and "<html" not in html


def test_it_saves_from_the_page(owner_client, an):
    data = {"bank_bin": "970422", "account": "0011 2233", "holder": "Trần An"}
    response = owner_client.post(_url(an), data)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/players/{an.pk}/"
    an.refresh_from_db()
    assert (an.bank_account, an.bank_holder) == ("00112233", "TRAN AN")
    html = owner_client.get(f"/players/{an.pk}/").content.decode()
    assert "MB</strong> · 00112233 · TRAN AN" in html


def test_it_shows_the_problem_beside_the_field(owner_client, an):
    response = owner_client.post(
        _url(an), {"bank_bin": "970422", "account": "00-11", "holder": "AN"}
    )
    assert response.status_code == 422
    assert "1 đến 19 chữ số" in response.content.decode()


def test_it_refuses_a_bank_outside_the_list(owner_client, an):
    response = owner_client.post(_url(an), {"bank_bin": "999999", "account": "1", "holder": "AN"})
    assert response.status_code == 422
    an.refresh_from_db()
    assert an.bank_bin == ""


def test_it_needs_the_csrf_token(owner, an):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(owner)
    response = csrf_client.post(_url(an), {"bank_bin": "970422", "account": "1", "holder": "A"})
    assert response.status_code == 403
