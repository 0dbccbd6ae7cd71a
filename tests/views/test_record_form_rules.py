"""The record form follows the sitting's rule set: who may đền, which chops are offered, and
whether a tới trắng asks for the dealt hands."""

import re
import uuid
from dataclasses import replace

import pytest

from scoring import engine
from scoring.models import Game
from tests.factories import open_sitting
from tests.views.test_sitting_page import _form

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
FOUR = ["An", "Bình", "Chi", "Dũng"]


def _sitting(owner, preset="dem-la", **choices):
    sitting = open_sitting(owner, preset=preset, stake=2000)
    if choices:
        from scoring.models import Sitting

        rules = replace(engine.PRESETS[preset], id="custom", name="Luật nhà", **choices)
        Sitting.objects.filter(pk=sitting.pk).update(rules=engine.ruleset_to_dict(rules))
    return sitting


def _den_options(html):
    if 'name="den"' not in html:
        return None
    options = html.split('name="den"')[1].split("</select>")[0]
    return [name for name in FOUR if f'value="{name}"' in options]


def _three_cong(**extra):
    """cuoc: An first, Bình Chi Dũng cóng, Chi holds 2♥ (the worked example of đền)."""
    data = {
        "played": FOUR,
        "place_1": "An",
        "place_2": "Bình",
        "place_3": "Chi",
        "place_4": "Dũng",
        "cong_1": "on",
        "cong_2": "on",
        "cong_3": "on",
        "cards_1": "13",
        "cards_2": "13",
        "cards_3": "13",
        "heo_2": ["2H"],
        "action": "preview",
        "token": str(uuid.uuid4()),
    }
    data.update(extra)
    return data


def test_it_offers_every_cong_loser_for_den_and_saves_the_right_money(owner_client, owner):
    sitting = _sitting(owner, "cuoc")
    url = f"/s/{sitting.pk}/games/"
    html = owner_client.post(url, _three_cong(), headers=HX).content.decode()
    assert _den_options(html) == ["Bình", "Chi", "Dũng"]
    assert "Bình (cóng)" in html
    response = owner_client.post(url, _three_cong(action="save", den="Bình"), headers=HX)
    assert response.status_code == 200
    game = Game.objects.get()
    assert game.record["den"] == "Bình"
    nets = {s.player.name: s.net for s in game.seats.select_related("player")}
    assert nets == {"An": 14000, "Bình": -14000, "Chi": 0, "Dũng": 0}


def test_all_cong_offers_den_only_when_every_loser_is_cong(owner_client, owner):
    sitting = _sitting(owner, "cuoc", den_when="all_cong")
    url = f"/s/{sitting.pk}/games/"
    assert _den_options(owner_client.post(url, _three_cong(), headers=HX).content.decode()) == [
        "Bình",
        "Chi",
        "Dũng",
    ]
    one_cong = _three_cong(cong_1="", cong_2="", cards_1="0", cards_2="4")
    html = owner_client.post(url, one_cong, headers=HX).content.decode()
    assert _den_options(html) is None


def test_always_offers_den_without_cong_and_never_offers_none(owner_client, owner):
    no_cong = _form("Bình", {0: 5, 2: 8, 3: 3}, action="preview")
    always = _sitting(owner, den_when="always")
    html = owner_client.post(f"/s/{always.pk}/games/", no_cong, headers=HX).content.decode()
    assert _den_options(html) == ["An", "Chi", "Dũng"]
    owner_client.post(f"/s/{always.pk}/games/", {**no_cong, "action": "save", "den": "Chi"})
    nets = {s.player.name: s.net for s in Game.objects.get().seats.select_related("player")}
    assert nets == {"An": 0, "Bình": 32000, "Chi": -32000, "Dũng": 0}  # 16 lá at 2 000
    never = _sitting(owner, den_when="never")
    cong = _form("Bình", {0: 5, 2: 8, 3: 13}, action="preview", den="Chi")
    html = owner_client.post(f"/s/{never.pk}/games/", cong, headers=HX).content.decode()
    assert _den_options(html) is None and "đền thay" not in html


