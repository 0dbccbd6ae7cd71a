"""A player's own link: only for the group's scorekeepers to give, 404 the moment it is revoked
or replaced, showing that player and confirming only payments to that player; and "đã nhận"
from the scorekeeper's side (settle page, home page)."""

import datetime

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import Settlement
from scoring.templatetags.payqr import settlement_ref
from tests.factories import group_player, new_group, open_in_group, settle, won

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(owner):
    """A group whose sitting has An owing Bình, Chi owing Dũng, and An's payment to Bình and
    Chi's to Dũng recorded, neither confirmed."""
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"], day=timezone.localdate())
    won(sitting, owner, "Bình", {"An": 6})
    won(sitting, owner, "Dũng", {"Chi": 4})
    to_binh = settle(sitting, owner, "An", "Bình", 10000)
    to_dung = settle(sitting, owner, "Chi", "Dũng", 20000)
    return group, sitting, to_binh, to_dung


def _link(group, owner, name):
    player = group_player(group, name)
    token = services.player_link(player=player, user=owner, action="enable")
    return player, f"/p/{token}/"


def test_the_scorekeeper_turns_a_players_link_on_and_sees_it(owner_client, table):
    group, *_rest = table
    binh = group_player(group, "Bình")
    page = owner_client.get(f"/players/{binh.pk}/link/")
    assert page.status_code == 200 and "/p/" not in page.content.decode()
    owner_client.post(f"/players/{binh.pk}/link/", {"action": "enable"})
    binh.refresh_from_db()
    html = owner_client.get(f"/players/{binh.pk}/link/").content.decode()
    assert f"/p/{binh.link_token}/" in html
    assert "data-share-url=" in html and "<svg" in html  # the share sheet, and the QR code


def test_nobody_else_can_give_or_see_a_players_link(client, stranger_client, owner, table):
    group, *_rest = table
    binh = group_player(group, "Bình")
    assert stranger_client.get(f"/players/{binh.pk}/link/").status_code == 404
    assert (
        stranger_client.post(f"/players/{binh.pk}/link/", {"action": "enable"}).status_code == 404
    )
    assert client.get(f"/players/{binh.pk}/link/").status_code == 302  # to the log-in
    binh.refresh_from_db()
    assert binh.link_token is None


def test_the_link_shows_that_player_and_the_payments_to_them(client, owner, table):
    group, _sitting, to_binh, _to_dung = table
    _binh, url = _link(group, owner, "Bình")
    response = client.get(url)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert response["Referrer-Policy"] == "same-origin"  # never to another site
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert "Sổ của Bình" in html
    assert f'id="settlement-{to_binh.pk}"' in html
    assert settlement_ref(to_binh) in html
    assert "chờ xác nhận" in html
    # Chi's payment to Dũng is none of Bình's business; no link into the scorekeeper's pages.
    assert "20.000" not in html
    assert "/s/" not in html and "/groups/" not in html and "/players/" not in html


def test_the_payee_confirms_through_their_link_and_can_take_it_back(client, owner, table):
    group, _sitting, to_binh, _to_dung = table
    _binh, url = _link(group, owner, "Bình")
    response = client.post(f"{url}received/{to_binh.pk}/", {"action": "confirm"})
    assert response.status_code == 302
    assert response["Location"] == f"{url}#settlement-{to_binh.pk}"
    to_binh.refresh_from_db()
    assert to_binh.confirmed_at is not None and to_binh.confirmed_by_payee
    client.post(f"{url}received/{to_binh.pk}/", {"action": "confirm"})  # again: nothing new
    assert to_binh.history.filter(action="confirmed").count() == 1
    html = client.get(url).content.decode()
    assert "đã nhận" in html and "Đã nhận gần đây" in html
    client.post(f"{url}received/{to_binh.pk}/", {"action": "undo"})
    to_binh.refresh_from_db()
    assert Settlement.objects.awaiting().filter(pk=to_binh.pk).exists()


def test_a_link_confirms_nothing_but_payments_to_its_player(client, owner, table):
    group, _sitting, to_binh, to_dung = table
    _an, an_url = _link(group, owner, "An")
    _binh, binh_url = _link(group, owner, "Bình")
    # An paid that one, Bình did not receive Chi's: neither link may confirm it.
    assert client.post(f"{an_url}received/{to_binh.pk}/").status_code == 404
    assert client.post(f"{binh_url}received/{to_dung.pk}/").status_code == 404
    # Another group's payment to a player of the same name.
    other = new_group(owner, "Nhóm khác")
    there = open_in_group(other, owner, ["An", "Bình"])
    won(there, owner, "Bình", {"An": 3})
    elsewhere = settle(there, owner, "An", "Bình", 5000)
    assert client.post(f"{binh_url}received/{elsewhere.pk}/").status_code == 404
    assert client.post(f"{binh_url}received/999999999999999999/").status_code == 404
    assert not Settlement.objects.filter(confirmed_at__isnull=False).exists()


