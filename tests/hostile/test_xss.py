"""Players, a sitting, a rule set and a void reason named like script injections: every page
and fragment of the site shows them escaped, never as markup.

The pages come from the resolver (every GET-able route, as a full page and as an htmx
fragment), so a page added later is checked too.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.hostile.conftest import ESCAPED_SCRIPT, RAW_MARKERS, Table, all_routes

pytestmark = pytest.mark.django_db

MARKUP_TYPES = ("text/html", "image/svg+xml")
# Pages whose job is to show the players' names: the escaped name must be on them.
SHOWS_NAMES = {
    "sitting",
    "game",
    "game_edit",
    "sitting_history",
    "sitting_members",
    "sitting_settle",
    "player_statement_in_sitting",
    "pair_explain",
    "sitting_print",
    "live",
    "players",
    "player",
    "player_ledger",
    "group_stats",
    "group_stats_games",
    "group_player_year",
    "group_what_if",
    "sitting_join",
    "join",
}
QUERIES = {
    "sitting_settle": ["", "?method=played", "?method=banker"],
    "sitting": ["", "?part=games", "?part=chart"],
    "group_stats": ["?period=all", "?period=all&sort=wins"],
    "group_stats_games": ["?period=all"],
    "group_what_if": ["?period=all&rules=preset:dem-la&stake=1000", "?period=all"],
}


# Answers that are data, never rendered as a page: downloads, the web app manifest and the
# service worker's script (which hold no name anyway).
DATA_TYPES = (
    "text/csv",
    "application/json",
    "application/manifest+json",
    "text/javascript",
    "application/javascript",
    "application/gzip",  # the group's archive (its JSON inside is a download too)
)


def _pages(table: Table):
    for route in all_routes():
        if route.route.startswith(("accounts/reset/", "i18n/")):
            continue
        url = reverse(route.name, kwargs=table.kwargs(route.route, list(route.args)))
        for query in QUERIES.get(route.name, [""]):
            yield route.name, url + query


def _raw(body: str) -> list[str]:
    return [marker for marker in RAW_MARKERS if marker in body]


def test_no_page_or_fragment_shows_a_hostile_name_as_markup(table: Table, owner_client):
    anonymous = Client()
    problems, seen = [], set()
    for name, url in _pages(table):
        for client in (owner_client, anonymous) if name == "live" else (owner_client,):
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(url, headers=headers)
                if response.status_code != 200:
                    continue
                content_type = response["Content-Type"]
                if content_type.startswith("application/gzip"):
                    continue
                body = response.content.decode()
                if content_type.startswith(MARKUP_TYPES):
                    if _raw(body):
                        problems.append((url, headers, _raw(body)))
                    if ESCAPED_SCRIPT in body:
                        seen.add(name)
                elif not content_type.startswith(DATA_TYPES):
                    problems.append((url, headers, content_type))
    assert problems == []
    renamed = SHOWS_NAMES - {r.name for r in all_routes()}
    assert renamed == set(), "no such page any more: name it here as the site names it now"
    missing = SHOWS_NAMES - seen
    assert missing == set(), "these pages never showed the (escaped) names at all"


def test_the_record_preview_escapes_names_too(table: Table, owner_client):
    fields = {
        "played": [p.name for p in table.players[:4]],
        "winner": table.players[1].name,
        "cards_0": "3",
        "cards_2": "4",
        "cards_3": "5",
        "action": "preview",
        "chains": "1",
        "chat_0_steps": "2",
    }
    url = reverse("game_new", args=[table.sitting.pk])
    for headers in ({}, {"HX-Request": "true"}):
        body = owner_client.post(url, fields, headers=headers).content.decode()
        assert _raw(body) == []
        assert ESCAPED_SCRIPT in body


def test_downloads_are_attachments_that_a_browser_never_renders(table: Table, owner_client):
    for name in ("sitting_export_csv", "sitting_export_totals_csv", "sitting_export_json"):
        response = owner_client.get(reverse(name, args=[table.sitting.pk]))
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith("attachment")
        assert response["X-Content-Type-Options"] == "nosniff"


def test_a_csv_cell_never_starts_a_spreadsheet_formula(owner, owner_client):
    """A player named "=HYPERLINK(…)" must not become a live formula when the export is
    opened in a spreadsheet (OWASP "CSV injection"): such cells are written with a
    leading apostrophe."""
    from tests.hostile.conftest import build_table

    formulas = ["=1+2", "+3-1", "-2+5", "@SUM(A1)"]
    table = build_table(owner, name="=cmd|' /C calc'!A0", members=[*formulas, "An"])
    problems = []
    for name in ("sitting_export_csv", "sitting_export_totals_csv"):
        body = owner_client.get(reverse(name, args=[table.sitting.pk])).content.decode("utf-8-sig")
        for line in body.splitlines():
            for cell in line.split(","):
                cell = cell.strip('"')
                if cell[:1] in ("=", "+", "@") or (cell[:1] == "-" and not cell[1:2].isdigit()):
                    problems.append((name, cell))
                if cell in formulas:
                    problems.append((name, cell))
    assert problems == []


def test_the_charts_draw_hostile_names_as_text(table: Table, owner_client):
    """The SVG charts (sitting chart fragment, player page) are built as strings in
    scoring/ledger/charts.py and marked safe: the names in their legends must be escaped there."""
    urls = [
        reverse("sitting", args=[table.sitting.pk]) + "?part=chart",
        reverse("player", args=[table.players[0].pk]),
    ]
    for url in urls:
        body = owner_client.get(url, headers={"HX-Request": "true"}).content.decode()
        assert "<svg" in body, url
        assert _raw(body) == [], url
        assert ESCAPED_SCRIPT in body, url
