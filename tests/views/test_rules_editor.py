import pytest

from scoring import engine
from scoring.models import SavedRuleSet
from scoring.ruleform import RuleSetForm

pytestmark = pytest.mark.django_db


def _data(preset="cuoc", **changes):
    initial = RuleSetForm.initial_from(engine.PRESETS[preset], "Luật nhà")
    data = {k: v for k, v in initial.items() if v not in (None, False)}
    data.update(changes)
    return data


def test_it_lists_the_presets(owner_client):
    html = owner_client.get("/rules/").content.decode()
    for preset in engine.PRESETS.values():
        assert str(preset.name) in html


def test_a_clone_saved_unchanged_equals_the_preset(owner_client):
    response = owner_client.post("/rules/new/?from=cuoc", _data())
    assert response.status_code == 302
    saved = engine.ruleset_from_dict(SavedRuleSet.objects.get().data)
    preset = engine.PRESETS["cuoc"]
    assert saved.penalties == preset.penalties and saved.placement_4 == preset.placement_4
    assert saved.name == "Luật nhà"


def test_it_edits_a_value_with_halves(owner_client):
    owner_client.post("/rules/new/", _data(pen_2H="1½", placement_4="2 1/2 -1/2 -2"))
    saved = engine.ruleset_from_dict(SavedRuleSet.objects.get().data)
    assert str(saved.penalties["2H"]) == "3/2"


def test_it_shows_the_engines_problem_beside_the_field(owner_client):
    response = owner_client.post("/rules/new/", _data(placement_4="3 1 -1 -2"))
    html = response.content.decode()
    assert response.status_code == 200
    field = html.split('name="placement_4"')[1].split('<div class="field">')[0]
    assert 'class="field-error"' in field
    assert not SavedRuleSet.objects.exists()


def test_it_refuses_text_where_a_number_belongs(owner_client):
    response = owner_client.post("/rules/new/", _data(pen_2S="năm"))
    assert 'class="field-error"' in response.content.decode()
    assert not SavedRuleSet.objects.exists()


def test_saved_rule_sets_are_private(owner_client, owner, stranger_client):
    owner_client.post("/rules/new/", _data())
    saved = SavedRuleSet.objects.get()
    assert stranger_client.get(f"/rules/{saved.pk}/").status_code == 404
    assert owner_client.get(f"/rules/{saved.pk}/").status_code == 200
