"""Writes of money handed over at settle-up: recording it, and voiding a mistaken one."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import MAX_SETTLEMENTS, HistoryEntry, Player, Settlement, Sitting
from scoring.services.common import (
    Conflict,
    InvalidInput,
    bump,
    check_amount,
    lock_sitting_row,
    refuse_if_frozen,
    replayed_check,
    safe_text,
    write_once,
)
from scoring.services.totals import refresh_totals
from scoring.text.wording import SETTLEMENT_VOID_NOTE, void_note


def settlement_record(
    *,
    sitting: Sitting,
    user: User,
    payer: Player,
    payee: Player,
    amount: int,
    expected_version: int | None = None,
    token: uuid.UUID | None = None,
) -> Settlement:
    """Record money handed over. ``expected_version`` is the ledger version the suggestion
    was computed from: two taps on one suggestion, or two phones, must not pay it twice, so
    under the row lock a changed ledger is a ``Conflict`` and nothing is written.

    ``token`` names the tap: sent again (a retry, a queue resent on reconnect) it is answered
    with the settlement it already made, before the version is compared, since that first send
    is what moved the version on."""
    if payer.pk == payee.pk:
        raise InvalidInput(_("Người trả và người nhận phải khác nhau."), "payee")
    check_amount(amount)

    def find() -> Settlement | None:
        if token is None:
            return None
        return Settlement.objects.filter(submission_token=token).first()

    def write() -> tuple[Settlement, bool]:
        locked = lock_sitting_row(sitting)
        existing = find()
        if existing is not None:
            return existing, False
        refuse_if_frozen(locked)
        if expected_version is not None and locked.version != expected_version:
            raise Conflict(
                _(
                    "Sổ vừa thay đổi (có người ghi thêm) nên chưa ghi khoản này. "
                    "Các gợi ý đã được tính lại: xem lại rồi bấm lần nữa."
                )
            )
        bump([locked])
        member_ids = set(locked.memberships.values_list("player_id", flat=True))
        if payer.pk not in member_ids or payee.pk not in member_ids:
            raise InvalidInput(_("Cả hai người phải là thành viên của bàn."), "payer")
        if locked.settlements.count() >= MAX_SETTLEMENTS:
            raise InvalidInput(
                _(
                    "Bàn này đã có %(n)d khoản trả, số tối đa của một bàn (huỷ cũng tính). "
                    "Hãy ghi tiếp ở một bàn mới."
                )
                % {"n": MAX_SETTLEMENTS}
            )
        settlement = Settlement.objects.create(
            sitting=locked,
            payer=payer,
            payee=payee,
            amount=amount,
            created_by=user,
            submission_token=token,
        )
        refresh_totals([locked.pk])
        HistoryEntry.objects.create(
            sitting=locked,
            settlement=settlement,
            user=user,
            action=HistoryEntry.Action.SETTLED,
            after={"from": payer.name, "to": payee.name, "amount": amount},
        )
        return settlement, True

    settlement, _created = write_once(write, find)
    replayed_check(settlement, payer=payer, payee=payee, amount=amount)
    if settlement.sitting_id != sitting.pk:
        raise Conflict(
            _("Khoản trả này đã được ghi rồi (có lẽ do bấm hai lần). Hãy tải lại trang để xem.")
        )
    return settlement


@transaction.atomic(durable=True)
def settlement_void(*, settlement: Settlement, user: User, reason: str) -> HistoryEntry | None:
    """Take money handed over out of the balances (it was recorded by mistake). Returns the
    history entry written, or None when it was void already (nothing changes)."""
    assert settlement.sitting is not None
    locked = lock_sitting_row(settlement.sitting)
    refuse_if_frozen(locked)
    current = Settlement.objects.get(pk=settlement.pk)
    if current.is_void:
        return None
    note = (safe_text(reason, "reason") or SETTLEMENT_VOID_NOTE)[:200]
    bump([locked])
    current.is_void = True
    current.void_reason = note
    current.save(update_fields=["is_void", "void_reason"])
    refresh_totals([locked.pk])
    return HistoryEntry.objects.create(
        sitting=locked,
        settlement=current,
        user=user,
        action=HistoryEntry.Action.SETTLEMENT_VOIDED,
        **void_note(current.void_reason),
    )
