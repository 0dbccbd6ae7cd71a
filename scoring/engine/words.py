"""The engine's words in English: names of plays and hands, and payment explanations.

The engine writes each payment's explanation (``Transfer.detail``) in Vietnamese, and that is
what the ledger stores and exports. :func:`detail_text` reads one back and says it in English,
so an English reader sees "5 cards + thối (2♥)" where the ledger holds "5 lá + 2♥ thối". It
parses exactly the phrases :mod:`.payout` writes; anything else (a detail from an older or
newer engine) comes back unchanged rather than half translated.

Terms the English interface keeps on purpose: thối, cóng, cóng cả làng, đền, tới trắng.
"""

from __future__ import annotations

import re

from .cards import HANDS, PLAYS

PLAYS_EN: dict[str, str] = {
    "heo": "a 2",
    "doi_heo": "pair of 2s",
    "3dt": "3 consecutive pairs",
    "tq": "four of a kind",
    "4dt": "4 consecutive pairs",
}

HANDS_EN: dict[str, str] = {
    "sanh_rong": "dragon (3 to A straight)",
    "6_doi_thong": "6 consecutive pairs",
    "4_sam": "four triples",
    "2_tu_quy": "two fours of a kind",
    "dong_chat_12": "12 cards of one suit",
    "5_doi_thong": "5 consecutive pairs",
    "tu_quy_heo": "four 2s",
    "6_doi": "six pairs",
    "3_sam_thong": "3 consecutive triples",
    "4_sam_thong": "4 consecutive triples",
    "3_tu_quy": "three fours of a kind",
    "dong_mau_12": "12 cards of one colour",
    "thung_pha_sanh": "dragon straight flush",
    "3_doi_thong_3bich": "3 consecutive pairs with 3♠",
    "tu_quy_3": "four 3s",
    "4_doi_thong_3bich": "4 consecutive pairs with 3♠",
}

RANKS_EN: dict[str, str] = {
    "nhất": "1st",
    "nhì": "2nd",
    "ba": "3rd",
    "bét": "last",
    "cóng": "cóng",
}

_FIXED_EN: dict[str, str] = {
    "kết 3♠": "finish on 3♠",
    "chặn kết 3♠": "blocked 3♠ finish",
    "cóng cả làng": "cóng cả làng (pays everyone)",
}

_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♣♦♥]")
_CARDS = re.compile(r"(\d+) lá")
_CONG = re.compile(r"cóng: (\d+) lá ×(\S+)")
_HANG = re.compile(r"(?:(\d+) )?(3 đôi thông|tứ quý|4 đôi thông|5 đôi thông)")
_TWO_OUT = re.compile(r"về bằng heo: (\d+) lá")
_PLACE = re.compile(r"(nhất|nhì|ba|bét|cóng) → (nhất|nhì|ba|bét|cóng)")
_HANG_EN = {
    "3 đôi thông": PLAYS_EN["3dt"],
    "tứ quý": PLAYS_EN["tq"],
    "4 đôi thông": PLAYS_EN["4dt"],
    "5 đôi thông": "5 consecutive pairs",
}
_PLAY_BY_VI = {vi: code for code, vi in PLAYS.items()}
_HAND_BY_VI = {vi: code for code, vi in HANDS.items()}
_DEN = "đền thay "
_THOI = " thối"


def play_label(code: str, lang: str = "vi") -> str:
    """A chặt play by its code, as the reader says it."""
    return (PLAYS_EN if lang == "en" else PLAYS).get(code, code)


def hand_label(code: str, lang: str = "vi") -> str:
    """A tới trắng hand by its code, as the reader says it."""
    return (HANDS_EN if lang == "en" else HANDS).get(code, code)


def detail_text(detail: str, lang: str = "vi") -> str:
    """A payment's explanation in ``lang``; unchanged when it is not one the engine writes."""
    if lang != "en" or not detail:
        return detail
    return _en(detail) or detail


def _en(detail: str) -> str | None:
    if detail in _FIXED_EN:
        return _FIXED_EN[detail]
    if detail.startswith(_DEN):
        # "đền thay <name>: <what name owed>": a name may hold ": " itself, so take the first
        # split whose right side is something the engine writes.
        rest = detail[len(_DEN) :]
        start = 0
        while (cut := rest.find(": ", start)) != -1:
            inner = _en(rest[cut + 2 :])
            if inner is not None:
                return f"đền for {rest[:cut]}: {inner}"
            start = cut + 1
        return None
    for prefix, english in (("chặt chồng: ", "counter-chop: "), ("chặt: ", "chop: ")):
        if detail.startswith(prefix):
            labels = [_chop_label(label) for label in detail[len(prefix) :].split(" + ")]
            if any(label is None for label in labels):
                return None
            return english + " + ".join(label for label in labels if label)
    if match := _PLACE.fullmatch(detail):
        return f"{RANKS_EN[match[1]]} → {RANKS_EN[match[2]]}"
    return _amounts(detail)


def _chop_label(label: str) -> str | None:
    if _CARD.fullmatch(label):
        return label
    if label.startswith("đôi heo ") and all(
        _CARD.fullmatch(card) for card in label[len("đôi heo ") :].split()
    ):
        return PLAYS_EN["doi_heo"] + label[len("đôi heo") :]
    code = _PLAY_BY_VI.get(label)
    return PLAYS_EN[code] if code else None


def _amounts(detail: str) -> str | None:
    """Cards, cóng, tới trắng, each maybe followed by thối; or thối alone."""
    thoi: list[str] = []
    body = detail
    if detail.endswith(_THOI):
        # The thối parts are the last " + "-joined pieces; what comes before them is the rest.
        pieces = detail[: -len(_THOI)].split(" + ")
        while pieces and (part := _thoi_part(pieces[-1])) is not None:
            thoi.insert(0, part)
            pieces.pop()
        if not thoi:
            return None
        body = " + ".join(pieces)
    if not body:
        main = ""
    elif match := _CARDS.fullmatch(body):
        n = int(match[1])
        main = f"{n} card" if n == 1 else f"{n} cards"
    elif match := _TWO_OUT.fullmatch(body):
        n = int(match[1])
        main = f"went out on a 2: {n} card" if n == 1 else f"went out on a 2: {n} cards"
    elif match := _CONG.fullmatch(body):
        main = f"cóng: {match[1]} cards ×{match[2]}"
    elif body.startswith("tới trắng: ") and body[len("tới trắng: ") :] in _HAND_BY_VI:
        main = "tới trắng: " + HANDS_EN[_HAND_BY_VI[body[len("tới trắng: ") :]]]
    else:
        return None
    if not thoi:
        return main
    held = f"thối ({', '.join(thoi)})"
    return f"{main} + {held}" if main else held


def _thoi_part(part: str) -> str | None:
    if _CARD.fullmatch(part):
        return part
    if match := _HANG.fullmatch(part):
        name = _HANG_EN[match[2]]
        return f"{match[1]} × {name}" if match[1] else name
    return None
