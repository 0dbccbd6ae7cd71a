"""A player's statement in a sitting: every entry, adding up to their balance."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Payment
from tests.factories import STAKE, lose, owe, player, record, table_with

HX = {"headers": {"HX-Request": "true"}}


def url(sitting, name):
    return reverse("player_statement_in_sitting", args=[sitting.pk, player(sitting, name).pk])


def busy_table(owner):
    """Games, an edited game, a voided game, a settlement and a voided settlement."""
    sitting = table_with(owner, {"An": 7, "Bình": -2, "Chi": -5})
    edited = record(sitting, owner, lose("Chi", "An", 3))
    services.game_edit(game=edited, user=owner, record=lose("Chi", "An", 9), expected_revision=1)
    voided = record(sitting, owner, lose("An", "Bình", 12))
    services.game_void(game=voided, user=owner, reason="chia bài sai")
    services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "Bình"),
        payee=player(sitting, "An"),
        amount=2 * STAKE,
    )
    wrong = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "Chi"),
        payee=player(sitting, "An"),
        amount=1 * STAKE,
    )
    services.settlement_void(settlement=wrong, user=owner, reason="nhầm")
    return sitting, edited, voided


def test_it_adds_every_entry_up_to_the_balance(owner_client, owner):
    sitting, _edited, _voided = busy_table(owner)
    balances = services.balances(sitting)
    for name in ("An", "Bình", "Chi"):
        response = owner_client.get(url(sitting, name))
        assert response.status_code == 200
        entries = response.context["entries"]
        assert entries, "everyone at the busy table played"
        me = player(sitting, name)
        assert sum(e.amount for e in entries) == balances[me.pk]
        assert response.context["balance"] == balances[me.pk]
        running = 0
        for entry in entries:
            running += entry.amount
            assert entry.running == running
        # What each other person owes this one adds up to the balance too.
        assert sum(r["net"] for r in response.context["others"]) == balances[me.pk]


def test_it_counts_only_the_current_revision_and_active_games(owner_client, owner):
    sitting, edited, voided = busy_table(owner)
    response = owner_client.get(url(sitting, "An"))
    games = {e.game.number: e for e in response.context["entries"] if e.payment}
    assert voided.number not in games
    assert games[edited.number].payment.revision == 2
    assert games[edited.number].amount == -9 * STAKE
    settlements = [e for e in response.context["entries"] if e.settlement]
    assert [(e.settlement.payer.name, e.amount) for e in settlements] == [("Bình", -2 * STAKE)]
    body = response.content.decode()
    assert "chia bài sai" in body and "nhầm" in body  # listed apart, as not counted


def test_it_links_each_payment_to_its_place_on_the_game_page(owner_client, owner):
    sitting, edited, _voided = busy_table(owner)
    body = owner_client.get(url(sitting, "Chi")).content.decode()
    payment = Payment.objects.get(game=edited, revision=2)
    assert f'href="{edited.get_absolute_url()}#payment-{payment.pk}"' in body
    assert "lần ghi 2" in body
    game_page = owner_client.get(edited.get_absolute_url()).content.decode()
    assert f'id="payment-{payment.pk}"' in game_page


def test_it_links_to_each_pair(owner_client, owner):
    sitting, _e, _v = busy_table(owner)
    body = owner_client.get(url(sitting, "An")).content.decode()
    an, chi = player(sitting, "An"), player(sitting, "Chi")
    assert reverse("pair_explain", args=[sitting.pk, an.pk, chi.pk]) in body


def test_it_answers_htmx_with_the_statement_fragment(owner_client, owner):
    sitting, _e, _v = busy_table(owner)
    response = owner_client.get(url(sitting, "An"), **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="statement">')


def test_it_404s_a_player_who_is_not_in_the_sitting(owner_client, owner):
    sitting = table_with(owner, {"An": 1, "Bình": -1})
    other = table_with(owner, {"Xuân": 1, "Yến": -1}, name="Bàn khác")
    response = owner_client.get(
        reverse("player_statement_in_sitting", args=[sitting.pk, player(other, "Xuân").pk])
    )
    assert response.status_code == 404


def test_it_hides_the_statement_from_strangers_and_anonymous(client, stranger_client, owner):
    sitting = table_with(owner, {"An": 1, "Bình": -1})
    assert stranger_client.get(url(sitting, "An")).status_code == 404
    client.logout()
    response = client.get(url(sitting, "An"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_it_is_read_only(owner_client, owner):
    sitting = table_with(owner, {"An": 1, "Bình": -1})
    assert owner_client.post(url(sitting, "An")).status_code == 405


def test_it_takes_the_same_number_of_queries_however_many_games(owner_client, owner):
    small = table_with(owner, {"An": 1, "Bình": -1}, name="Ít")
    large = table_with(owner, {"An": 1, "Bình": -1}, name="Nhiều")
    for _ in range(10):
        owe(large, owner, "An", "Bình", 3)
        owe(large, owner, "Bình", "An", 3)
    counts = []
    for sitting in (small, large):
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url(sitting, "An"))
        counts.append(len(queries))
    assert counts[0] == counts[1]
