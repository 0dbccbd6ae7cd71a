"""Money handed over: a pay tap sent twice records it once, and undoing it voids it."""

import uuid

import pytest

from scoring import services
from scoring.ledger.standing import ledger_version
from scoring.models import GroupHistoryEntry, HistoryEntry, Settlement
from scoring.text.wording import SETTLEMENT_VOID_NOTE
from tests.factories import (
    first_out,
    group_player,
    new_group,
    open_in_group,
    open_sitting,
    player,
    record,
    won,
)


def _pay(sitting, owner, token, amount=5000, version=None):
    return services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "An"),
        payee=player(sitting, "Bình"),
        amount=amount,
        expected_version=sitting.version if version is None else version,
        token=token,
    )


def test_it_answers_a_resent_pay_tap_with_the_payment_it_made(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    sitting.refresh_from_db()
    version, token = sitting.version, uuid.uuid4()
    first = _pay(sitting, owner, token, version=version)
    # The same tap again, from the page as it was before the first send moved the version on.
    again = _pay(sitting, owner, token, version=version)
    assert again.pk == first.pk
    assert Settlement.objects.filter(sitting=sitting).count() == 1
    assert HistoryEntry.objects.filter(action=HistoryEntry.Action.SETTLED).count() == 1


def test_it_refuses_a_token_sent_again_for_another_payment(owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    _pay(sitting, owner, token, version=sitting.version)
    sitting.refresh_from_db()
    with pytest.raises(services.Conflict):
        _pay(sitting, owner, token, amount=6000)
    assert Settlement.objects.filter(sitting=sitting).count() == 1


def test_it_still_refuses_two_different_taps_on_one_stale_suggestion(owner):
    sitting = open_sitting(owner)
    version = sitting.version
    _pay(sitting, owner, uuid.uuid4(), version=version)
    with pytest.raises(services.Conflict):
        _pay(sitting, owner, uuid.uuid4(), version=version)
    assert Settlement.objects.filter(sitting=sitting).count() == 1


def test_it_undoes_a_payment_by_voiding_it_with_a_history_entry(owner):
    sitting = open_sitting(owner)
    paid = _pay(sitting, owner, uuid.uuid4())
    entry = services.settlement_void(settlement=paid, user=owner, reason="")
    assert entry is not None
    assert entry.action == HistoryEntry.Action.SETTLEMENT_VOIDED
    assert entry.settlement_id == paid.pk
    paid.refresh_from_db()
    assert paid.is_void
    assert paid.void_reason == SETTLEMENT_VOID_NOTE


def _group_pay(group, owner, token, version, amount=4000):
    return services.group_settlement_record(
        group=group,
        user=owner,
        payer=group_player(group, "An"),
        payee=group_player(group, "Bình"),
        amount=amount,
        expected_version=version,
        token=token,
    )


def test_it_answers_a_resent_group_pay_tap_with_the_payment_it_made(owner):
    group = new_group(owner, "Thứ Bảy")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"])
    won(sitting, owner, "Bình", {"An": 4, "Chi": 1})
    version, token = ledger_version(group), uuid.uuid4()
    first = _group_pay(group, owner, token, version)
    again = _group_pay(group, owner, token, version)
    assert again.value.pk == first.value.pk
    assert again.entry.pk == first.entry.pk
    assert Settlement.objects.filter(group=group).count() == 1
    assert GroupHistoryEntry.objects.filter(action=GroupHistoryEntry.Action.SETTLED).count() == 1
    with pytest.raises(services.Conflict):
        _group_pay(group, owner, token, ledger_version(group), amount=1000)


def test_it_undoes_a_group_payment_by_voiding_it_with_a_history_entry(owner):
    group = new_group(owner, "Thứ Bảy")
    open_in_group(group, owner, ["An", "Bình"])
    paid = _group_pay(group, owner, uuid.uuid4(), ledger_version(group)).value
    undone = services.group_settlement_void(settlement=paid, user=owner)
    assert undone is not None
    assert undone.entry.action == GroupHistoryEntry.Action.SETTLEMENT_VOIDED
    paid.refresh_from_db()
    assert paid.is_void
