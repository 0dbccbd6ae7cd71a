"""One phone per player link (two tables of one group the same night, each with its code):
a name whose link one phone holds is refused to every other phone, and the scorekeeper sees the
ask; the phone that holds it takes the same name at the other table and keeps its one link;
freeing the name frees it everywhere, so the right phone's rescan works at once; one phone
takes one name per table, and a client that keeps no cookies takes none."""

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import JoinClaim, JoinRefusal, Player
from scoring.views.links import MY_LINKS, PHONE
from tests.factories import group_player, new_group, open_in_group

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tables(owner):
    group = new_group(owner, "Nhóm Tết")
    today = timezone.localdate()
    forty = open_in_group(group, owner, ["An", "Bình", "Chi"], day=today)
    forty_one = open_in_group(group, owner, ["An", "Dũng", "Chi"], day=today)
    codes = {}
    for sitting in (forty, forty_one):
        code = services.join_code(sitting=sitting, user=owner, action="enable")
        assert code is not None
        codes[sitting.pk] = code.token
    return group, forty, forty_one, codes


def _tap(phone, token, player):
    phone.get(f"/j/{token}/")
    return phone.post(f"/j/{token}/", {"player": str(player.pk)})


def _link_of(player) -> str | None:
    return Player.objects.get(pk=player.pk).link_token


def test_a_second_phone_never_gets_the_link_another_phone_holds(owner_client, two_tables):
    group, forty, forty_one, codes = two_tables
    an = group_player(group, "An")
    phone_a, phone_b = Client(), Client()
    taken = _tap(phone_a, codes[forty_one.pk], an)
    assert taken.status_code == 302
    link = taken["Location"]
    assert link == f"/p/{_link_of(an)}/"

    refused = _tap(phone_b, codes[forty.pk], an)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "đã có người chọn trên một máy khác" in html and "người ghi sổ" in html
    assert link not in html and MY_LINKS not in refused.cookies
    assert JoinClaim.objects.filter(player=an).count() == 1 and _link_of(an) == link[3:-1]
    # The join page already shows the name as taken at the other table.
    join_page = phone_b.get(f"/j/{codes[forty.pk]}/").content.decode()
    assert f'aria-describedby="taken-{an.pk}"' in join_page

    # The scorekeeper of table 40 sees that a phone asked for An, with the button to free it.
    _tap(phone_b, codes[forty.pk], an)
    asked = JoinRefusal.objects.get(sitting=forty, player=an)
    assert asked.times == 2
    page = owner_client.get(f"/s/{forty.pk}/join/?part=joined").content.decode()
    notice = page[page.index(f'id="asked-{an.pk}"') :]
    assert "Một máy khác đã xin tên An" in notice and "(2 lần)" in notice
    assert f"/s/{forty.pk}/join/{an.pk}/reset/" in page
    assert forty_one.name in page  # where An's phone took the name
    other = owner_client.get(f"/s/{forty_one.pk}/join/").content.decode()
    assert f'id="asked-{an.pk}"' not in other


def test_the_phone_holding_the_link_takes_the_name_at_the_other_table_too(two_tables):
    group, forty, forty_one, codes = two_tables
    an = group_player(group, "An")
    phone_a = Client()
    link = _tap(phone_a, codes[forty_one.pk], an)["Location"]
    # With the link in its cookie the code of table 40 opens An's page at once.
    assert phone_a.get(f"/j/{codes[forty.pk]}/")["Location"] == link
    # Even with that cookie gone (only the phone's own cookie left), it is the same phone:
    # the same one link, a claim at table 40 too.
    del phone_a.cookies[MY_LINKS]
    again = _tap(phone_a, codes[forty.pk], an)
    assert again.status_code == 302 and again["Location"] == link
    assert set(JoinClaim.objects.filter(player=an).values_list("sitting_id", flat=True)) == {
        forty.pk,
        forty_one.pk,
    }


def test_freeing_the_name_at_one_table_frees_it_everywhere(owner, two_tables):
    group, forty, forty_one, codes = two_tables
    an = group_player(group, "An")
    phone_a, phone_b = Client(), Client()
    old = _tap(phone_a, codes[forty_one.pk], an)["Location"]
    assert _tap(phone_b, codes[forty.pk], an).status_code == 409

    # Table 40's scorekeeper frees An (taken through table 41's code): the link stops, the
    # name is free at both tables, and the refused ask is gone with it.
    assert services.join_reset(sitting=forty, player=an, user=owner)
    assert phone_a.get(old).status_code == 410
    assert not JoinClaim.objects.filter(player=an).exists()
    assert not JoinRefusal.objects.exists()

    # Phone A's rescan of 41 works at once and gets a new link; then phone B is refused again.
    rescan = _tap(phone_a, codes[forty_one.pk], an)
    assert rescan.status_code == 302 and rescan["Location"] not in (old,)
    assert phone_a.get(rescan["Location"]).status_code == 200
    assert _tap(phone_b, codes[forty.pk], an).status_code == 409
    assert phone_a.get(rescan["Location"]).status_code == 200


def test_freeing_at_the_table_where_the_phone_took_it_lets_phone_b_in(owner, two_tables):
    group, forty, forty_one, codes = two_tables
    an = group_player(group, "An")
    phone_a, phone_b = Client(), Client()
    old = _tap(phone_a, codes[forty_one.pk], an)["Location"]
    _tap(phone_b, codes[forty.pk], an)
    services.join_reset(sitting=forty_one, player=an, user=owner)
    new = _tap(phone_b, codes[forty.pk], an)
    assert new.status_code == 302 and new["Location"] != old
    assert phone_a.get(old).status_code == 410
    # Now phone A is the other phone: refused at either table.
    assert _tap(phone_a, codes[forty_one.pk], an).status_code == 409
    assert phone_b.get(new["Location"]).status_code == 200


def test_one_phone_takes_one_name_per_table(two_tables):
    group, forty, _forty_one, codes = two_tables
    phone = Client()
    first = _tap(phone, codes[forty.pk], group_player(group, "Bình"))
    assert first.status_code == 302
    # Even without the link cookie, the same phone cannot take a second name here.
    del phone.cookies[MY_LINKS]
    second = _tap(phone, codes[forty.pk], group_player(group, "Chi"))
    assert second.status_code == 409
    assert "mỗi máy chọn một tên" in second.content.decode()
    assert _link_of(group_player(group, "Chi")) is None


def test_a_client_that_keeps_no_cookies_takes_no_name(two_tables):
    group, forty, _forty_one, codes = two_tables
    token = codes[forty.pk]
    for name in ("An", "Bình", "Chi"):
        player = group_player(group, name)
        response = Client().post(f"/j/{token}/", {"player": str(player.pk)})
        assert response.status_code == 400
        assert "cookie" in response.content.decode()
        assert PHONE in response.cookies  # the next request may carry it
    bogus = Client()
    bogus.cookies[PHONE] = "short"
    an = group_player(group, "An")
    assert bogus.post(f"/j/{token}/", {"player": str(an.pk)}).status_code == 400
    assert not JoinClaim.objects.exists()
    assert not Player.objects.filter(group=group, link_token__isnull=False).exists()


def test_the_phone_cookie_is_given_once_and_kept_private(two_tables):
    _group, forty, _forty_one, codes = two_tables
    phone = Client()
    first = phone.get(f"/j/{codes[forty.pk]}/")
    cookie = first.cookies[PHONE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and len(cookie.value) == 43
    assert PHONE not in phone.get(f"/j/{codes[forty.pk]}/").cookies
