"""In card-count mode (đếm lá) a cóng is 13 cards left: the "Cóng" chip on a loser's row
records 13 without typing it, the same game as typing 13."""

from __future__ import annotations

import pytest

from scoring.models import Game
from tests.factories import open_sitting
from tests.views.test_sitting_page import _form

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_the_chip_is_offered_on_each_losers_row(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("Bình", {0: 5, 2: 8, 3: 2}, action="preview")
    html = owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).content.decode()
    for index in (0, 2, 3):
        assert f'name="cong_{index}" data-cong-for="cards_{index}"' in html
    assert 'name="cong_1"' not in html  # the winner holds nothing


def test_the_chip_records_13_cards_like_typing_them(owner_client, owner):
    chipped = open_sitting(owner, name="Chip")
    typed = open_sitting(owner, name="Gõ")
    data = _form("Bình", {0: 5, 2: 8, 3: 2}, cong_3="on")  # Dũng: the chip, whatever was typed
    assert owner_client.post(f"/s/{chipped.pk}/games/", data, headers=HX).status_code == 200
    data = _form("Bình", {0: 5, 2: 8, 3: 13})
    assert owner_client.post(f"/s/{typed.pk}/games/", data, headers=HX).status_code == 200
    by_chip = Game.objects.get(sitting=chipped)
    by_typing = Game.objects.get(sitting=typed)
    assert by_chip.record["hands"]["Dũng"]["cards"] == 13
    assert by_chip.record == by_typing.record


def test_the_chip_overrides_a_count_that_does_not_read(owner_client, owner):
    sitting = open_sitting(owner)
    data = _form("Bình", {0: 5, 2: 8}, cards_3="abc", cong_3="on")
    assert owner_client.post(f"/s/{sitting.pk}/games/", data, headers=HX).status_code == 200
    assert Game.objects.get(sitting=sitting).record["hands"]["Dũng"]["cards"] == 13
