"""The print-friendly summary: totals, what is left to pay, every game."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine import settle
from scoring.ledger import sessionfile
from scoring.services import bulk_import as importer
from tests.factories import plain, session


def test_it_prints_totals_settle_up_and_every_game(owner_client, owner):
    sitting = importer.session_import(owner=owner, data=session("dem-la", games=6)).sitting
    response = owner_client.get(reverse("sitting_print", args=[sitting.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    exported = sessionfile.session_build(sitting)
    assert [(s.payer.name, s.payee.name, s.amount) for s in response.context["suggestions"]] == [
        (p["from"], p["to"], p["amount"]) for p in exported["settle_up"]
    ]
    assert [r.balance for r in response.context["rows"]] == list(exported["totals"].values())
    assert [g["game"].number for g in response.context["games"]] == [1, 2, 3, 4, 5, 6]
    assert 'class="badge void"' in body  # game 2 of the file is void
    assert reverse("sitting_export_json", args=[sitting.pk]) in body
    assert sum(response.context["games_row"]) == 0


def test_it_marks_who_did_not_play_a_game(owner_client, owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    response = owner_client.get(reverse("sitting_print", args=[sitting.pk]))
    first = response.context["games"][0]["cells"]
    assert first == [5000, -5000, None]  # Hương sat out game 1
    minimum = settle.min_payments({"Ánh": 3000, "Đức": -9000, "Hương": 6000})
    assert len(response.context["suggestions"]) == len(minimum)


def test_it_hides_the_page_from_strangers_and_anonymous(client, stranger_client, owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    assert stranger_client.get(reverse("sitting_print", args=[sitting.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("sitting_print", args=[sitting.pk])).status_code == 302


def test_it_only_answers_get(owner_client, owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    assert owner_client.post(reverse("sitting_print", args=[sitting.pk])).status_code == 405


def test_it_takes_the_same_number_of_queries_however_many_games(owner_client, owner):
    small = importer.session_import(owner=owner, data=session("cuoc", games=3)).sitting
    large = importer.session_import(owner=owner, data=session("cuoc", games=40)).sitting
    counts = []
    for one in (small, large):
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(reverse("sitting_print", args=[one.pk]))
        counts.append(len(queries))
    assert counts[0] == counts[1]