def test_a_den_that_no_longer_applies_is_dropped_from_the_form(owner_client, owner):
    sitting = _sitting(owner, den_when="any_cong")
    data = _form("Bình", {0: 5, 2: 8, 3: 12}, action="preview", den="Chi")  # nobody cóng
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    assert _den_options(html) is None and "đền thay" not in html and "Xem trước" in html


def _chain(owner_client, sitting, victim):
    """What the first step offers to be chopped (the 2s as chips, then the hàng) and the chops
    then offered. A 2 is chopped by ticking it: one is a heo, two a đôi heo."""
    cards = {"heo": ["2S"], "doi_heo": ["2S", "2C"]}.get(victim)
    chopped = {"chat_0_0_cards": cards} if cards else {"chat_0_0_play": victim}
    data = _form(
        "Bình",
        {0: 5, 2: 8, 3: 3},
        action="preview",
        chains="1",
        chat_0_steps="2",
        chat_0_0_player="An",
        **chopped,
    )
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    victims = re.findall(r'name="chat_0_0_play" value="(\w+)"', html)
    if 'name="chat_0_0_cards"' in html:
        victims = ["2s", *victims]
    return victims, re.findall(r'name="chat_0_1_play" value="(\w+)"', html), html


def test_the_chop_choices_follow_the_sittings_chop_table(owner_client, owner):
    assert _chain(owner_client, _sitting(owner), "doi_heo")[:2] == (
        ["2s", "3dt", "tq", "4dt"],
        ["tq", "4dt"],
    )
    strict = _sitting(
        owner,
        chops=(("3dt", ("heo", "3dt")), ("tq", ("heo", "3dt", "tq")), ("4dt", ("heo", "4dt"))),
    )
    assert _chain(owner_client, strict, "heo")[:2] == (
        ["2s", "3dt", "tq", "4dt"],
        ["3dt", "tq", "4dt"],
    )
    assert _chain(owner_client, strict, "tq")[1] == ["tq"]
    # Nothing chops a đôi heo at this table: two 2s ticked say so, and no chop is offered.
    _victims, chops, html = _chain(owner_client, strict, "doi_heo")
    assert chops == []
    assert "Lần chặt 1: luật của bàn này không cho chặt đôi heo." in html


def test_toi_trang_asks_for_dealt_hands_only_for_a_hand_that_counts_thoi(owner_client, owner):
    sitting = _sitting(owner, "cuoc", toi_trang_counts_thoi=("6_doi_thong",))
    url = f"/s/{sitting.pk}/games/"

    def post(hand):
        data = _form("", {}, action="preview", toi_trang_player="Chi", toi_trang_hand=hand)
        return owner_client.post(url, data, headers=HX).content.decode()

    assert 'name="heo_0"' in post("6_doi_thong")
    assert 'name="heo_0"' not in post("6_doi")


def test_the_default_offers_no_den_with_one_cong(owner_client, owner):
    # "Cóng 2 nhà … không xét đền": one cóng of three losers is no đền under any preset.
    sitting = _sitting(owner)
    one_cong = _form("Bình", {0: 5, 2: 8, 3: 13}, action="preview")
    html = owner_client.post(f"/s/{sitting.pk}/games/", one_cong, headers=HX).content.decode()
    assert _den_options(html) is None
    house = _sitting(owner, den_when="any_cong")
    html = owner_client.post(f"/s/{house.pk}/games/", one_cong, headers=HX).content.decode()
    assert _den_options(html) == ["An", "Chi", "Dũng"]


def _nets():
    return {s.player.name: s.net for s in Game.objects.get().seats.select_related("player")}


def test_it_records_a_run_of_five_pairs(owner_client, owner):
    sitting = _sitting(owner, "dem-la-26")
    data = _form("Bình", {0: 10, 2: 3, 3: 2}, **{"5dt_0": "1"})
    response = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    assert response.status_code == 200
    assert Game.objects.get().record["hands"]["An"]["5dt"] == 1
    assert _nets() == {"An": -24000, "Bình": 34000, "Chi": -6000, "Dũng": -4000}  # 12 cược


