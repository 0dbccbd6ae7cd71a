"""The payee's "đã nhận": counted at once, confirmed once, undone, never on a voided payment,
every step in the history; and a player's own link turned on, replaced and off."""

import datetime

import pytest

from scoring import services
from scoring.ledger.standing import GroupLedger
from scoring.models import GroupHistoryEntry, HistoryEntry, Settlement
from tests.factories import (
    group_player,
    new_group,
    open_in_group,
    open_sitting,
    player,
    record,
    settle,
    won,
)


def _sitting_payment(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, {"players": ["An", "Bình"], "finish": ["Bình"],
                            "hands": {"An": {"cards": 6}}})  # fmt: skip
    return sitting, settle(sitting, owner, "An", "Bình", 30000)


def test_a_payment_counts_at_once_and_waits_for_the_payee(owner):
    sitting, payment = _sitting_payment(owner)
    assert Settlement.objects.awaiting().filter(pk=payment.pk).exists()
    ledger = GroupLedger.load(sitting.group)
    assert ledger.balances[player(sitting, "An").pk] == 0  # counted before any confirmation
    assert ledger.balances[player(sitting, "Bình").pk] == 0


def test_a_scorekeeper_confirms_once_and_the_history_says_so(owner):
    sitting, payment = _sitting_payment(owner)
    version = Settlement.objects.get(pk=payment.pk).sitting.version
    receipt = services.settlement_confirm(settlement=payment, user=owner)
    assert receipt is not None
    payment.refresh_from_db()
    assert payment.confirmed_at is not None and payment.confirmed_by == owner
    assert not payment.confirmed_by_payee
    sitting.refresh_from_db()
    assert sitting.version == version + 1
    # Again: nothing changes, no second entry, the version stays.
    assert services.settlement_confirm(settlement=payment, user=owner) is None
    sitting.refresh_from_db()
    assert sitting.version == version + 1
    entries = HistoryEntry.objects.filter(settlement=payment, action="confirmed")
    assert entries.count() == 1
    assert entries.get().after == {"from": "An", "to": "Bình", "amount": 30000, "confirmed": True}


def test_a_confirmation_can_be_undone_and_confirmed_again(owner):
    _sitting, payment = _sitting_payment(owner)
    services.settlement_confirm(settlement=payment, user=owner)
    assert services.settlement_unconfirm(settlement=payment, user=owner) is not None
    payment.refresh_from_db()
    assert (
        Settlement.objects.awaiting().filter(pk=payment.pk).exists()
        and payment.confirmed_by is None
    )
    assert services.settlement_unconfirm(settlement=payment, user=owner) is None
    services.settlement_confirm(settlement=payment, user=None, by_payee=True)
    payment.refresh_from_db()
    assert (
        payment.confirmed_at is not None
        and payment.confirmed_by_payee
        and payment.confirmed_by is None
    )
    actions = list(
        HistoryEntry.objects.filter(settlement=payment).order_by("id").values_list("action", "user")
    )
    assert actions == [
        ("settled", owner.pk), ("confirmed", owner.pk), ("unconfirmed", owner.pk),
        ("confirmed", None),
    ]  # fmt: skip


def test_a_voided_payment_cannot_be_confirmed(owner):
    _sitting, payment = _sitting_payment(owner)
    services.settlement_void(settlement=payment, user=owner, reason="")
    with pytest.raises(services.Conflict):
        services.settlement_confirm(settlement=payment, user=owner)
    payment.refresh_from_db()
    assert payment.confirmed_at is None
    assert not HistoryEntry.objects.filter(settlement=payment, action="confirmed").exists()


def test_a_group_payment_is_confirmed_in_the_groups_history(owner):
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình"])
    won(sitting, owner, "Bình", {"An": 4})
    payment = services.group_settlement_record(
        group=group, user=owner, payer=group_player(group, "An"),
        payee=group_player(group, "Bình"), amount=20000,
    ).value  # fmt: skip
    group.refresh_from_db()
    version = group.version
    assert services.settlement_confirm(settlement=payment, user=None, by_payee=True) is not None
    assert services.settlement_confirm(settlement=payment, user=owner) is None
    group.refresh_from_db()
    assert group.version == version + 1
    entry = GroupHistoryEntry.objects.get(settlement=payment, action="confirmed")
    assert entry.user is None and entry.note_code == "by_payee"
    services.group_settlement_void(settlement=payment, user=owner)
    payment.refresh_from_db()
    # Voided after its confirmation: the undo still works, a new confirmation does not.
    assert services.settlement_unconfirm(settlement=payment, user=owner) is not None
    with pytest.raises(services.Conflict):
        services.settlement_confirm(settlement=payment, user=owner)


def test_a_player_link_is_made_replaced_and_revoked(owner, stranger):
    group = new_group(owner, "Nhóm Tết")
    open_in_group(group, owner, ["An", "Bình"])
    an = group_player(group, "An")
    first = services.player_link(player=an, user=owner, action="enable")
    assert first and len(first) == 43
    assert services.player_link(player=an, user=owner, action="enable") == first
    second = services.player_link(player=an, user=owner, action="regenerate")
    assert second and second != first
    assert services.player_link(player=an, user=owner, action="revoke") is None
    assert services.player_link(player=an, user=owner, action="revoke") is None  # off already
    an.refresh_from_db()
    assert an.link_token is None
    # On, new, off: the two calls that changed nothing wrote nothing.
    entries = GroupHistoryEntry.objects.filter(group=group, action="player_link")
    assert entries.count() == 3
    assert all(first not in str(e.after) and second not in str(e.after) for e in entries)
    with pytest.raises(services.InvalidInput):
        services.player_link(player=an, user=stranger, action="enable")


def test_a_payment_in_a_closed_period_can_still_be_confirmed(owner):
    # The money was handed over before the close; the bank's notice may come after it. A
    # confirmation moves no amount, so the close does not freeze it (a void stays refused).
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình"], day=datetime.date(2026, 11, 1))
    won(sitting, owner, "Bình", {"An": 4})
    payment = settle(sitting, owner, "An", "Bình", 4000)
    services.period_close(group=group, user=owner, through=datetime.date(2026, 11, 9))
    assert services.settlement_confirm(settlement=payment, user=owner) is not None
    with pytest.raises(services.Conflict):
        services.settlement_void(settlement=payment, user=owner, reason="")
