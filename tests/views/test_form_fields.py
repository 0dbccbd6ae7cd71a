"""Every form field is drawn by the site's field template (``{{ form }}`` and
``as_field_group``): what a field's ``aria-describedby`` names is on the page."""

import re

import pytest

from scoring.services import bulk_import as importer
from tests.factories import plain

pytestmark = pytest.mark.django_db


def _dangling(html: str) -> list[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [
        ref for refs in re.findall(r'aria-describedby="([^"]+)"', html) for ref in refs.split()
    ]
    assert named, "no field described: the test would prove nothing"
    return [ref for ref in named if ref not in ids]


def test_it_names_only_help_texts_and_errors_that_are_shown(owner_client):
    html = owner_client.post("/s/new/", {"name": "", "players": "An"}).content.decode()
    assert "id_name_error" in html and "id_stake_helptext" in html
    assert _dangling(html) == []


def test_the_rule_editor_describes_its_fields_and_choice_groups(owner_client):
    html = owner_client.post("/rules/new/", {"name": ""}).content.decode()
    assert re.search(r'<fieldset class="field" aria-describedby="[^"]+">', html)
    assert _dangling(html) == []


def test_a_sign_up_with_errors_points_at_each_error(client):
    html = client.post("/accounts/signup/", {"username": "x y", "email": "bad"}).content.decode()
    assert 'aria-describedby="id_email_helptext id_email_error"' in html
    assert _dangling(html) == []


def test_the_game_page_draws_the_void_form(owner_client, owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    html = owner_client.get(f"/s/{sitting.pk}/g/1/").content.decode()
    assert '<label for="id_reason">' in html
    assert re.search(r'<input type="text" name="reason"[^>]* maxlength="200"[^>]* required', html)
