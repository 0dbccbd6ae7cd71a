"""Pay by QR on the live settle-up: the code holds the payee's account, the amount, a memo."""

import re

import pytest
from django.template.loader import render_to_string

from scoring import services
from scoring.ledger import Suggestion
from scoring.models import Player
from scoring.templatetags.payqr import transfer_memo, transfer_reference
from scoring.text import vietqr
from tests.factories import live_url

pytestmark = pytest.mark.django_db


def _give_binh_an_account(sitting):
    binh = Player.objects.get(owner=sitting.owner, name="Bình")
    services.player_set_bank(
        player=binh, bank_bin="970436", account="0123 4567 89", holder="Trần Văn Bình"
    )
    return binh


def test_it_shows_a_vietqr_code_for_each_payment_to_a_player_with_an_account(client, live_sitting):
    _give_binh_an_account(live_sitting)
    html = client.get(live_url(live_sitting)).content.decode()
    payloads = re.findall(r'data-vietqr="([^"]+)"', html)
    # dem-la worked example at 5 000 ₫: An 75 000, Chi 40 000, Dũng 130 000 to Bình.
    players = {p.name: p for p in Player.objects.filter(owner=live_sitting.owner)}
    refs = {
        name: transfer_reference(live_sitting, players[name].pk, players["Bình"].pk, amount)
        for name, amount in (("An", 75_000), ("Chi", 40_000), ("Dũng", 130_000))
    }
    expected = [
        vietqr.vietqr_payload("970436", "0123456789", 75_000, f"{refs['An']} Toi thu Bay An"),
        vietqr.vietqr_payload("970436", "0123456789", 40_000, f"{refs['Chi']} Toi thu Bay Chi"),
        vietqr.vietqr_payload("970436", "0123456789", 130_000, f"{refs['Dũng']} Toi thu Bay Dung"),
    ]
    assert payloads == expected
    for ref in refs.values():  # each shown beside its code, as the payee's bank will show it
        assert f'<strong class="ref">{ref}</strong>' in html
    assert len(set(refs.values())) == 3
    for payload in expected:
        svg = vietqr.qr_svg(payload, title="Mã VietQR chuyển tiền cho Bình")
        assert svg in html
    assert "Vietcombank · 0123456789 · TRAN VAN BINH" in html


def test_it_says_so_when_the_payee_has_no_account(client, live_sitting):
    html = client.get(live_url(live_sitting)).content.decode()
    assert "data-vietqr" not in html
    assert "Bình chưa lưu tài khoản ngân hàng" in html
    assert "/bank/" not in html  # no link into the scorekeeper's pages from the live page


def test_it_updates_the_live_page_when_an_account_is_saved(client, live_sitting):
    headers = {"HX-Request": "true"}
    etag = client.get(live_url(live_sitting), headers=headers).headers["ETag"]
    _give_binh_an_account(live_sitting)
    response = client.get(live_url(live_sitting), headers={**headers, "If-None-Match": etag})
    assert response.status_code == 200
    assert "data-vietqr" in response.content.decode()


def test_it_can_be_included_by_another_settle_up_page(live_sitting):
    binh = _give_binh_an_account(live_sitting)
    an = Player.objects.get(owner=live_sitting.owner, name="An")
    html = render_to_string(
        "scoring/_payqr.html",
        {"payment": Suggestion(an, binh, 75_000, []), "sitting": live_sitting},
    )
    ref = transfer_reference(live_sitting, an.pk, binh.pk, 75_000)
    expected = vietqr.vietqr_payload("970436", "0123456789", 75_000, f"{ref} Toi thu Bay An")
    assert f'data-vietqr="{expected}"' in html


@pytest.mark.parametrize(
    ("sitting", "payer", "memo"),
    [
        ("Tối thứ Bảy", "An", "TL Toi thu Bay An"),
        ("Bàn demo — tối thứ Bảy", "Dũng", "TL Ban demo toi thu Dung"),
        ("Sinh nhật anh Tư ở Đà Lạt 2025", "Nguyễn Thị Phương", "TL Sinh nhat Nguyen Thi"),
        ("!!!", "Ánh", "TL Anh"),
        ("Tết", "'; DROP", "TL Tet DROP"),
    ],
)
def test_it_writes_a_memo_banking_apps_accept(sitting, payer, memo):
    assert transfer_memo(sitting, payer) == memo
    assert len(memo) <= vietqr.MEMO_MAX_LENGTH
    assert vietqr.clean_memo(memo) == memo


def test_a_transfer_reference_is_short_stable_and_tells_transfers_apart(live_sitting):
    an, binh = (Player.objects.get(owner=live_sitting.owner, name=n) for n in ("An", "Bình"))
    ref = transfer_reference(live_sitting, an.pk, binh.pk, 75_000)
    assert re.fullmatch(r"TL[2-9A-HJ-NP-Z]{4}", ref)
    assert transfer_reference(live_sitting, an.pk, binh.pk, 75_000) == ref  # every reload
    others = {
        transfer_reference(live_sitting, an.pk, binh.pk, 75_001),
        transfer_reference(live_sitting, binh.pk, an.pk, 75_000),
        transfer_reference(live_sitting.group, an.pk, binh.pk, 75_000),
    }
    assert ref not in others and len(others) == 3


def test_the_memo_starts_with_the_reference_and_still_fits():
    memo = transfer_memo("Sinh nhật anh Tư ở Đà Lạt 2025", "Nguyễn Thị Phương", "TL7F3K")
    assert memo == "TL7F3K Sinh Nguyen Thi"  # the payer kept, the sitting cut
    assert len(memo) <= vietqr.MEMO_MAX_LENGTH
