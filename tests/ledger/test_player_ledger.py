"""One player across sittings: per-sitting results, totals and a date range."""

from __future__ import annotations

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import ledger, services
from tests.factories import STAKE, owe, player, table_with

HX = {"headers": {"HX-Request": "true"}}


def nights(owner):
    """An plays three sittings on three dates; a settlement in the second."""
    may = table_with(owner, {"An": 5, "Bình": -5}, name="Tháng Năm", day=date(2026, 5, 2))
    june = table_with(owner, {"An": -3, "Chi": 3}, name="Tháng Sáu", day=date(2026, 6, 6))
    services.settlement_record(
        sitting=june,
        user=owner,
        payer=player(june, "An"),
        payee=player(june, "Chi"),
        amount=3 * STAKE,
    )
    july = table_with(owner, {"An": 7, "Bình": -7}, name="Tháng Bảy", day=date(2026, 7, 4))
    return player(may, "An"), may, june, july


def url(an, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("player_ledger", args=[an.pk]) + (f"?{query}" if query else "")


def test_it_lists_every_sitting_with_its_result(owner_client, owner):
    an, may, june, july = nights(owner)
    response = owner_client.get(url(an))
    assert response.status_code == 200
    rows = {r.name: r for r in response.context["rows"]}
    assert [r.sitting_id for r in response.context["rows"]] == [july.pk, june.pk, may.pk]
    assert (rows["Tháng Sáu"].net, rows["Tháng Sáu"].settled) == (-3 * STAKE, 3 * STAKE)
    assert rows["Tháng Sáu"].balance == 0
    for sitting in (may, june, july):
        assert rows[sitting.name].balance == ledger.balances(sitting)[an.pk]
    assert response.context["totals"].games_total == 9 * STAKE
    assert response.context["totals"].balance_total == 12 * STAKE
    body = response.content.decode()
    assert reverse("player_statement_in_sitting", args=[june.pk, an.pk]) in body


def test_it_filters_by_date(owner_client, owner):
    an, _may, june, july = nights(owner)
    response = owner_client.get(url(an, start="2026-06-01", end="2026-07-31"))
    assert [r.sitting_id for r in response.context["rows"]] == [july.pk, june.pk]
    assert response.context["totals"].balance_total == 7 * STAKE


def test_it_explains_a_backwards_range_and_shows_everything(owner_client, owner):
    an, *_ = nights(owner)
    response = owner_client.get(url(an, start="2026-07-31", end="2026-06-01"))
    assert "end" in response.context["form"].errors
    assert len(response.context["rows"]) == 3


def test_it_answers_htmx_with_the_fragment(owner_client, owner):
    an, *_ = nights(owner)
    body = owner_client.get(url(an, start="2026-06-01"), **HX).content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="ledger">')


def test_it_shows_a_co_scorekeeper_only_the_shared_sittings(client, owner, helper):
    an, _may, june, _july = nights(owner)
    services.sitting_share(sitting=june, user=owner, invitee=helper)
    client.force_login(helper)
    response = client.get(url(an))
    assert response.status_code == 200
    assert [r.sitting_id for r in response.context["rows"]] == [june.pk]


def test_it_hides_a_player_from_strangers(client, stranger_client, owner):
    an, *_ = nights(owner)
    assert stranger_client.get(url(an)).status_code == 404
    assert stranger_client.get(url(an), **HX).status_code == 404
    assert stranger_client.get(reverse("player_ledger", args=[999_999])).status_code == 404
    client.logout()
    assert client.get(url(an)).status_code == 302


def test_it_is_read_only(owner_client, owner):
    an, *_ = nights(owner)
    assert owner_client.post(url(an)).status_code == 405


def test_it_takes_the_same_number_of_queries_however_many_sittings(owner_client, owner):
    an, *_ = nights(owner)
    counts = []
    for extra in (0, 4):
        for i in range(extra):
            sitting = table_with(owner, {"An": 1, "Bình": -1}, name=f"Thêm {i}")
            owe(sitting, owner, "An", "Bình", 2)
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url(an))
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_it_gives_htmx_the_whole_page_when_restoring_history(owner_client, owner):
    an, *_ = nights(owner)
    response = owner_client.get(
        url(an, start="2026-06-01"),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.content.decode()
    assert "HX-Request" in response["Vary"]
