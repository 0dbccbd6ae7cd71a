import re
import uuid

import pytest

from scoring.models import Game, Payment
from tests.factories import open_sitting
from tests.views.test_sitting_page import _form

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_it_previews_payments_without_saving(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("Bình", {0: 5, 2: 8, 3: 13}, action="preview", heo_0="2H")
    response = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<form id="record-form"')
    assert "245.000\xa0₫" in html and "5 lá + thối 2♥" in html
    assert not Game.objects.exists()


def test_it_shows_every_problem_beside_the_form_and_saves_nothing(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("Bình", {0: 0, 2: 8, 3: 13})  # An lost with 0 cards: not possible
    response = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    html = response.content.decode()
    assert 'data-path="hands.An.cards"' in html
    assert response.headers["HX-Retarget"] == "#record-form"
    assert not Game.objects.exists()


def test_it_saves_and_answers_with_the_updated_board(owner_client, owner):
    sitting = open_sitting(owner)
    response = owner_client.post(
        f"/s/{sitting.pk}/games/", _form("Bình", {0: 5, 2: 8, 3: 13}, heo_0="2H"), headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="board-inner">')
    assert "Đã lưu ván 1" in html and "245.000\xa0₫" in html
    assert Payment.objects.count() == 3


def test_a_double_tap_records_the_game_once(owner_client, owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    data = _form("Bình", {0: 5, 2: 8, 3: 13}, token=token)
    owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    again = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    assert again.status_code == 200
    assert Game.objects.count() == 1


def test_the_same_token_with_another_record_is_a_clear_conflict(owner_client, owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    owner_client.post(
        f"/s/{sitting.pk}/games/", _form("Bình", {0: 5, 2: 8, 3: 13}, token=token), headers=HX
    )
    response = owner_client.post(
        f"/s/{sitting.pk}/games/", _form("An", {1: 5, 2: 8, 3: 13}, token=token), headers=HX
    )
    assert "với nội dung khác" in response.content.decode()
    assert Game.objects.count() == 1


def test_it_works_without_javascript(owner_client, owner):
    sitting = open_sitting(owner)
    response = owner_client.post(f"/s/{sitting.pk}/games/", _form("Bình", {0: 5, 2: 8, 3: 13}))
    assert response.status_code == 302
    page = owner_client.get(response["Location"]).content.decode()
    assert "Đã lưu ván 1" in page


def test_without_javascript_a_bad_record_shows_the_page_with_errors(owner_client, owner):
    sitting = open_sitting(owner)
    response = owner_client.post(f"/s/{sitting.pk}/games/", _form("Bình", {0: 0, 2: 8, 3: 13}))
    assert response.status_code == 422
    assert "<html" in response.content.decode()
    assert not Game.objects.exists()


def test_the_chain_builder_offers_only_legal_chops(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("Bình", {0: 5, 2: 8, 3: 13}, action="add_chain")
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    assert 'name="chat_0_0_play"' in html and 'name="chat_0_1_play"' in html
    data.update(
        {
            "action": "preview",
            "chains": "1",
            "chat_0_steps": "2",
            "chat_0_0_player": "An",
            "chat_0_0_cards": ["2S", "2D"],  # two 2s: a đôi heo, no separate choice
        }
    )
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    chop = re.findall(r'name="chat_0_1_play" value="(\w+)"', html)
    assert "tq" in chop and "4dt" in chop
    assert "3dt" not in chop  # 3 đôi thông cannot chop đôi heo
    # The chopper is picked among the others: An does not chop An.
    assert re.findall(r'name="chat_0_1_player" value="([^"]+)"', html) == ["Bình", "Chi", "Dũng"]


def test_a_placement_sitting_records_finishing_order(owner_client, owner):
    sitting = open_sitting(owner, preset="nhat-nhi-ba-bet")
    data = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "place_1": "Bình",
        "place_2": "An",
        "place_3": "Dũng",
        "action": "save",
        "token": str(uuid.uuid4()),
        "cards_2": "2",
        "heo_2": ["2D", "2S"],
    }
    response = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX)
    assert response.status_code == 200, response.content.decode()[:500]
    game = Game.objects.get()
    assert game.record["finish"] == ["Bình", "An", "Dũng", "Chi"]  # last place filled in
    nets = {s.player.name: s.net for s in game.seats.select_related("player")}
    # docs/rules.md#paying-a-1st2nd3rdlast-game: B +6, A +1, D −1, C −6 phần (thối included), at
    # 5 000 ₫.
    assert nets == {"Bình": 30000, "An": 5000, "Dũng": -5000, "Chi": -30000}


def test_recording_is_404_for_strangers(stranger_client, owner):
    sitting = open_sitting(owner)
    response = stranger_client.post(f"/s/{sitting.pk}/games/", _form("Bình", {0: 5}))
    assert response.status_code == 404
    assert not Game.objects.exists()


def test_recording_refuses_get(owner_client, owner):
    sitting = open_sitting(owner)
    assert owner_client.get(f"/s/{sitting.pk}/games/").status_code == 405


def test_den_is_offered_to_every_loser_only_when_every_loser_is_cong(owner_client, owner):
    sitting = open_sitting(owner)
    url = f"/s/{sitting.pk}/games/"
    no_cong = _form("Bình", {0: 5, 2: 8, 3: 12}, action="preview")
    assert 'name="den"' not in owner_client.post(url, no_cong, headers=HX).content.decode()
    one_cong = _form("Bình", {0: 5, 2: 8, 3: 13}, action="preview")  # "cóng 2 nhà … không xét đền"
    assert 'name="den"' not in owner_client.post(url, one_cong, headers=HX).content.decode()
    cong = _form("Bình", {0: 13, 2: 13, 3: 13}, action="preview")
    html = owner_client.post(url, cong, headers=HX).content.decode()
    options = html.split('name="den"')[1].split("</select>")[0]
    assert 'value="An"' in options and 'value="Chi"' in options
    assert 'value="Dũng"' in options  # cóng, and still the one who may have to đền
    assert 'value="Bình"' not in options  # the winner
    owner_client.post(url, _form("Bình", {0: 13, 2: 13, 3: 13}, den="Chi"), headers=HX)
    nets = {s.player.name: s.net for s in Game.objects.get().seats.select_related("player")}
    # 3 × 13×2 = 78 lá, all paid by Chi.
    assert nets == {"Bình": 390000, "An": 0, "Chi": -390000, "Dũng": 0}


def test_toi_trang_records_with_the_hands_the_rules_accept(owner_client, owner):
    sitting = open_sitting(owner)
    url = f"/s/{sitting.pk}/games/"
    html = owner_client.post(url, _form("", {}, action="preview"), headers=HX).content.decode()
    hands = html.split('name="toi_trang_hand"')[1].split("</select>")[0]
    assert 'value="sanh_rong"' in hands and 'value="6_doi_thong"' not in hands  # list A
    data = _form("", {}, toi_trang_player="Chi", toi_trang_hand="sanh_rong")
    assert owner_client.post(url, data, headers=HX).status_code == 200
    nets = {s.player.name: s.net for s in Game.objects.get().seats.select_related("player")}
    assert nets == {"Chi": 3 * 13 * 5000, "An": -65000, "Bình": -65000, "Dũng": -65000}


def test_who_led_defaults_to_the_last_games_winner_and_is_kept(owner_client, owner):
    sitting = open_sitting(owner)
    url = f"/s/{sitting.pk}/games/"
    owner_client.post(url, _form("Bình", {0: 5, 2: 8, 3: 12}, led="An"), headers=HX)
    first = Game.objects.get()
    assert first.led_by.name == "An"
    page = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert 'name="led" value="Bình" checked' in page  # the winner leads the next game
    assert "An đi trước" in page


def test_a_voided_last_game_does_not_decide_who_leads(owner_client, owner):
    from scoring import services
    from tests.factories import first_out, record

    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    last = record(sitting, owner, first_out("Chi", An=1, Bình=2, Dũng=3))
    services.game_void(game=last, user=owner, reason="Nhầm")
    page = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert "Ván tới: An đi trước" in page


def test_toi_trang_with_thoi_asks_for_the_losers_dealt_2s(owner_client, owner):
    from scoring import engine

    rules = engine.ruleset_from_dict(
        {**engine.ruleset_to_dict(engine.PRESETS["dem-la"]), "toi_trang_counts_thoi": True}
    )
    sitting = open_sitting(owner, name="Có đếm heo", rules=rules, stake=1000)
    url = f"/s/{sitting.pk}/games/"
    data = _form("", {}, action="preview", toi_trang_player="Chi", toi_trang_hand="sanh_rong")
    html = owner_client.post(url, data, headers=HX).content.decode()
    assert 'name="heo_0"' in html and 'name="heo_2"' not in html  # Chi won: nothing to ask
    assert 'name="cards_0"' not in html  # dealt hands are 13 cards, nothing to count
    data.update(action="save", heo_0="2H")
    owner_client.post(url, data, headers=HX)
    nets = {s.player.name: s.net for s in Game.objects.get().seats.select_related("player")}
    assert nets["An"] == -(13 + 10) * 1000 and nets["Bình"] == -13 * 1000
