"""Names that lie: decomposed twins, bidi overrides, zero-width joiners, look-alike letters."""

from __future__ import annotations

import unicodedata

import pytest
from django.urls import reverse

from scoring import engine, services
from scoring.models import Player, Sitting
from tests.factories import STAKE, open_sitting, owe

pytestmark = pytest.mark.django_db

NFC = unicodedata.normalize("NFC", "Bình")
NFD = unicodedata.normalize("NFD", "Bình")


def open_through_the_form(client, players, name="Tối thứ Bảy"):
    data = {
        "name": name,
        "date": "2026-11-28",
        "rules": "preset:dem-la",
        "stake": "1000",
        "players": "\n".join(players),
    }
    return client.post(reverse("sitting_new"), data)


def test_the_same_name_typed_composed_and_decomposed_is_one_member(owner_client):
    response = open_through_the_form(owner_client, ["An", NFC, NFD])
    assert response.status_code == 302
    sitting = Sitting.objects.get()
    assert [m.player.name for m in sitting.memberships.select_related("player")] == ["An", NFC]
    assert Player.objects.filter(name=NFD).count() == 0


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200d", "\u200b", "\x07", "\ufeff"])
def test_a_name_with_a_hidden_character_is_refused_and_the_character_named(owner_client, hidden):
    response = open_through_the_form(owner_client, ["An", f"Bình{hidden}"])
    assert response.status_code == 200
    assert f"U+{ord(hidden):04X}" in response.content.decode()
    assert Sitting.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.parametrize("twin", ["Вình", "ВÌNH", "Ｂình"])
def test_a_name_that_looks_like_another_member_is_refused(owner_client, twin):
    response = open_through_the_form(owner_client, ["An", "Bình", twin])
    assert response.status_code == 200
    assert "Bình" in response.content.decode()
    assert Sitting.objects.count() == 0


def test_a_look_alike_added_later_is_refused_too(owner, owner_client):
    sitting = open_sitting(owner, players=["An", "Bình"], stake=STAKE)
    response = owner_client.post(
        reverse("sitting_members", args=[sitting.pk]), {"players": "An\nBình\nАn"}
    )
    assert response.status_code in (200, 422)
    assert sitting.memberships.count() == 2
    with pytest.raises(services.InvalidInput):
        services.sitting_set_members(sitting=sitting, user=owner, player_names=["An", "Bình", "Аn"])


def test_names_that_differ_only_by_marks_are_refused_as_look_alikes(owner_client):
    response = open_through_the_form(owner_client, ["Bình", "Binh", "Chi"])
    assert response.status_code == 200 and "trông giống hệt" in response.content.decode()
    assert Sitting.objects.count() == 0
    assert open_through_the_form(owner_client, ["Bình", "Bích", "Chi"]).status_code == 302


@pytest.mark.parametrize("name", ["Tối\u202e", "Tối\x00", "Tối\u200d"])
def test_a_sitting_name_with_a_hidden_character_is_refused(owner_client, name):
    response = open_through_the_form(owner_client, ["An", "Bình"], name=name)
    assert response.status_code == 200
    assert Sitting.objects.count() == 0


def test_the_services_refuse_what_the_forms_refuse(owner):
    with pytest.raises(services.InvalidInput):
        services.player_get_or_create(owner=owner, name="Bình\u202e")
    with pytest.raises(services.InvalidInput):
        open_sitting(owner, players=["An", "Bình"], stake=STAKE, name="x\u202ey")
    sitting = open_sitting(owner, players=["An", "Bình"], stake=STAKE)
    (game,) = owe(sitting, owner, "Bình", "An", 3)
    with pytest.raises(services.InvalidInput):
        services.game_void(game=game, user=owner, reason="nhầm\u202e")
    game.refresh_from_db()
    assert game.status == "active"


def test_a_void_reason_with_a_hidden_character_says_which(owner, owner_client):
    sitting = open_sitting(owner, players=["An", "Bình"], stake=STAKE)
    (game,) = owe(sitting, owner, "Bình", "An", 3)
    url = reverse("game_void", args=[sitting.pk, game.number])
    response = owner_client.post(url, {"reason": "nhầm\u202e"}, follow=True)
    assert "U+202E" in response.content.decode()
    game.refresh_from_db()
    assert game.status == "active"


def test_names_beside_amounts_are_isolated_from_them(owner, owner_client):
    sitting = open_sitting(owner, players=["An", "Bình"], stake=STAKE)
    owe(sitting, owner, "Bình", "An", 3)
    for url in (
        reverse("sitting", args=[sitting.pk]),
        reverse("sitting_settle", args=[sitting.pk]),
        reverse("game", args=[sitting.pk, 1]),
    ):
        html = owner_client.get(url).content.decode()
        assert "<bdi>Bình</bdi>" in html, url


def test_a_rule_set_named_with_a_hidden_character_is_refused():
    data = engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"name": "Luật\u202e"}
    with pytest.raises(engine.InvalidRuleSet) as error:
        engine.ruleset_from_dict(data)
    assert error.value.problems[0].code == "hidden_character"
