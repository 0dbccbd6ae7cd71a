"""Players named like spreadsheet formulas, through every CSV the site writes.

A name typed at the table (``=HYPERLINK(...)``, ``+1``, ``@SUM(A1)``, ``-2+3``) must reach a
spreadsheet as text, never as a live formula (OWASP "CSV injection"), in each download and in
each command's CSV; the amounts beside it stay plain numbers, negative ones included.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Group, Player, Sitting
from tests.factories import new_group, open_in_group, record, settle

HOSTILE = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "-2+3"]
SITTING_NAME = "=SUM(1,1)"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+")
# The money columns of each file: whole đồng. A payment's amount is what the payer pays, so
# only the totals and the statements hold negative ones.
AMOUNTS = {
    "payments": ("amount",),
    "totals": ("games_net", "settlements", "balance", "paid", "received"),
    "statement": ("amount", "balance"),
}


@pytest.fixture
def hostile(owner) -> tuple[Group, Sitting]:
    group = new_group(owner, "Nhóm công thức")
    sitting = open_in_group(group, owner, HOSTILE, name=SITTING_NAME)
    for winner in HOSTILE[:2]:
        others = [name for name in HOSTILE if name != winner]
        rec = {
            "players": HOSTILE,
            "finish": [winner],
            "hands": {name: {"cards": 3 + i} for i, name in enumerate(others)},
        }
        record(sitting, owner, rec)
    settle(sitting, owner, HOSTILE[3], HOSTILE[0], 1000)
    return group, sitting


def _command(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body: str = response.content.decode("utf-8")
    return body


def _statements(client: Any, group: Group) -> str:
    """Every player's statement download, one after the other (one header each)."""
    bodies = []
    for player in Player.objects.filter(group=group):
        url = reverse("group_statement_csv", args=[group.pk, player.pk]) + "?period=all"
        bodies.append(_page(client, url))
    return "".join(bodies)


PATHS: dict[str, tuple[str, Callable[[Any, Group, Sitting], str]]] = {
    "payments page": (
        "payments",
        lambda c, g, s: _page(c, reverse("sitting_export_csv", args=[s.pk])),
    ),
    "totals page": (
        "totals",
        lambda c, g, s: _page(c, reverse("sitting_export_totals_csv", args=[s.pk])),
    ),
    "statement page": ("statement", lambda c, g, s: _statements(c, g)),
    "export_session csv": (
        "payments",
        lambda c, g, s: _command("export_session", str(s.pk), "--format", "csv"),
    ),
    "export_session totals-csv": (
        "totals",
        lambda c, g, s: _command("export_session", str(s.pk), "--format", "totals-csv"),
    ),
    "export_group csv": (
        "statement",
        lambda c, g, s: _command("export_group", str(g.pk), "--format", "csv"),
    ),
}


def _rows(text: str) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for part in text.split("\ufeff")[1:]:  # the statement pages: one file per player
        rows += csv.DictReader(io.StringIO(part))
    return rows


@pytest.mark.parametrize("path", PATHS)
def test_it_writes_formula_names_as_text(path, hostile, owner_client):
    group, sitting = hostile
    _kind, export = PATHS[path]
    text = export(owner_client, group, sitting)
    assert text.startswith("\ufeff")
    cells = [value for row in _rows(text) for value in row.values()]
    live = [v for v in cells if v.startswith(FORMULA_START) and not NUMBER.fullmatch(v)]
    assert live == []
    named = {name for name in HOSTILE if "'" + name in cells}
    assert named == set(HOSTILE)


@pytest.mark.parametrize("path", PATHS)
def test_it_keeps_amounts_as_numbers(path, hostile, owner_client):
    group, sitting = hostile
    kind, export = PATHS[path]
    rows = _rows(export(owner_client, group, sitting))
    amounts = [row[column] for row in rows for column in AMOUNTS[kind]]
    assert amounts and all(NUMBER.fullmatch(a) for a in amounts), amounts
    if kind != "payments":
        assert any(int(a) < 0 for a in amounts), amounts