def test_it_refuses_two_runs_of_five_pairs(owner_client, owner):
    sitting = _sitting(owner, "dem-la-26")
    data = _form("Bình", {0: 13, 2: 3, 3: 2}, **{"5dt_0": "2"})
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    assert 'id="err-5dt_0"' in html and not Game.objects.exists()


def test_it_asks_who_went_out_on_a_2_only_when_the_rules_send_them_to_bet(owner_client, owner):
    plain = _sitting(owner, "nhat-nhi-ba-bet")
    places = {"played": FOUR, "place_1": "An", "place_2": "Bình", "place_3": "Chi",
              "place_4": "Dũng", "cards_2": "3", "action": "preview"}  # fmt: skip
    html = owner_client.post(f"/s/{plain.pk}/games/", places, headers=HX).content.decode()
    assert 'name="two_out"' not in html
    bet = _sitting(owner, "nhat-nhi-ba-bet", two_out="bet")
    html = owner_client.post(f"/s/{bet.pk}/games/", places, headers=HX).content.decode()
    options = html.split('name="two_out"')[1].split("</select>")[0]
    assert [n for n in FOUR if f'value="{n}"' in options] == ["Bình", "Chi", "Dũng"]
    save = {**places, "two_out": "Dũng", "action": "save", "token": str(uuid.uuid4())}
    assert owner_client.post(f"/s/{bet.pk}/games/", save, headers=HX).status_code == 200
    assert Game.objects.get().record["two_out"] == "Dũng"
    assert _nets() == {"An": 6000, "Bình": 2000, "Chi": -2000, "Dũng": -6000}


def test_going_out_on_a_2_before_last_place_is_refused_with_a_message(owner_client, owner):
    bet = _sitting(owner, "nhat-nhi-ba-bet", two_out="bet")
    data = {"played": FOUR, "place_1": "An", "place_2": "Bình", "place_3": "Chi",
            "place_4": "Dũng", "cards_3": "3", "two_out": "Bình", "action": "save",
            "token": str(uuid.uuid4())}  # fmt: skip
    html = owner_client.post(f"/s/{bet.pk}/games/", data, headers=HX).content.decode()
    assert 'id="err-two_out"' in html and "về bét" in html
    assert not Game.objects.exists()


def test_going_out_on_a_2_in_dem_la_is_paid_as_the_rules_say(owner_client, owner):
    bet = _sitting(owner, "dem-la", two_out="bet", two_out_cards=13)
    data = _form("Bình", {2: 8, 3: 4}, two_out="An")
    assert owner_client.post(f"/s/{bet.pk}/games/", data, headers=HX).status_code == 200
    assert _nets() == {"An": -26000, "Bình": 50000, "Chi": -16000, "Dũng": -8000}


def test_the_first_tap_of_the_finish_order_paints_nothing_and_says_nothing_missing(
    owner_client, owner
):
    sitting = _sitting(owner, "nhat-nhi-ba-bet")
    tapped = {"played": FOUR, "place_1": "An", "action": "", "touched": "played place_1"}
    html = owner_client.post(f"/s/{sitting.pk}/games/", tapped, headers=HX).content.decode()
    assert "còn thiếu" not in html and 'aria-invalid="true"' not in html
    assert "err-place" not in html
    # Moving on (a card count typed) or a save: now the order's gap is said, beside the places.
    moved = {**tapped, "cards_1": "3", "touched": "played place_1 cards_1"}
    html = owner_client.post(f"/s/{sitting.pk}/games/", moved, headers=HX).content.decode()
    assert 'id="err-place"' in html and "còn thiếu" in html
    saved = {**tapped, "action": "save", "token": str(uuid.uuid4())}
    html = owner_client.post(f"/s/{sitting.pk}/games/", saved, headers=HX).content.decode()
    assert "còn thiếu" in html and not Game.objects.exists()
