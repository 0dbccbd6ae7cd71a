"""Fuzzing the session import: any upload is answered without a 500, and it either creates one
whole sitting whose every game is exact, or writes nothing at all."""

from __future__ import annotations

import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.ledger import sessionfile
from scoring.models import Sitting
from tests.hostile.conftest import Table
from tests.hostile.fuzzing import FUZZ, NASTY, counts, ledger_problems, note

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=30),
        st.sampled_from(NASTY),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


# Any name a browser could send (the test client itself refuses "", "." and "..").
file_names = st.text(min_size=1, max_size=30).filter(
    lambda n: os.path.basename(n) not in {"", ".", ".."}
)


def _paths(value, path=()):
    """Every path into a JSON document, parents before children."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def _replace(document, path, new):
    if not path:
        return new
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return document


def _drop(document, path):
    if not path:
        return document
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return document


def _upload(client, raw: bytes, name: str = "ban.json"):
    return client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile(name, raw, content_type="application/json")},
    )


def _check(before: dict[str, int], response) -> None:
    assert response.status_code in (200, 302, 422), response.status_code
    after = counts()
    if response.status_code == 302:
        note("imported")
        assert after["Sitting"] == before["Sitting"] + 1
        sitting = Sitting.objects.order_by("-id").first()
        assert ledger_problems(sitting.pk) == []
    else:
        note("refused")
        assert after == before, "a refused import left rows behind"


def test_an_exported_sitting_imports_with_the_same_totals(table: Table, owner_client):
    raw = sessionfile.session_json(table.sitting).encode()
    before = counts()
    response = _upload(owner_client, raw)
    _check(before, response)
    assert response.status_code == 302
    copy = Sitting.objects.order_by("-id").first()
    original = json.loads(raw)
    again = json.loads(sessionfile.session_json(copy))
    assert again["totals"] == original["totals"]
    assert len(again["games"]) == len(original["games"])


@given(raw=st.one_of(st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode())))
@FUZZ
def test_any_upload_is_answered_and_writes_nothing_unless_whole(owner_client, raw):
    before = counts()
    _check(before, _upload(owner_client, raw))


@given(data=st.data())
@FUZZ
def test_an_export_with_hostile_changes_imports_whole_or_not_at_all(table, owner_client, data):
    document = json.loads(sessionfile.session_json(table.sitting))
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        paths = list(_paths(document))
        path = data.draw(st.sampled_from(paths), label="path")
        if path and data.draw(st.booleans(), label="drop"):
            document = _drop(document, path)
        else:
            document = _replace(document, path, data.draw(json_values, label="value"))
    name = data.draw(st.one_of(st.just("ban.json"), file_names), label="name")
    before = counts()
    _check(before, _upload(owner_client, json.dumps(document).encode(), name=name))


def test_a_file_whose_player_list_is_missing_is_refused_not_a_server_error(table, owner_client):
    """Found by the fuzzing above: without a valid "players" list, the totals check added
    each game's nets into an empty table (KeyError, a 500)."""
    document = json.loads(sessionfile.session_json(table.sitting))
    for broken in (None, "An, Bình", 3):
        if broken is None:
            document.pop("players", None)
        else:
            document["players"] = broken
        before = counts()
        response = _upload(owner_client, json.dumps(document).encode())
        assert response.status_code == 422
        assert counts() == before
