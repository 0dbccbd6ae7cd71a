"""The settle-up page: balances, the three plans, and what recording a payment does to them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.engine import settle
from scoring.models import HistoryEntry, Settlement
from tests.factories import STAKE, by_name, owe, player, table_with

HX = {"headers": {"HX-Request": "true"}}


def url(sitting, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("sitting_settle", args=[sitting.pk]) + (f"?{query}" if query else "")


def plan(response):
    return [(s.payer.name, s.payee.name, s.amount) for s in response.context["page"].suggestions]


def pay(client, sitting, payer, payee, amount, **extra):
    data = {
        "kind": "suggestion",
        "payer": player(sitting, payer).pk,
        "payee": player(sitting, payee).pk,
        "amount": amount,
        "version": extra.pop("version", None) or _version(sitting),
        "method": extra.pop("method", "min"),
        **extra,
    }
    return client.post(reverse("settlement_new", args=[sitting.pk]), data, **HX)


def _version(sitting):
    sitting.refresh_from_db()
    return sitting.version


def test_it_shows_the_full_page(owner_client, owner):
    sitting = table_with(owner, {"An": 4, "Bình": -4})
    response = owner_client.get(url(sitting))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" in body and 'id="settle"' in body
    assert "<bdi>Bình</bdi> → <bdi>An</bdi>" in body  # names isolated beside amounts
    assert "4.000" in body


def test_it_answers_htmx_with_the_fragment_only(owner_client, owner):
    sitting = table_with(owner, {"An": 4, "Bình": -4})
    response = owner_client.get(url(sitting, method="played"), **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="settle"')


def test_it_needs_two_payments_for_plus4_plus6_minus4_minus6(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": 6, "C": -4, "D": -6})
    response = owner_client.get(url(sitting))
    assert plan(response) == [("C", "A", 4 * STAKE), ("D", "B", 6 * STAKE)]


def test_it_needs_three_payments_for_five_people(owner_client, owner):
    sitting = table_with(owner, {"A": -3, "B": -4, "C": -5, "D": 7, "E": 5})
    response = owner_client.get(url(sitting))
    suggestions = plan(response)
    assert len(suggestions) == 3
    assert suggestions == [
        (p.payer, p.payee, p.amount) for p in settle.min_payments(by_name(sitting))
    ]


def test_it_says_whose_balance_each_transfer_clears(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": 6, "C": -4, "D": -6})
    response = owner_client.get(url(sitting))
    clears = [[p.name for p in s.clears] for s in response.context["page"].suggestions]
    assert clears == [["C", "A"], ["D", "B"]]
    assert "Trả xong khoản này thì hết nợ:" in response.content.decode()


def test_it_settles_as_played_pair_by_pair(owner_client, owner):
    sitting = table_with(owner, {"A": 0, "B": 0, "C": 0})
    owe(sitting, owner, "A", "B", 5)
    owe(sitting, owner, "B", "C", 5)
    # The fewest payments would be A → C; as played, each pays whom they lost to.
    assert plan(owner_client.get(url(sitting))) == [("A", "C", 5 * STAKE)]
    assert plan(owner_client.get(url(sitting, method="played"))) == [
        ("A", "B", 5 * STAKE),
        ("B", "C", 5 * STAKE),
    ]


def test_it_settles_through_the_chosen_banker(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": 6, "C": -4, "D": -6})
    banker = player(sitting, "A")
    response = owner_client.get(url(sitting, method="banker", banker=banker.pk))
    assert response.context["page"].banker == banker
    assert plan(response) == [("C", "A", 4 * STAKE), ("D", "A", 6 * STAKE), ("A", "B", 6 * STAKE)]


def test_it_picks_the_biggest_creditor_as_banker_by_default(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": 6, "C": -4, "D": -6})
    response = owner_client.get(url(sitting, method="banker"))
    assert response.context["page"].banker.name == "B"


def test_it_falls_back_to_the_fewest_payments_for_an_unknown_method(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    response = owner_client.get(url(sitting, method="nonsense"))
    assert response.context["page"].method == "min"


def test_it_records_a_suggestion_and_the_rest_stay_the_same(owner_client, owner):
    sitting = table_with(owner, {"A": -3, "B": -4, "C": -5, "D": 7, "E": 5})
    before = plan(owner_client.get(url(sitting)))
    payer, payee, amount = before[1]
    response = pay(owner_client, sitting, payer, payee, amount)
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert "Đã ghi" in response.content.decode()
    assert plan(response) == before[:1] + before[2:]
    assert plan(owner_client.get(url(sitting))) == before[:1] + before[2:]
    settlement = Settlement.objects.get(sitting=sitting)
    assert (settlement.payer.name, settlement.payee.name, settlement.amount) == before[1]
    assert settlement.created_by == owner
    assert sitting.history.filter(action=HistoryEntry.Action.SETTLED).count() == 1


def test_it_redirects_a_plain_form_post_back_to_the_same_plan(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": 6, "C": -4, "D": -6})
    data = {
        "kind": "suggestion",
        "payer": player(sitting, "C").pk,
        "payee": player(sitting, "A").pk,
        "amount": 4 * STAKE,
        "version": _version(sitting),
        "method": "played",
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 302
    assert response["Location"] == url(sitting, method="played")
    assert by_name(sitting)["C"] == 0


def test_it_refuses_a_suggestion_computed_before_the_ledger_changed(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    stale = _version(sitting)
    owe(sitting, owner, "B", "A", 2)  # someone records a game meanwhile
    response = pay(owner_client, sitting, "B", "A", 4 * STAKE, version=stale)
    assert response.status_code == 200  # htmx swaps only 2xx: the warning must show
    assert "Sổ vừa thay đổi" in response.content.decode()
    assert not Settlement.objects.exists()
    assert plan(response) == [("B", "A", 6 * STAKE)]


def test_it_does_not_record_a_double_tap_twice(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    version = _version(sitting)
    first = pay(owner_client, sitting, "B", "A", 4 * STAKE, version=version)
    second = pay(owner_client, sitting, "B", "A", 4 * STAKE, version=version)
    assert first.status_code == second.status_code == 200
    assert Settlement.objects.count() == 1
    assert by_name(sitting) == {"A": 0, "B": 0}


def test_it_answers_a_stale_plain_post_with_409(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    data = {
        "kind": "free",
        "payer": player(sitting, "B").pk,
        "payee": player(sitting, "A").pk,
        "amount": "1000",
        "version": _version(sitting) - 1,
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 409
    # The typed payment stays in the form, now against the current version.
    assert response.context["form"]["amount"].value() == "1000"
    assert response.context["form"]["version"].value() == str(_version(sitting))


def test_it_records_a_partial_payment_typed_the_vietnamese_way(owner_client, owner):
    sitting = table_with(owner, {"A": 200, "B": -200}, stake=1000)
    data = {
        "kind": "free",
        "payer": player(sitting, "B").pk,
        "payee": player(sitting, "A").pk,
        "amount": "50.000 ₫",
        "version": _version(sitting),
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data, **HX)
    assert response.status_code == 200
    assert by_name(sitting) == {"A": 150_000, "B": -150_000}
    assert plan(response) == [("B", "A", 150_000)]
    data.update(amount="150k", version=_version(sitting))
    owner_client.post(reverse("settlement_new", args=[sitting.pk]), data, **HX)
    assert by_name(sitting) == {"A": 0, "B": 0}


@pytest.mark.parametrize(
    ("payer", "payee", "amount", "field"),
    [
        ("B", "B", "1000", "payee"),
        ("B", "A", "abc", "amount"),
        ("B", "A", "0", "amount"),
        ("B", "A", "", "amount"),
        ("", "A", "1000", "payer"),
    ],
)
def test_it_shows_what_is_wrong_with_the_form(owner_client, owner, payer, payee, amount, field):
    sitting = table_with(owner, {"A": 4, "B": -4})
    data = {
        "kind": "free",
        "payer": player(sitting, payer).pk if payer else "",
        "payee": player(sitting, payee).pk,
        "amount": amount,
        "version": _version(sitting),
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 422
    assert field in response.context["form"].errors
    assert 'class="field-error"' in response.content.decode()
    htmx = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data, **HX)
    assert htmx.status_code == 200
    assert 'class="field-error"' in htmx.content.decode()
    assert not Settlement.objects.exists()


def test_it_refuses_a_player_from_outside_the_sitting(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    other = table_with(owner, {"X": 4, "Y": -4}, name="Bàn khác")
    data = {
        "kind": "free",
        "payer": player(other, "Y").pk,
        "payee": player(sitting, "A").pk,
        "amount": "1000",
        "version": _version(sitting),
    }
    response = owner_client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 422
    assert not Settlement.objects.exists()


def test_it_voids_a_settlement_with_a_reason(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "B"),
        payee=player(sitting, "A"),
        amount=4 * STAKE,
    )
    assert plan(owner_client.get(url(sitting))) == []
    response = owner_client.post(
        reverse("settlement_void", args=[sitting.pk, settlement.pk]),
        {"reason": "ghi nhầm người", "method": "min"},
        **HX,
    )
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    settlement.refresh_from_db()
    assert settlement.is_void and settlement.void_reason == "ghi nhầm người"
    assert plan(response) == [("B", "A", 4 * STAKE)]


def test_it_redirects_after_voiding_without_htmx(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "B"),
        payee=player(sitting, "A"),
        amount=1000,
    )
    response = owner_client.post(
        reverse("settlement_void", args=[sitting.pk, settlement.pk]), {"method": "played"}
    )
    assert response.status_code == 302
    assert response["Location"] == url(sitting, method="played")
    settlement.refresh_from_db()
    assert settlement.is_void and settlement.void_reason  # the service's default reason


def test_it_404s_a_settlement_of_another_sitting(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    other = table_with(owner, {"X": 4, "Y": -4}, name="Bàn khác")
    settlement = services.settlement_record(
        sitting=other, user=owner, payer=player(other, "Y"), payee=player(other, "X"), amount=1
    )
    response = owner_client.post(reverse("settlement_void", args=[sitting.pk, settlement.pk]))
    assert response.status_code == 404
    settlement.refresh_from_db()
    assert not settlement.is_void


def test_it_hides_the_sitting_from_a_stranger(stranger_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "B"),
        payee=player(sitting, "A"),
        amount=1,
    )
    assert stranger_client.get(url(sitting)).status_code == 404
    assert stranger_client.get(url(sitting), **HX).status_code == 404
    data = {"payer": player(sitting, "B").pk, "payee": player(sitting, "A").pk, "amount": "1"}
    assert (
        stranger_client.post(reverse("settlement_new", args=[sitting.pk]), data).status_code == 404
    )
    void = reverse("settlement_void", args=[sitting.pk, settlement.pk])
    assert stranger_client.post(void).status_code == 404
    assert Settlement.objects.filter(is_void=False).count() == 1


def test_it_sends_anonymous_visitors_to_log_in(client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    for response in (
        client.get(url(sitting)),
        client.post(reverse("settlement_new", args=[sitting.pk])),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_it_lets_a_co_scorekeeper_settle(client, owner, helper):
    sitting = table_with(owner, {"A": 4, "B": -4})
    services.sitting_share(sitting=sitting, user=owner, invitee=helper)
    client.force_login(helper)
    assert client.get(url(sitting)).status_code == 200
    pay(client, sitting, "B", "A", 4 * STAKE)
    assert Settlement.objects.get().created_by == helper


def test_it_allows_only_the_right_methods(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    assert owner_client.post(url(sitting)).status_code == 405
    assert owner_client.get(reverse("settlement_new", args=[sitting.pk])).status_code == 405
    assert owner_client.get(reverse("settlement_void", args=[sitting.pk, 1])).status_code == 405


def test_it_refuses_a_post_without_the_csrf_token(owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    data = {
        "kind": "free",
        "payer": player(sitting, "B").pk,
        "payee": player(sitting, "A").pk,
        "amount": "4000",
        "version": _version(sitting),
    }
    response = client.post(reverse("settlement_new", args=[sitting.pk]), data)
    assert response.status_code == 403
    assert not Settlement.objects.exists()


@pytest.mark.parametrize("method", ["min", "played", "banker"])
def test_it_takes_the_same_number_of_queries_however_many_games(owner_client, owner, method):
    small = table_with(owner, {"A": 3, "B": -1, "C": -2}, name="Ít ván")
    large = table_with(owner, {"A": 90, "B": -40, "C": -50}, name="Nhiều ván")
    for sitting in (small, large):
        services.settlement_record(
            sitting=sitting,
            user=owner,
            payer=player(sitting, "B"),
            payee=player(sitting, "A"),
            amount=1,
        )
    counts = []
    for sitting in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert owner_client.get(url(sitting, method=method)).status_code == 200
        counts.append(len(queries))
    assert large.games.count() > 3 * small.games.count()
    assert counts[0] == counts[1]


def test_it_gives_htmx_the_whole_page_when_restoring_history(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    response = owner_client.get(
        url(sitting, method="played"),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.content.decode()
    assert "HX-Request" in response["Vary"]
