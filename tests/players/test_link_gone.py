"""A player's link or a join code that no longer opens says what happened and what to do: 410
with the site's page (also under DEBUG, never Django's debug 404), in the reader's language;
an address never handed out is a 404 with the same page."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import JoinCode, RetiredLink
from scoring.views.links import MY_LINKS
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(owner):
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"], day=timezone.localdate())
    won(sitting, owner, "Bình", {"An": 6})
    return group, sitting


def _code(owner, sitting) -> str:
    code = services.join_code(sitting=sitting, user=owner, action="enable")
    assert code is not None
    return code.token


def _join(phone, token, player) -> str:
    phone.get(f"/j/{token}/")
    response = phone.post(f"/j/{token}/", {"player": str(player.pk)})
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def _gone(response) -> str:
    html = response.content.decode()
    assert 'id="link-gone"' in html and "<main" in html  # the site's look
    assert "URLconf" not in html and "Traceback" not in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    return html


@pytest.mark.parametrize("debug", [False, True])
def test_a_freed_name_s_link_says_what_happened_in_both_languages(owner, table, settings, debug):
    settings.DEBUG = debug
    group, sitting = table
    token = _code(owner, sitting)
    phone = Client()
    link = _join(phone, token, group_player(group, "Chi"))
    services.join_reset(sitting=sitting, player=group_player(group, "Chi"), user=owner)
    response = phone.get(link)
    assert response.status_code == 410
    html = _gone(response)
    assert "Người ghi sổ đã gỡ tên Chi" in html and "Quét lại mã QR" in html
    phone.cookies["django_language"] = "en"
    response = phone.get(link)
    assert response.status_code == 410
    html = _gone(response)
    assert 'lang="en"' in html
    assert "The scorekeeper freed the name Chi" in html and "scan" in html.lower()
    # The token itself is kept nowhere, only its hash.
    retired = RetiredLink.objects.get()
    assert retired.reason == "freed" and retired.sitting_id == sitting.pk
    assert link.split("/")[2] not in retired.token_hash


def test_the_poll_of_a_freed_link_is_a_410_too(owner, table):
    group, sitting = table
    token = _code(owner, sitting)
    phone = Client()
    link = _join(phone, token, group_player(group, "An"))
    services.join_reset(sitting=sitting, player=group_player(group, "An"), user=owner)
    assert phone.get(link, headers={"HX-Request": "true"}).status_code == 410
    assert phone.post(f"{link}received/1/").status_code == 410


def test_turned_off_and_replaced_links_say_so(owner, table):
    group, _sitting = table
    binh = group_player(group, "Bình")
    first = services.player_link(player=binh, user=owner, action="enable")
    second = services.player_link(player=binh, user=owner, action="regenerate")
    html = _gone(Client().get(f"/p/{first}/"))
    assert "đã được thay bằng liên kết mới" in html
    services.player_link(player=binh, user=owner, action="revoke")
    response = Client().get(f"/p/{second}/")
    assert response.status_code == 410
    assert "Người ghi sổ đã tắt liên kết riêng của Bình" in _gone(response)
    assert set(RetiredLink.objects.values_list("reason", flat=True)) == {"replaced", "revoked"}


def test_an_address_never_handed_out_is_a_404_that_still_says_what_to_do(settings):
    settings.DEBUG = True
    for url in ("/p/" + "A" * 43 + "/", "/j/" + "B" * 43 + "/"):
        response = Client().get(url)
        assert response.status_code == 404
        assert "Quét" in _gone(response)


def test_a_join_code_replaced_turned_off_expired_or_closed_says_which(owner, table, monkeypatch):
    group, sitting = table
    first = _code(owner, sitting)
    services.join_code(sitting=sitting, user=owner, action="regenerate")
    response = Client().get(f"/j/{first}/")
    assert response.status_code == 410
    assert "đã được thay bằng mã mới" in _gone(response)
    second = services.open_code(sitting)
    assert second is not None
    services.join_code(sitting=sitting, user=owner, action="revoke")
    assert "Người ghi sổ đã tắt mã mời" in _gone(Client().get(f"/j/{second.token}/"))
    english = Client()
    english.cookies["django_language"] = "en"
    assert "The scorekeeper turned off the invitation code" in _gone(
        english.get(f"/j/{second.token}/")
    )

    third = _code(owner, sitting)
    expires = JoinCode.objects.get(token=third).expires_at
    later = expires + datetime.timedelta(minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    response = Client().get(f"/j/{third}/")
    assert response.status_code == 410
    assert "đã hết hạn lúc 06:00" in _gone(response)
    monkeypatch.undo()

    services.period_close(group=group, user=owner, through=sitting.date)
    assert "đã chốt sổ" in _gone(Client().get(f"/j/{third}/"))


def test_a_dead_code_offers_the_phone_its_own_page(owner, table):
    group, sitting = table
    token = _code(owner, sitting)
    phone = Client()
    link = _join(phone, token, group_player(group, "An"))
    assert MY_LINKS in phone.cookies
    services.join_code(sitting=sitting, user=owner, action="revoke")
    html = _gone(phone.get(f"/j/{token}/"))
    assert f'href="{link}"' in html and "Mở trang riêng của An" in html
