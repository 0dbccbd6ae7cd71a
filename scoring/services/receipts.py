"""The payee's side of a payment: "đã nhận" (confirming money received) and its undo (the
player's own link, where the payee confirms without an account, is ``scoring.services.links``).

A settlement counts in the balances from the moment it is recorded; confirming it changes no
amount, only tells the payer it arrived. So a confirmation is allowed in a closed period too
(the money was handed over before the close, the bank's notice may come after). A voided
payment cannot be confirmed. Confirming twice, or undoing a confirmation that is not there,
changes nothing and returns None; each real change writes a history entry (the sitting's for a
sitting's payment, the group's for a group-wide one) in the same transaction, under the same
lock as the writes of settlements.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Group, GroupHistoryEntry, HistoryEntry, Settlement
from scoring.services.common import Conflict, bump, bump_group, lock_sitting_row


@dataclass(frozen=True)
class Receipt:
    """A confirmation (or its undo) as written: the settlement and the history entry."""

    settlement: Settlement
    entry: HistoryEntry | GroupHistoryEntry


def _lock(settlement: Settlement) -> Settlement:
    """Lock what the settlement belongs to (its sitting, or its group) and read it again."""
    if settlement.sitting is not None:
        lock_sitting_row(settlement.sitting)
    else:
        assert settlement.group_id is not None
        Group.objects.select_for_update().filter(pk=settlement.group_id).first()
    return Settlement.objects.select_related("payer", "payee", "sitting").get(pk=settlement.pk)


def _bump(current: Settlement) -> None:
    if current.sitting is not None:
        bump([current.sitting])
    else:
        assert current.group_id is not None
        bump_group(Group(pk=current.group_id))


def _entry(
    current: Settlement, user: User | None, action: str, note_code: str
) -> HistoryEntry | GroupHistoryEntry:
    after = {
        "from": current.payer.name,
        "to": current.payee.name,
        "amount": current.amount,
        "confirmed": current.confirmed_at is not None,
    }
    if current.sitting is not None:
        return HistoryEntry.objects.create(
            sitting=current.sitting, settlement=current, user=user, action=action, after=after,
            note_code=note_code,
        )  # fmt: skip
    assert current.group_id is not None
    return GroupHistoryEntry.objects.create(
        group_id=current.group_id, settlement=current, user=user, action=action, after=after,
        note_code=note_code,
    )  # fmt: skip


@transaction.atomic(durable=True)
def settlement_confirm(
    *, settlement: Settlement, user: User | None, by_payee: bool = False
) -> Receipt | None:
    """The payee's side says "đã nhận": a scorekeeper (``user``), or the payee through their
    own link (``by_payee``, no account: ``user`` None). None when it was confirmed already."""
    current = _lock(settlement)
    if current.is_void:
        raise Conflict(_("Khoản này đã bị huỷ nên không xác nhận được."))
    if current.confirmed_at is not None:
        return None
    _bump(current)
    current.confirmed_at = timezone.now()
    current.confirmed_by = None if by_payee else user
    current.confirmed_by_payee = by_payee
    current.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_payee"])
    action = HistoryEntry.Action.CONFIRMED  # the same code in both histories
    entry = _entry(current, None if by_payee else user, action, "by_payee" if by_payee else "")
    return Receipt(current, entry)


@transaction.atomic(durable=True)
def settlement_unconfirm(
    *, settlement: Settlement, user: User | None, by_payee: bool = False
) -> Receipt | None:
    """Take a "đã nhận" back (tapped by mistake): the payment waits for confirmation again and
    still counts. None when it was not confirmed."""
    current = _lock(settlement)
    if current.confirmed_at is None:
        return None
    _bump(current)
    current.confirmed_at = None
    current.confirmed_by = None
    current.confirmed_by_payee = False
    current.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_payee"])
    action = HistoryEntry.Action.UNCONFIRMED
    entry = _entry(current, None if by_payee else user, action, "by_payee" if by_payee else "")
    return Receipt(current, entry)
