"""A payment no VietQR code can carry: the live page shows it without a code and says why."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.utils import translation

from scoring import services
from scoring.engine.limits import MAX_AMOUNT
from scoring.models import Player
from scoring.templatetags.payqr import NoQR, pay_qr, payqr
from scoring.text import vietqr
from tests.factories import live_url

pytestmark = pytest.mark.django_db


def test_a_suggested_payment_above_thirteen_digits_shows_without_a_code(client, live_sitting):
    owner = live_sitting.owner
    an = Player.objects.get(owner=owner, name="An")
    binh = Player.objects.get(owner=owner, name="Bình")
    services.player_set_bank(
        player=binh, bank_bin="970436", account="0123456789", holder="Tran Van Binh"
    )
    # Bình hands An the largest amount twice: now An owes Bình about two of them, 14 digits.
    for _ in range(2):
        services.settlement_record(
            sitting=live_sitting, user=owner, payer=binh, payee=an, amount=MAX_AMOUNT
        )
    response = client.get(live_url(live_sitting))
    assert response.status_code == 200
    html = response.content.decode()
    assert "dài hơn 13 chữ số" in html
    assert "Vietcombank · 0123456789 · TRAN VAN BINH" in html
    # The other payments to Bình still get their codes.
    assert re.findall(r'data-vietqr="([^"]+)"', html)


def test_the_tag_gives_the_reason_in_the_users_language():
    payee = SimpleNamespace(
        bank_bin="970436", bank_account="0123456789", bank_holder="AN", name="An"
    )
    with translation.override("en"):
        qr = pay_qr(payee, 10**13, "TL")
    assert isinstance(qr, NoQR)
    assert "13 digits" in qr.reason and qr.account == "0123456789"
    largest = pay_qr(payee, MAX_AMOUNT, "TL")
    assert largest is not None and not isinstance(largest, NoQR)
    assert vietqr.vietqr_payload("970436", "0123456789", MAX_AMOUNT, "TL") == largest.payload


def test_a_memo_that_cannot_be_made_does_not_stop_the_code():
    payee = SimpleNamespace(bank_bin="970436", bank_account="0123456789", bank_holder="", name="B")
    payer = SimpleNamespace(name="\u202e")
    sitting = SimpleNamespace(name="")
    qr = payqr(SimpleNamespace(payee=payee, payer=payer, amount=1000), sitting)
    assert qr is not None and qr.payload
