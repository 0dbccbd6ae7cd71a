"""``{% payqr payment sitting as qr %}``: the VietQR code a payer scans to settle one transfer.

``payment`` is anything with ``payer`` and ``payee`` players and an ``amount`` in đồng (a
suggested transfer or a recorded settlement). ``qr`` is None when the payee has stored no
bank account, so the template can say so instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring import vietqr

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


def transfer_memo(sitting_name: str, payer_name: str) -> str:
    """ "TL <sitting> <payer>" in the 25 characters a VietQR memo holds.

    The payer's name is what the payee needs to see in their bank app, so the sitting's name
    is what gets cut short; characters banking apps refuse become spaces.
    """
    payer = _memo_part(payer_name, _PAYER_CHARS)
    sitting = _memo_part(sitting_name, vietqr.MEMO_MAX_LENGTH - len("TL  ") - len(payer))
    return vietqr.clean_memo(" ".join(part for part in ("TL", sitting, payer) if part))


@dataclass(frozen=True)
class PayQR:
    payload: str
    svg: SafeString
    bank: vietqr.Bank
    account: str
    holder: str
    memo: str
    amount: int


def pay_qr(payee: Any, amount: int, memo: str) -> PayQR | None:
    bank = vietqr.bank_by_bin(payee.bank_bin or "")
    if bank is None or not payee.bank_account or amount <= 0:
        return None
    payload = vietqr.vietqr_payload(bank.bin, payee.bank_account, amount, memo)
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
    )


@register.simple_tag
def payqr(payment: Any, sitting: Any) -> PayQR | None:
    return pay_qr(
        payment.payee, int(payment.amount), transfer_memo(sitting.name, payment.payer.name)
    )
