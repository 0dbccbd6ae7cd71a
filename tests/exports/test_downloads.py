"""The CSV and JSON downloads of a sitting."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import ledger, services
from scoring.ledger import sessionfile, sheets
from scoring.models import Player
from scoring.services import bulk_import as importer
from tests.factories import plain, session

ROUTES = ("sitting_export_csv", "sitting_export_totals_csv", "sitting_export_json")


@pytest.fixture
def sitting(owner):
    return importer.session_import(owner=owner, data=session("dem-la", games=15)).sitting


def rows(response):
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(body[1:])))


def test_it_starts_the_payments_csv_with_a_bom_and_keeps_vietnamese_names(owner_client, owner):
    imported = importer.session_import(owner=owner, data=plain()).sitting
    response = owner_client.get(reverse("sitting_export_csv", args=[imported.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")
    assert "attachment" in response["Content-Disposition"]
    assert "toi-thu-bay" in response["Content-Disposition"]
    table = rows(response)
    assert list(table[0]) == list(sheets.PAYMENTS_HEADER)
    assert (table[0]["payer"], table[0]["payee"], table[0]["amount"]) == ("Đức", "Ánh", "5000")
    assert {r["payee"] for r in table[1:]} == {"Hương"}


def test_it_lists_void_games_flagged_and_the_active_rows_match_the_ledger(owner_client, sitting):
    table = rows(owner_client.get(reverse("sitting_export_csv", args=[sitting.pk])))
    void_numbers = set(sitting.games.filter(status="void").values_list("number", flat=True))
    assert void_numbers
    assert {int(r["game"]) for r in table if r["status"] == "void"} == void_numbers
    assert {r["status"] for r in table} == {"active", "void"}
    nets: dict[str, int] = defaultdict(int)
    for row in table:
        if row["status"] == "active":
            nets[row["payer"]] -= int(row["amount"])
            nets[row["payee"]] += int(row["amount"])
    names = dict(Player.objects.values_list("pk", "name"))
    expected = {names[pk]: total for pk, total in ledger.game_totals(sitting).items()}
    assert {k: v for k, v in nets.items() if v} == {k: v for k, v in expected.items() if v}


def test_it_writes_only_the_current_revision(owner_client, owner, sitting):
    game = sitting.games.filter(status="active").order_by("number").first()
    record = {"players": ["An", "Bình"], "finish": ["An"], "hands": {"Bình": {"cards": 7}}}
    services.game_edit(game=game, user=owner, record=record, expected_revision=game.revision)
    table = rows(owner_client.get(reverse("sitting_export_csv", args=[sitting.pk])))
    mine = [r for r in table if r["game"] == str(game.number)]
    assert [(r["revision"], r["payer"], r["amount"]) for r in mine] == [("2", "Bình", "7000")]


def test_it_totals_csv_equals_the_ledger_balances(owner_client, sitting):
    response = owner_client.get(reverse("sitting_export_totals_csv", args=[sitting.pk]))
    assert response.content.startswith(b"\xef\xbb\xbf")
    table = rows(response)
    names = dict(Player.objects.values_list("pk", "name"))
    balances = {names[pk]: v for pk, v in ledger.balances(sitting).items()}
    games = {names[pk]: v for pk, v in ledger.game_totals(sitting).items()}
    assert [r["player"] for r in table] == ["An", "Bình", "Chi", "Dũng"]
    for row in table:
        assert int(row["balance"]) == balances[row["player"]]
        assert int(row["games_net"]) == games.get(row["player"], 0)
        assert int(row["games_net"]) + int(row["settlements"]) == int(row["balance"])
    assert (table[0]["settlements"], table[1]["settlements"]) == ("3000", "-3000")
    # Paid and received apart, never netted: the settlements column is their difference.
    assert [(r["paid"], r["received"]) for r in table[:2]] == [("3000", "0"), ("0", "3000")]
    for row in table:
        assert int(row["paid"]) - int(row["received"]) == int(row["settlements"])


def test_it_keeps_a_name_from_running_as_a_spreadsheet_formula(owner_client, owner):
    data = plain(players=["=HYPERLINK(1)", "Đức", "Hương"])
    for game in data["games"]:
        game["players"] = ["=HYPERLINK(1)" if p == "Ánh" else p for p in game["players"]]
        game["finish"] = ["=HYPERLINK(1)" if p == "Ánh" else p for p in game["finish"]]
        game["hands"] = {
            ("=HYPERLINK(1)" if p == "Ánh" else p): h for p, h in game["hands"].items()
        }
    imported = importer.session_import(owner=owner, data=data).sitting
    for route in ROUTES[:2]:
        body = owner_client.get(reverse(route, args=[imported.pk])).content.decode()
        assert "'=HYPERLINK(1)" in body
        assert "\n=HYPERLINK" not in body and ",=HYPERLINK" not in body


def test_it_downloads_the_session_file(owner_client, sitting):
    response = owner_client.get(reverse("sitting_export_json", args=[sitting.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert json.loads(response.content) == sessionfile.session_build(sitting)
    assert "Bình".encode() in response.content


@pytest.mark.parametrize("route", ROUTES)
def test_it_hides_the_downloads_from_strangers_and_anonymous(
    client, stranger_client, sitting, route
):
    assert stranger_client.get(reverse(route, args=[sitting.pk])).status_code == 404
    client.logout()
    response = client.get(reverse(route, args=[sitting.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("route", ROUTES)
def test_it_only_answers_get(owner_client, sitting, route):
    assert owner_client.post(reverse(route, args=[sitting.pk])).status_code == 405


@pytest.mark.parametrize("route", ROUTES)
def test_it_takes_the_same_number_of_queries_however_many_games(owner_client, owner, route):
    small = importer.session_import(owner=owner, data=session("diem", games=3)).sitting
    large = importer.session_import(owner=owner, data=session("diem", games=40)).sitting
    counts = []
    for one in (small, large):
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(reverse(route, args=[one.pk]))
        counts.append(len(queries))
    assert counts[0] == counts[1]
