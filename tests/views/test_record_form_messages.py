"""What the record form says, and when: refused counts, empty chặt steps, a failed save."""

import re

import pytest

from scoring.models import Game
from tests.factories import open_sitting
from tests.views.test_sitting_page import _form

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _post(client, sitting, data, *, english=False):
    headers = dict(HX)
    if english:
        client.cookies["django_language"] = "en"
    return client.post(f"/s/{sitting.pk}/games/", data, headers=headers)


def _field_error(html, field):
    match = re.search(rf'<p class="field-error" id="err-{field}">([^<]*)</p>', html)
    return match.group(1) if match else None


@pytest.mark.parametrize(
    "typed", ["14", "-2", "abc", "1.5", "99999999999999999999", "²", "①", "٣", "9" * 5000]
)
def test_it_refuses_a_card_count_out_of_range_beside_the_field(owner_client, owner, typed):
    sitting = open_sitting(owner)
    data = _form("An", {1: 4, 2: typed, 3: 5})
    html = _post(owner_client, sitting, data).content.decode()
    message = _field_error(html, "cards_2")
    assert message is not None and "0 đến 13" in message
    assert 'aria-invalid="true" aria-describedby="err-cards_2"' in html
    # What was typed is shown back as typed: never a silent 13 (cóng) or 0.
    field = re.search(r'<input type="text" id="cards_2"[^>]*>', html).group(0)
    assert 'value="13"' not in field and 'value="0"' not in field
    assert not Game.objects.exists()


def test_it_says_the_refused_count_in_english_too(owner_client, owner):
    sitting = open_sitting(owner)
    html = _post(owner_client, sitting, _form("An", {1: 4, 2: "14", 3: 5}), english=True)
    message = _field_error(html.content.decode(), "cards_2")
    assert message == "Cards left must be a whole number from 0 to 13; “14” cannot be used."


def test_thirteen_is_accepted_as_a_count_and_scores_as_cong(owner_client, owner):
    sitting = open_sitting(owner)
    _post(owner_client, sitting, _form("An", {1: 4, 2: 13, 3: 5}))
    assert Game.objects.get().record["hands"]["Chi"]["cards"] == 13


@pytest.mark.parametrize("kind", ["3dt", "tq", "4dt"])
def test_it_refuses_a_hang_count_of_five_thousand_digits(owner_client, owner, kind):
    sitting = open_sitting(owner)
    data = _form("An", {1: 9, 2: 4, 3: 5}, **{f"{kind}_1": "9" * 5000})
    html = _post(owner_client, sitting, data).content.decode()
    assert "không dùng được" in _field_error(html, f"{kind}_1")
    assert not Game.objects.exists()


def test_it_refuses_a_hang_count_no_hand_can_hold(owner_client, owner):
    sitting = open_sitting(owner)
    html = _post(owner_client, sitting, _form("An", {1: 9, 2: 4, 3: 5}, tq_1="5")).content
    assert "0 đến 3" in _field_error(html.decode(), "tq_1")
    assert not Game.objects.exists()


@pytest.mark.parametrize("english", [False, True])
def test_an_empty_chop_step_reads_naturally(owner_client, owner, english):
    sitting = open_sitting(owner)
    data = _form("An", {1: 4, 2: 3, 3: 5}, chains="1", chat_0_steps="2")
    html = _post(owner_client, sitting, data, english=english).content.decode()
    messages = re.findall(r'<li data-path="[^"]*">([^<]*)</li>', html)
    if english:
        assert "Chop 1: choose who was chopped." in messages
        assert "Chop 1: choose who chopped at step 2." in messages
        assert "Chop 1: choose what was chopped (a heo, a đôi heo or a hàng)." in messages
    else:
        assert "Lần chặt 1: chọn ai bị chặt." in messages
        assert "Lần chặt 1: chọn ai chặt ở bước 2." in messages
    for message in messages:
        assert not message.startswith((" ", '"')), message  # no empty name, no ""
        assert "doi_heo" not in message and "3dt" not in message, message
    assert _field_error(html, "chat_0_0_player") is not None


def test_a_chop_of_a_pair_of_2s_asks_for_both(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form(
        "An",
        {1: 4, 2: 3, 3: 5},
        chains="1",
        chat_0_steps="2",
        chat_0_0_player="Bình",
        chat_0_0_play="doi_heo",
        chat_0_0_cards="2S",
        chat_0_1_player="Chi",
        chat_0_1_play="tq",
    )
    html = _post(owner_client, sitting, data).content.decode()
    assert _field_error(html, "chat_0_0_cards") == "Lần chặt 1: chọn hai con heo của đôi heo."


def test_problems_wait_until_their_field_is_touched(owner_client, owner):
    sitting = open_sitting(owner)
    # The winner was just tapped: the three empty counts are not red yet.
    data = _form("An", {}, action="", touched="played winner")
    html = _post(owner_client, sitting, data).content.decode()
    assert "field-error" not in html and 'aria-invalid="true"' not in html
    assert "Điền tiếp để xem ai trả ai." in html
    # Bình's count was typed (0): only Bình's problem shows.
    data = _form("An", {1: 0}, action="", touched="played winner cards_1")
    html = _post(owner_client, sitting, data).content.decode()
    assert _field_error(html, "cards_1") is not None
    assert _field_error(html, "cards_2") is None
    # After a save was tried, everything shows.
    data = _form("An", {1: 0}, action="", touched="*")
    html = _post(owner_client, sitting, data).content.decode()
    assert _field_error(html, "cards_2") is not None


def test_a_failed_save_marks_every_field_and_says_so_by_the_save_button(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("An", {1: 4, 2: "14"}, touched="winner cards_1 cards_2")
    response = _post(owner_client, sitting, data)
    html = response.content.decode()
    assert response.headers["HX-Retarget"] == "#record-form"
    assert 'data-save-failed="2"' in html
    assert "Chưa lưu: 2 chỗ cần sửa, đã tô đỏ ở trên." in html
    assert _field_error(html, "cards_2") and _field_error(html, "cards_3")
    assert not Game.objects.exists()


def test_a_failed_save_without_scripts_shows_the_page_with_the_same_marks(owner_client, owner):
    sitting = open_sitting(owner)
    response = owner_client.post(f"/s/{sitting.pk}/games/", _form("An", {1: 4, 2: "abc"}))
    html = response.content.decode()
    assert response.status_code == 422
    assert _field_error(html, "cards_2") and _field_error(html, "cards_3")
    assert 'value="abc"' in html


def test_the_count_fields_bring_up_a_numeric_keypad(owner_client, owner):
    sitting = open_sitting(owner)
    html = _post(owner_client, sitting, _form("An", {}, action="")).content.decode()
    fields = re.findall(r'<input type="text" id="cards_\d"[^>]*>', html)
    assert len(fields) == 3
    for field in fields:
        assert 'inputmode="numeric"' in field and 'enterkeyhint="next"' in field


def test_adding_a_chain_names_the_field_to_focus(owner_client, owner):
    sitting = open_sitting(owner)
    html = _post(owner_client, sitting, _form("An", {}, action="add_chain")).content.decode()
    assert 'data-focus="chat_0_0_player"' in html
    data = _form("An", {}, action="add_step_0", chains="1", chat_0_steps="2")
    html = _post(owner_client, sitting, data).content.decode()
    assert 'data-focus="chat_0_2_player"' in html
