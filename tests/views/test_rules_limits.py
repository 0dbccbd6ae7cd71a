"""Rule values and stakes too large for any amount: refused where they come in, with the
limit; a rule set saved before the limit still reads, and opening a sitting with it says why."""

from __future__ import annotations

import pytest

from scoring import engine
from scoring.models import SavedRuleSet, Sitting
from tests.views.test_rules_editor import _data

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "change", [{"card_value": "1000000000000"}, {"pen_tq": "10000000000000"}, {"card_value": "²"}]
)
def test_the_editor_refuses_a_value_no_amount_can_hold(owner_client, change):
    response = owner_client.post("/rules/new/", _data("dem-la", **change))
    assert response.status_code in (200, 422)
    page = response.content.decode()
    assert "9.999.999.999.999" in page or "0–9" in page
    assert SavedRuleSet.objects.count() == 0


def test_a_stored_rule_set_too_large_is_refused_when_opening_a_sitting(owner, owner_client):
    data = engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"card_value": 10**12}
    saved = SavedRuleSet.objects.create(owner=owner, name="Cũ", data=data)
    assert owner_client.get("/rules/").status_code == 200
    response = owner_client.post(
        "/s/new/",
        {
            "name": "Bàn",
            "date": "2026-11-28",
            "rules": f"saved:{saved.pk}",
            "stake": "1",
            "players": "An\nBình",
        },
    )
    assert response.status_code == 200
    assert "9.999.999.999.999" in response.content.decode()
    assert Sitting.objects.count() == 0


@pytest.mark.parametrize("stake", ["100000001", "²", "1e309", "9" * 40, "１０００"])
def test_the_stake_is_read_by_the_one_parser(owner_client, stake):
    response = owner_client.post(
        "/s/new/",
        {
            "name": "Bàn",
            "date": "2026-11-28",
            "rules": "preset:dem-la",
            "stake": stake,
            "players": "An\nBình",
        },
    )
    opened = Sitting.objects.first()
    if stake == "１０００":
        assert response.status_code == 302 and opened.stake == 1000
    else:
        assert response.status_code == 200 and opened is None