def test_a_revoked_or_replaced_link_is_gone_at_once(client, owner, table):
    group, _sitting, to_binh, _to_dung = table
    binh, old = _link(group, owner, "Bình")
    new = f"/p/{services.player_link(player=binh, user=owner, action='regenerate')}/"
    replaced = client.get(old)
    assert replaced.status_code == 410 and "thay bằng liên kết mới" in replaced.content.decode()
    assert client.post(f"{old}received/{to_binh.pk}/").status_code == 410
    assert client.get(new).status_code == 200
    services.player_link(player=binh, user=owner, action="revoke")
    revoked = client.get(new)
    assert revoked.status_code == 410
    assert "đã tắt liên kết riêng của Bình" in revoked.content.decode()
    assert client.post(f"{new}received/{to_binh.pk}/").status_code == 410
    assert client.get("/p/" + "A" * 43 + "/").status_code == 404
    to_binh.refresh_from_db()
    assert Settlement.objects.awaiting().filter(pk=to_binh.pk).exists()


def test_a_merged_players_link_is_gone(client, owner, table):
    group, *_rest = table
    sitting = open_in_group(group, owner, ["Bé Bình", "Chi"], day=datetime.date(2026, 1, 5))
    won(sitting, owner, "Chi", {"Bé Bình": 1})
    _dup, url = _link(group, owner, "Bé Bình")
    keep, duplicate = group_player(group, "Bình"), group_player(group, "Bé Bình")
    services.group_player_merge(group=group, user=owner, keep=keep, duplicate=duplicate)
    response = client.get(url)
    assert response.status_code == 410 and "đã được gộp" in response.content.decode()


def test_a_scorekeeper_confirms_on_the_settle_page(owner_client, stranger_client, table):
    _group, sitting, to_binh, _to_dung = table
    page = owner_client.get(f"/s/{sitting.pk}/settle/").content.decode()
    assert "chờ xác nhận" in page and f"/settlements/{to_binh.pk}/received/" in page
    assert stranger_client.post(f"/settlements/{to_binh.pk}/received/").status_code == 404
    response = owner_client.post(f"/settlements/{to_binh.pk}/received/", {"action": "confirm"})
    assert response["Location"] == f"/s/{sitting.pk}/settle/#settlement-{to_binh.pk}"
    to_binh.refresh_from_db()
    assert to_binh.confirmed_at is not None and not to_binh.confirmed_by_payee


def test_a_voided_payment_is_refused_with_a_message(owner_client, owner, table):
    _group, _sitting, to_binh, _to_dung = table
    services.settlement_void(settlement=to_binh, user=owner, reason="")
    response = owner_client.post(
        f"/settlements/{to_binh.pk}/received/", {"action": "confirm"}, follow=True
    )
    assert response.status_code == 200
    assert "đã bị huỷ nên không xác nhận được" in response.content.decode()
    to_binh.refresh_from_db()
    assert to_binh.confirmed_at is None


def test_the_home_page_says_what_needs_me(owner_client, table):
    _group, sitting, to_binh, to_dung = table
    html = owner_client.get("/").content.decode()
    assert "Tối nay" in html and f"/s/{sitting.pk}/settle/" in html
    assert "Chờ xác nhận đã nhận" in html
    assert f"/settlements/{to_binh.pk}/received/" in html
    assert "Còn nợ trong nhóm" in html and "Nhóm Tết" in html
    response = owner_client.post(
        f"/settlements/{to_dung.pk}/received/", {"action": "confirm", "next": "/"}
    )
    assert response["Location"] == "/"
    evil = owner_client.post(
        f"/settlements/{to_binh.pk}/received/", {"action": "confirm", "next": "https://evil.test/"}
    )
    assert evil["Location"].startswith(f"/s/{sitting.pk}/settle/")


def test_the_home_page_of_a_stranger_shows_none_of_it(stranger_client, table):
    html = stranger_client.get("/").content.decode()
    assert "Chờ xác nhận đã nhận" not in html and "Nhóm Tết" not in html


def test_the_player_page_answers_in_english(client, owner, table):
    group, *_rest = table
    _binh, url = _link(group, owner, "Bình")
    client.cookies["django_language"] = "en"
    html = client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert "waiting for confirmation" in html


def test_the_link_shows_what_its_player_owes_with_vietqr_codes(client, owner, table):
    group, *_rest = table
    # An paid Bình 10 000 for 6 000 of games: Bình now owes An 4 000 (and Dũng owes Chi).
    for name in ("An", "Chi"):
        services.player_set_bank(
            player=group_player(group, name), bank_bin="970436", account="0123456789", holder=name
        )
    _binh, url = _link(group, owner, "Bình")
    html = client.get(url).content.decode()
    assert html.count("data-vietqr=") == 1  # Bình pays An; nobody else's transfers
    assert "4.000" in html
    assert 'class="ref">TL' in html
