"""What two players owe each other, and every game payment and settlement behind it."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.engine import settle
from scoring.ledger import Ledger
from tests.factories import STAKE, owe, player, record, table_with

HX = {"headers": {"HX-Request": "true"}}


def url(sitting, a, b):
    return reverse("pair_explain", args=[sitting.pk, player(sitting, a).pk, player(sitting, b).pk])


def three_way(owner):
    sitting = table_with(owner, {"An": 0, "Bình": 0, "Chi": 0})
    owe(sitting, owner, "An", "Bình", 5)
    owe(sitting, owner, "Bình", "An", 2)
    owe(sitting, owner, "Chi", "An", 4)
    # A three-player game in which An and Bình both pay Chi.
    record(
        sitting,
        owner,
        {
            "players": ["An", "Bình", "Chi"],
            "finish": ["Chi"],
            "hands": {"An": {"cards": 1}, "Bình": {"cards": 2}},
        },
    )
    services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "An"),
        payee=player(sitting, "Bình"),
        amount=1 * STAKE,
    )
    return sitting


def test_it_adds_the_pair_up_to_what_one_owes_the_other(owner_client, owner):
    sitting = three_way(owner)
    response = owner_client.get(url(sitting, "Bình", "An"))
    assert response.status_code == 200
    entries = response.context["entries"]
    # An lost 5 to Bình, Bình lost 2 to An, An then paid Bình 1: An still owes Bình 2.
    assert [e.amount for e in entries] == [5 * STAKE, -2 * STAKE, -1 * STAKE]
    assert response.context["net"] == 2 * STAKE
    assert response.context["debtor"].name == "An"
    assert response.context["creditor"].name == "Bình"
    assert "An nợ Bình 2.000" in response.content.decode()


def test_it_matches_the_as_played_plan(owner_client, owner):
    sitting = three_way(owner)
    played = {
        (p.payer, p.payee): p.amount for p in settle.as_played(Ledger.load(sitting).pair_nets())
    }
    for a, b in (("An", "Bình"), ("An", "Chi"), ("Bình", "Chi")):
        net = owner_client.get(url(sitting, a, b)).context["net"]
        assert net == played.get((b, a), 0) - played.get((a, b), 0)


def test_it_reads_the_same_from_either_side(owner_client, owner):
    sitting = three_way(owner)
    one = owner_client.get(url(sitting, "An", "Chi")).context["net"]
    other = owner_client.get(url(sitting, "Chi", "An")).context["net"]
    assert one == -other != 0


def test_it_says_when_two_players_owe_each_other_nothing(owner_client, owner):
    sitting = table_with(owner, {"An": 0, "Bình": 0, "Chi": 1, "Dũng": -1})
    response = owner_client.get(url(sitting, "An", "Bình"))
    assert response.context["entries"] == []
    assert "không nợ nhau" in response.content.decode()


def test_it_answers_htmx_with_the_fragment(owner_client, owner):
    sitting = three_way(owner)
    body = owner_client.get(url(sitting, "An", "Bình"), **HX).content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="pair">')


def test_it_404s_a_player_paired_with_themself_or_an_outsider(owner_client, owner):
    sitting = three_way(owner)
    other = table_with(owner, {"Xuân": 1, "Yến": -1}, name="Bàn khác")
    an = player(sitting, "An").pk
    assert owner_client.get(reverse("pair_explain", args=[sitting.pk, an, an])).status_code == 404
    outsider = player(other, "Xuân").pk
    response = owner_client.get(reverse("pair_explain", args=[sitting.pk, an, outsider]))
    assert response.status_code == 404


def test_it_hides_the_pair_from_strangers_and_anonymous(client, stranger_client, owner):
    sitting = three_way(owner)
    assert stranger_client.get(url(sitting, "An", "Bình")).status_code == 404
    client.logout()
    assert client.get(url(sitting, "An", "Bình")).status_code == 302


def test_it_is_read_only(owner_client, owner):
    sitting = three_way(owner)
    assert owner_client.post(url(sitting, "An", "Bình")).status_code == 405


def test_it_takes_the_same_number_of_queries_however_many_games(owner_client, owner):
    small = three_way(owner)
    large = three_way(owner)
    for _ in range(8):
        owe(large, owner, "An", "Bình", 2)
    counts = []
    for sitting in (small, large):
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url(sitting, "An", "Bình"))
        counts.append(len(queries))
    assert counts[0] == counts[1]
