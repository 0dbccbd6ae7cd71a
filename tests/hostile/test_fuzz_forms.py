"""Fuzzing the smaller forms that write: open a sitting, members, settle up, a bank account.
Never a 500, and the ledger still balances to zero after whatever was accepted."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring import ledger
from scoring.models import Settlement
from tests.hostile.conftest import Table
from tests.hostile.fuzzing import FUZZ, as_data, counts, mutate, mutations, note, posts

pytestmark = pytest.mark.django_db

SITTING_FIELDS = ["name", "date", "rules", "stake", "players"]
SITTING_VALUES = ["preset:dem-la", "preset:cuoc", "preset:nope", "saved:1", "saved:x", "2026-02-30"]
SITTING_VALUES += [
    "An\nBình",
    "An\nAN\nan",
    "\n".join("abcdefghi"),
    "5001",
    "100000001",
    "2026-11-28",
]


@given(body=posts(SITTING_FIELDS, extra=SITTING_VALUES))
@FUZZ
def test_any_open_sitting_body_is_answered(owner_client, body):
    response = owner_client.post(reverse("sitting_new"), as_data(body))
    assert response.status_code in (200, 302)
    note(str(response.status_code))


@given(players=st.one_of(st.text(max_size=200), st.sampled_from(SITTING_VALUES)))
@FUZZ
def test_any_member_list_is_answered_and_keeps_who_played(table: Table, owner_client, players):
    played = {seat for seat in table.sitting.games.values_list("seats__player__name", flat=True)}
    response = owner_client.post(
        reverse("sitting_members", args=[table.sitting.pk]), {"players": players}
    )
    assert response.status_code in (200, 302)
    members = {m.player.name for m in table.sitting.memberships.select_related("player")}
    assert played <= members, "someone who played was dropped from the sitting"


SETTLE_FIELDS = ["payer", "payee", "amount", "version", "kind", "method", "banker"]


@given(changes=mutations(SETTLE_FIELDS, extra=["200k", "1.000", "0", "-5", "1" * 16, "₫", "k"]))
@FUZZ
def test_any_settlement_body_is_answered_and_the_balances_still_sum_to_zero(
    table: Table, owner_client, changes
):
    table.sitting.refresh_from_db()
    valid = [
        ("payer", str(table.players[2].pk)),
        ("payee", str(table.players[0].pk)),
        ("amount", "1000"),
        ("version", str(table.sitting.version)),
    ]
    before = counts()
    response = owner_client.post(
        reverse("settlement_new", args=[table.sitting.pk]), as_data(mutate(valid, changes))
    )
    assert response.status_code in (200, 302, 409, 422)
    added = Settlement.objects.count() - before["Settlement"]
    note(f"{response.status_code} +{added}")
    assert added == (1 if response.status_code == 302 else 0)
    assert sum(ledger.balances(table.sitting).values()) == 0


@given(
    body=posts(["bank_bin", "account", "holder"], extra=["970436", "0123456789", "NGUYEN VAN AN"])
)
@FUZZ
def test_any_bank_account_body_is_answered(table: Table, owner_client, body):
    response = owner_client.post(reverse("player_bank", args=[table.players[3].pk]), as_data(body))
    assert response.status_code in (200, 302, 422)
