"""VietQR: the QR code a Vietnamese banking app scans to pre-fill a transfer.

The payload is an EMVCo merchant-presented QR string as profiled by NAPAS for
its 24/7 interbank transfer service ("IBFT"). Every field is ``ID LEN VALUE``:
two digits of ID, two digits of length, then the value; some values are
themselves lists of such fields. The last field, 63, is a CRC-16/CCITT-FALSE
over everything before it, including its own ``6304`` header.

Pure Python on purpose (no Django): views and template tags call it, and the
tests check it against payloads published by others.
"""

from __future__ import annotations

import binascii
import io
import re
import unicodedata
from dataclasses import dataclass

import segno

__all__ = [
    "BANKS",
    "Bank",
    "bank_by_bin",
    "clean_memo",
    "crc16_ccitt",
    "qr_svg",
    "strip_diacritics",
    "vietqr_payload",
]


@dataclass(frozen=True, slots=True)
class Bank:
    bin: str
    short_name: str
    name: str


# The acquirer ID that goes in field 38/01/00. For banks with a 970xxx number it is
# the card BIN the State Bank of Vietnam assigned (its published BIN list); the
# digital banks and several foreign banks use the number NAPAS gave them for
# VietQR, as listed by the public VietQR bank directory. Banks that merged or
# were renamed keep their BIN, so both names are given where people still use
# the old one.
BANKS: tuple[Bank, ...] = (
    Bank("970436", "Vietcombank", "Ngân hàng TMCP Ngoại thương Việt Nam"),
    Bank("970415", "VietinBank", "Ngân hàng TMCP Công thương Việt Nam"),
    Bank("970418", "BIDV", "Ngân hàng TMCP Đầu tư và Phát triển Việt Nam"),
    Bank("970405", "Agribank", "Ngân hàng Nông nghiệp và Phát triển Nông thôn Việt Nam"),
    Bank("970407", "Techcombank", "Ngân hàng TMCP Kỹ thương Việt Nam"),
    Bank("970422", "MB", "Ngân hàng TMCP Quân đội"),
    Bank("970416", "ACB", "Ngân hàng TMCP Á Châu"),
    Bank("970432", "VPBank", "Ngân hàng TMCP Việt Nam Thịnh Vượng"),
    Bank("970423", "TPBank", "Ngân hàng TMCP Tiên Phong"),
    Bank("970403", "Sacombank", "Ngân hàng TMCP Sài Gòn Thương Tín"),
    Bank("970437", "HDBank", "Ngân hàng TMCP Phát triển Thành phố Hồ Chí Minh"),
    Bank("970441", "VIB", "Ngân hàng TMCP Quốc tế Việt Nam"),
    Bank("970443", "SHB", "Ngân hàng TMCP Sài Gòn – Hà Nội"),
    Bank("970431", "Eximbank", "Ngân hàng TMCP Xuất Nhập khẩu Việt Nam"),
    Bank("970426", "MSB", "Ngân hàng TMCP Hàng Hải Việt Nam"),
    Bank("970440", "SeABank", "Ngân hàng TMCP Đông Nam Á"),
    Bank("970448", "OCB", "Ngân hàng TMCP Phương Đông"),
    Bank("970449", "LPBank", "Ngân hàng TMCP Lộc Phát Việt Nam (trước là LienVietPostBank)"),
    Bank("970428", "Nam A Bank", "Ngân hàng TMCP Nam Á"),
    Bank("970409", "Bac A Bank", "Ngân hàng TMCP Bắc Á"),
    Bank("970412", "PVcomBank", "Ngân hàng TMCP Đại Chúng Việt Nam"),
    Bank("970427", "VietABank", "Ngân hàng TMCP Việt Á"),
    Bank("970425", "ABBANK", "Ngân hàng TMCP An Bình"),
    Bank("970438", "BaoViet Bank", "Ngân hàng TMCP Bảo Việt"),
    Bank("970452", "Kienlongbank", "Ngân hàng TMCP Kiên Long"),
    Bank("970419", "NCB", "Ngân hàng TMCP Quốc Dân"),
    Bank("970429", "SCB", "Ngân hàng TMCP Sài Gòn"),
    Bank("970400", "Saigonbank", "Ngân hàng TMCP Sài Gòn Công Thương"),
    Bank("970430", "PGBank", "Ngân hàng TMCP Thịnh vượng và Phát triển"),
    Bank("970433", "VietBank", "Ngân hàng TMCP Việt Nam Thương Tín"),
    Bank("970408", "GPBank", "Ngân hàng Thương mại TNHH MTV Dầu Khí Toàn Cầu"),
    Bank(
        "970406",
        "Vikki (DongA Bank)",
        "Ngân hàng TNHH MTV Số Vikki (trước là Ngân hàng TMCP Đông Á)",
    ),
    Bank("970454", "BVBank (Viet Capital Bank)", "Ngân hàng TMCP Bản Việt"),
    Bank("970414", "MBV (OceanBank)", "Ngân hàng TNHH MTV Việt Nam Hiện Đại (trước là OceanBank)"),
    Bank("970444", "CBBank", "Ngân hàng Thương mại TNHH MTV Xây dựng Việt Nam"),
    Bank("970446", "Co-opBank", "Ngân hàng Hợp tác xã Việt Nam"),
    Bank("970421", "VRB", "Ngân hàng Liên doanh Việt – Nga"),
    Bank("970434", "Indovina Bank", "Ngân hàng TNHH Indovina"),
    Bank("970442", "Hong Leong Bank", "Ngân hàng TNHH MTV Hong Leong Việt Nam"),
    Bank("422589", "CIMB", "Ngân hàng TNHH MTV CIMB Việt Nam"),
    Bank("970457", "Woori Bank", "Ngân hàng TNHH MTV Woori Việt Nam"),
    Bank("970424", "Shinhan Bank", "Ngân hàng TNHH MTV Shinhan Việt Nam"),
    Bank("970458", "UOB", "Ngân hàng United Overseas Bank Việt Nam"),
    Bank("970439", "Public Bank", "Ngân hàng TNHH MTV Public Việt Nam"),
    Bank("970410", "Standard Chartered", "Ngân hàng TNHH MTV Standard Chartered Bank Việt Nam"),
    Bank("458761", "HSBC", "Ngân hàng TNHH MTV HSBC (Việt Nam)"),
    Bank("546034", "Cake", "Ngân hàng số CAKE by VPBank"),
    Bank("546035", "Ubank", "Ngân hàng số Ubank by VPBank"),
    Bank("963388", "Timo", "Ngân hàng số Timo by Ban Viet Bank"),
)

