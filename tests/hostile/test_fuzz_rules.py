"""Fuzzing the rule-set editor: never a 500, and a rule set is stored only when it is one the
engine accepts (and a sitting can then be opened with it)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring import engine
from scoring.forms.rules import RuleSetForm
from scoring.models import SavedRuleSet
from tests.hostile.fuzzing import FUZZ, as_data, mutate, mutations, note, posts

pytestmark = pytest.mark.django_db

FIELDS = list(RuleSetForm().fields)
RULE_VALUES = ["first_out", "placement", "winner", "above", "1/2", "1.5", "1½", "½", "3 1 -1 -3"]
RULE_VALUES += ["3 0 -3", "-6", "0.5", "1/3", "1/0", "10**10", "1e400", "-0", "3 1 -1", "3,1,-1,-3"]
RULE_VALUES += list(engine.HANDS)


def valid_body(preset: str) -> list[tuple[str, str]]:
    initial = RuleSetForm.initial_from(engine.PRESETS[preset], f"Luật {preset}")
    body: list[tuple[str, str]] = []
    for name, value in initial.items():
        if value is None:  # an empty input, as the browser sends it
            body.append((name, ""))
        elif isinstance(value, bool):
            if value:
                body.append((name, "on"))
        elif isinstance(value, list | tuple):
            body += [(name, str(v)) for v in value]
        else:
            body.append((name, str(value)))
    return body


def _check(before: int, response) -> None:
    assert response.status_code in (200, 302, 422), response.status_code
    stored = SavedRuleSet.objects.count() - before
    note("stored" if stored else f"refused ({response.status_code})")
    assert stored == (1 if response.status_code == 302 else 0)
    if stored:
        saved = SavedRuleSet.objects.order_by("-id").first()
        rules = engine.ruleset_from_dict(saved.data)  # raises if it is not a rule set
        assert engine.check_rules(rules) == []


def test_every_preset_goes_through_the_editor_unchanged(owner_client):
    for preset in engine.PRESETS:
        before = SavedRuleSet.objects.count()
        response = owner_client.post(reverse("rules_new"), as_data(valid_body(preset)))
        _check(before, response)
        assert response.status_code == 302, preset


@given(body=posts(FIELDS, extra=RULE_VALUES))
@FUZZ
def test_any_rule_set_body_is_answered_and_stores_only_a_valid_rule_set(owner_client, body):
    before = SavedRuleSet.objects.count()
    _check(before, owner_client.post(reverse("rules_new"), as_data(body)))


@given(
    preset=st.sampled_from(list(engine.PRESETS)),
    changes=mutations(FIELDS, extra=RULE_VALUES),
    stake=st.one_of(
        st.sampled_from(["1", "500", "1000", "5001", "100000000"]), st.text(max_size=8)
    ),
)
@FUZZ
def test_a_preset_with_hostile_changes_is_stored_only_if_valid_and_then_usable(
    owner_client, preset, changes, stake
):
    before = SavedRuleSet.objects.count()
    response = owner_client.post(reverse("rules_new"), as_data(mutate(valid_body(preset), changes)))
    _check(before, response)
    if response.status_code == 302:
        saved = SavedRuleSet.objects.order_by("-id").first()
        response = owner_client.post(
            reverse("sitting_new"),
            {
                "name": "Bàn thử",
                "date": "2026-11-28",
                "rules": f"saved:{saved.pk}",
                "stake": stake,
                "players": "An\nBình\nChi",
            },
        )
        assert response.status_code in (200, 302)
