"""``{% payqr payment sitting as qr %}``: the VietQR code a payer scans to settle one transfer.

``payment`` is anything with ``payer`` and ``payee`` players and an ``amount`` in đồng (a
suggested transfer or a recorded settlement).

Each transfer carries a short reference (``TL7F3K``, ``transfer_reference``) at the start of
its memo and beside its code, so the payee can match the bank's notification to the payment
waiting for their "đã nhận". It is derived, not stored: a hash of where the money is settled
(the sitting, or the group), payer, payee and amount. So it is the same on every reload, on
the live page and on the scorekeeper's, and the payment recorded from a suggestion shows the
reference the payer's bank sent. ``{% payref payment sitting %}`` prints it.

``qr`` is None when the payee has stored no bank account, and a :class:`NoQR` (with the
account and the reason) when no code can carry the payment, e.g. an amount above the 13
digits of a VietQR amount; the template says so.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.models import Sitting
from scoring.text import vietqr

register = template.Library()

_NOT_IN_MEMO = re.compile(r"[^0-9A-Za-z .,_-]+")
_PAYER_CHARS = 10


def _memo_part(text: str, room: int) -> str:
    """``text`` as memo characters, cut at a word boundary to fit in ``room``."""
    text = " ".join(_NOT_IN_MEMO.sub(" ", vietqr.strip_diacritics(text)).split())
    if len(text) <= room:
        return text
    cut = text[: room + 1].rsplit(" ", 1)[0] if " " in text[: room + 1] else text[:room]
    return cut.strip()


# 32 letters and digits that cannot be misread for one another (no 0/O, 1/I).
_REFERENCE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
REFERENCE_CHARS = 4


def transfer_reference(scope: Any, payer_id: int | None, payee_id: int | None, amount: int) -> str:
    """ "TL" and 4 characters (about a million values) from a hash of the sitting or group
    (``scope``), payer, payee and amount: stable across reloads, and two transfers of one
    settle-up share one only by a one-in-a-million chance."""
    kind = "s" if isinstance(scope, Sitting) else "g"
    return _reference(kind, scope.pk, payer_id, payee_id, amount)


def _reference(
    kind: str, scope_id: int | None, payer_id: int | None, payee_id: int | None, amount: int
) -> str:
    key = f"{kind}{scope_id}:{payer_id}:{payee_id}:{int(amount)}"
    number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")
    chars = []
    for _index in range(REFERENCE_CHARS):
        number, digit = divmod(number, len(_REFERENCE_ALPHABET))
        chars.append(_REFERENCE_ALPHABET[digit])
    return "TL" + "".join(chars)


def transfer_memo(sitting_name: str, payer_name: str, reference: str = "TL") -> str:
    """ "<reference> <sitting> <payer>" in the 25 characters a VietQR memo holds.

    The payer's name is what the payee needs to see in their bank app, so the sitting's name
    is what gets cut short; characters banking apps refuse become spaces.
    """
    payer = _memo_part(payer_name, _PAYER_CHARS)
    room = vietqr.MEMO_MAX_LENGTH - len(reference) - len("  ") - len(payer)
    sitting = _memo_part(sitting_name, room)
    return vietqr.clean_memo(" ".join(part for part in (reference, sitting, payer) if part))


@dataclass(frozen=True)
class PayQR:
    payload: str
    svg: SafeString
    bank: vietqr.Bank
    account: str
    holder: str
    memo: str
    amount: int
    reference: str = ""


@dataclass(frozen=True)
class NoQR:
    """The payee has an account, but no code can carry this payment; ``reason`` says why."""

    reason: str
    bank: vietqr.Bank
    account: str
    holder: str


def pay_qr(payee: Any, amount: int, memo: str, reference: str = "") -> PayQR | NoQR | None:
    bank = vietqr.bank_by_bin(payee.bank_bin or "")
    if bank is None or not payee.bank_account or amount <= 0:
        return None
    try:
        payload = vietqr.vietqr_payload(bank.bin, payee.bank_account, amount, memo)
    except ValueError:
        # One payment no code can carry must not take the page down with it.
        if len(str(amount)) > vietqr.AMOUNT_MAX_DIGITS:
            reason = _(
                "Số tiền dài hơn %(n)d chữ số, mức tối đa một mã VietQR ghi được: hãy chuyển "
                "thành nhiều lần, hoặc gõ số tiền trong ứng dụng ngân hàng."
            ) % {"n": vietqr.AMOUNT_MAX_DIGITS}
        else:
            reason = _("Không tạo được mã VietQR cho khoản này: hãy chuyển theo số tài khoản.")
        return NoQR(reason, bank, payee.bank_account, payee.bank_holder)
    title = _("Mã VietQR chuyển tiền cho %(name)s") % {"name": payee.name}
    return PayQR(
        payload=payload,
        # segno escapes the title and everything else is digits and fixed markup.
        svg=mark_safe(vietqr.qr_svg(payload, title=title)),
        bank=bank,
        account=payee.bank_account,
        holder=payee.bank_holder,
        memo=memo,
        amount=amount,
        reference=reference,
    )


@register.simple_tag
def payqr(payment: Any, sitting: Any) -> PayQR | NoQR | None:
    reference = payref(payment, sitting)
    try:
        memo = transfer_memo(sitting.name, payment.payer.name, reference)
    except ValueError:  # a memo is a courtesy: the code works without one
        memo = ""
    return pay_qr(payment.payee, int(payment.amount), memo, reference)


@register.simple_tag
def payref(payment: Any, sitting: Any) -> str:
    """The transfer's reference (``transfer_reference``); ``sitting`` is its sitting or group.
    Objects that are not rows (no ``pk``, as in a preview) still get one."""
    payer, payee = getattr(payment.payer, "pk", None), getattr(payment.payee, "pk", None)
    scope = sitting if hasattr(sitting, "pk") else Sitting(pk=None)
    return transfer_reference(scope, payer, payee, int(payment.amount))


@register.filter
def settlement_ref(settlement: Any) -> str:
    """A recorded payment's reference: the one its suggestion's code carried (same sitting or
    group, payer, payee and amount), for the payee to find it in their bank's notices. Reads
    only the row's own columns (no query per payment on a long list)."""
    if settlement.sitting_id is not None:
        kind, scope_id = "s", settlement.sitting_id
    else:
        kind, scope_id = "g", settlement.group_id
    return _reference(kind, scope_id, settlement.payer_id, settlement.payee_id, settlement.amount)