_BANKS_BY_BIN = {bank.bin: bank for bank in BANKS}


def bank_by_bin(bank_bin: str) -> Bank | None:
    return _BANKS_BY_BIN.get(bank_bin)


# NAPAS's identifier for its VietQR scheme, and the service "transfer to an
# account" (QRIBFTTC would be "to a card number").
_NAPAS_GUID = "A000000727"
_SERVICE_TO_ACCOUNT = "QRIBFTTA"
_CURRENCY_VND = "704"

_BIN_RE = re.compile(r"[0-9]{6}")
_ACCOUNT_RE = re.compile(r"[0-9A-Za-z]{1,19}")
# Field 62/08 is "ans" up to 25 characters. Banking apps are stricter than the
# spec: several drop or refuse punctuation, so only a safe subset is let through.
_MEMO_RE = re.compile(r"[0-9A-Za-z .,_-]*")
MEMO_MAX_LENGTH = 25
AMOUNT_MAX_DIGITS = 13


def crc16_ccitt(data: bytes) -> str:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout), which is
    what ``binascii.crc_hqx`` computes from the initial value 0xFFFF."""
    return f"{binascii.crc_hqx(data, 0xFFFF):04X}"


def strip_diacritics(s: str) -> str:
    """Drop Vietnamese marks: "Tiến Lên, đồng" -> "Tien Len, dong".

    NFD splits a Vietnamese letter into its base and its tone/shape marks,
    which are dropped; đ/Đ is a letter of its own, not a d with a mark, so it
    is mapped by hand.
    """
    s = s.replace("đ", "d").replace("Đ", "D")
    decomposed = unicodedata.normalize("NFD", s)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def clean_memo(memo: str) -> str:
    """The memo as it will be sent: ASCII, single spaces, checked.

    Raises ValueError if what remains is too long or has a character banking
    apps may refuse.
    """
    text = " ".join(strip_diacritics(memo).split())
    if len(text) > MEMO_MAX_LENGTH:
        raise ValueError(
            f"Memo is {len(text)} characters long; at most {MEMO_MAX_LENGTH} fit in a VietQR code."
        )
    if not _MEMO_RE.fullmatch(text):
        bad = sorted({ch for ch in text if not _MEMO_RE.fullmatch(ch)})
        raise ValueError(
            "Memo may only hold letters, digits, spaces and . , - _ "
            f"(found {' '.join(repr(ch) for ch in bad)})."
        )
    return text


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"Field {tag} is {len(value)} characters long; the limit is 99.")
    return f"{tag}{len(value):02d}{value}"


def vietqr_payload(bank_bin: str, account: str, amount: int | None, memo: str) -> str:
    """The VietQR string for a transfer of ``amount`` đồng to ``account``.

    ``amount=None`` gives a static code (the payer types the amount, point of
    initiation "11"); an amount gives a dynamic one ("12"). Spaces inside the
    account number are dropped, since people copy it grouped ("0123 4567 89").
    """
    if not isinstance(bank_bin, str) or not _BIN_RE.fullmatch(bank_bin):
        raise ValueError(f"Bank BIN must be 6 digits, got {bank_bin!r}.")
    account_no = "".join(account.split())
    if not _ACCOUNT_RE.fullmatch(account_no):
        raise ValueError("Account number must be 1 to 19 letters or digits (A-Z, 0-9).")
    if amount is not None:
        # bool is an int; True đồng is certainly a bug upstream.
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ValueError(f"Amount must be a whole number of đồng, got {amount!r}.")
        if amount <= 0:
            raise ValueError(f"Amount must be positive, got {amount}.")
        if len(str(amount)) > AMOUNT_MAX_DIGITS:
            raise ValueError(f"Amount may have at most {AMOUNT_MAX_DIGITS} digits.")
    note = clean_memo(memo)

    beneficiary = _field("00", bank_bin) + _field("01", account_no)
    merchant_account = (
        _field("00", _NAPAS_GUID) + _field("01", beneficiary) + _field("02", _SERVICE_TO_ACCOUNT)
    )
    parts = [
        _field("00", "01"),
        _field("01", "11" if amount is None else "12"),
        _field("38", merchant_account),
        _field("53", _CURRENCY_VND),
    ]
    if amount is not None:
        parts.append(_field("54", str(amount)))
    parts.append(_field("58", "VN"))
    if note:
        parts.append(_field("62", _field("08", note)))
    body = "".join(parts) + "6304"
    return body + crc16_ccitt(body.encode("ascii"))


def qr_svg(payload: str, *, title: str | None = None) -> str:
    """The QR code as an inline ``<svg>`` element for an HTML page.

    One SVG unit is one module and there is no width or height, only a
    ``viewBox``: CSS sizes it. The quiet zone is the 4 modules the QR standard
    asks for, and the light modules are painted white so the code still scans
    on a dark theme. Error correction is M, as VietQR codes usually are.
    """
    qr = segno.make(payload, error="m", boost_error=False, micro=False)
    out = io.BytesIO()
    qr.save(
        out,
        kind="svg",
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgns=True,
        nl=False,
        omitsize=True,
        svgclass="vietqr",
        title=title,
    )
    svg = out.getvalue().decode("utf-8")
    # segno escapes the title. Untitled, the code is decoration for a screen
    # reader: the page is expected to print the account and amount as text.
    attrs = 'role="img"' if title else 'aria-hidden="true"'
    return svg.replace("<svg ", f"<svg {attrs} ", 1)
