"""A chặt marked "tới luôn" (the one chopped went out with the chopped play) costs nothing,
so no payment names it: the game's row on the sitting page and the game's page say it."""

from __future__ import annotations

import pytest

from scoring.models import Payment
from tests.factories import FOUR, open_sitting, record

pytestmark = pytest.mark.django_db

FREE = {
    "players": FOUR,
    "finish": ["Chi"],
    "hands": {"An": {"cards": 3}, "Bình": {"cards": 7}, "Dũng": {"cards": 2}},
    "chat": [
        {
            "steps": [
                {"player": "Chi", "play": "heo", "cards": ["2D"]},
                {"player": "Dũng", "play": "tq"},
            ],
            "victim_out": True,
        }
    ],
}
SAID = "Dũng chặt Chi: tới luôn, không tính tiền"


def test_the_game_row_and_page_name_a_free_chop(owner, owner_client):
    sitting = open_sitting(owner)
    game = record(sitting, owner, FREE)
    assert not Payment.objects.counted().filter(game=game, reason="chat").exists()
    assert SAID in owner_client.get(f"/s/{sitting.pk}/").text
    assert SAID in owner_client.get(f"/s/{sitting.pk}/g/{game.number}/").text


def test_a_paid_chop_is_not_called_free(owner, owner_client):
    sitting = open_sitting(owner)
    paid = {**FREE, "chat": [{**FREE["chat"][0], "victim_out": False}]}
    paid["finish"] = ["An"]
    paid["hands"] = {"Chi": {"cards": 3}, "Bình": {"cards": 7}, "Dũng": {"cards": 2}}
    record(sitting, owner, paid)
    assert "tới luôn, không tính tiền" not in owner_client.get(f"/s/{sitting.pk}/").text
