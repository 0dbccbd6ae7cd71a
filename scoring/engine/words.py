"""The engine's words: names of plays and hands, and payment explanations, in Vietnamese and
English.

The engine explains each payment (``Transfer.code`` and ``Transfer.params``) as a code and its
parameters, never as a sentence; :func:`explain` says one in a language. The ledger stores the
code and parameters, so a page words each payment in its reader's language, and the
``score`` command prints the Vietnamese (``Transfer.detail``).

Codes and their parameters (all JSON: strings, whole numbers, lists and objects):

* ``cards`` ``{"n"}``: the cards a first-out loser still held;
* ``cong`` ``{"n", "x"}``: a cóng loser's cards and the cóng multiplier (as written, ``"3/2"``);
* ``two_out`` ``{"n"}``: the cards a player who went out on a 2 pays for;
* ``toi_trang`` ``{"hand"}``: a tới trắng hand's code;
* ``thoi``: thối alone. Each of the above may also carry ``"thoi"``: ``{"heo": [card codes],
  "3dt", "tq", "4dt", "5dt": counts}`` (counts of 0 left out), said after it;
* ``place`` ``{"from", "to"}``: placement between two ranks (``first``, ``second``, ``third``,
  ``last``, ``cong``);
* ``chat`` ``{"steps": [[play, [card codes]], ...]}``: the chopped plays of one chain (one: a
  chặt, more: a chặt chồng);
* ``den`` ``{"player", "code", "params"}``: what ``player`` owed, paid by the đền player;
* ``ket_3_bich``, ``chan_ket_3_bich``, ``cong_ca_lang``: no parameters;
* ``text`` ``{"text"}``: an explanation kept as it was written (a ledger row older than the
  codes that could not be read as one), said as it is in every language.

Terms the English interface keeps on purpose: thối, cóng, cóng cả làng, đền, tới trắng.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import HANDS, PLAYS, card_label

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

#: Ranks of a placement payment: code → (Vietnamese, English).
RANKS: dict[str, tuple[str, str]] = {
    "first": ("nhất", "1st"),
    "second": ("nhì", "2nd"),
    "third": ("ba", "3rd"),
    "last": ("bét", "last"),
    "cong": ("cóng", "cóng"),
}

#: The hàng a thối counts, in the order it is said: code → (Vietnamese, English).
HANG: dict[str, tuple[str, str]] = {
    "3dt": ("3 đôi thông", PLAYS_EN["3dt"]),
    "tq": ("tứ quý", PLAYS_EN["tq"]),
    "4dt": ("4 đôi thông", PLAYS_EN["4dt"]),
    "5dt": ("5 đôi thông", "5 consecutive pairs"),
}

_FIXED: dict[str, tuple[str, str]] = {
    "ket_3_bich": ("kết 3 bích", "kết 3 bích"),
    "chan_ket_3_bich": ("chặn kết 3 bích", "chặn kết 3 bích"),
    "cong_ca_lang": ("cóng cả làng", "cóng cả làng (pays everyone)"),
}

Params = Mapping[str, Any]


def play_label(code: str, lang: str = "vi") -> str:
    """A chặt play by its code, as the reader says it."""
    return (PLAYS_EN if lang == "en" else PLAYS).get(code, code)


def hand_label(code: str, lang: str = "vi") -> str:
    """A tới trắng hand by its code, as the reader says it."""
    return (HANDS_EN if lang == "en" else HANDS).get(code, code)


def thoi_params(heo: Sequence[str], dt3: int, tq: int, dt4: int, dt5: int) -> dict[str, Any]:
    """A hand's thối as explanation parameters (empty when it holds nothing)."""
    held: dict[str, Any] = {"heo": list(heo)} if heo else {}
    for key, count in (("3dt", dt3), ("tq", tq), ("4dt", dt4), ("5dt", dt5)):
        if count:
            held[key] = count
    return held


def explain(code: str, params: Params, lang: str = "vi") -> str:
    """A payment's explanation in ``lang`` ("en" or, for anything else, Vietnamese)."""
    en = lang == "en"
    if code in _FIXED:
        return _FIXED[code][en]
    if code == "text":
        return str(params.get("text", ""))
    if code == "den":
        inner = explain(params["code"], params.get("params", {}), lang)
        return f"{'đền for' if en else 'đền thay'} {params['player']}: {inner}"
    if code == "place":
        return f"{RANKS[params['from']][en]} → {RANKS[params['to']][en]}"
    if code == "chat":
        labels = [_step(play, cards, en) for play, cards in params["steps"]]
        if len(labels) == 1:
            return f"{'chop' if en else 'chặt'}: {labels[0]}"
        return f"{'counter-chop' if en else 'chặt chồng'}: {' + '.join(labels)}"
    main = _main(code, params, en)
    held = params.get("thoi")
    thoi = _thoi(held, en) if held else ""  # most payments carry no thối
    if not thoi:
        return main
    return f"{main} + {thoi}" if main else thoi


def _main(code: str, params: Params, en: bool) -> str:
    if code == "thoi":
        return ""
    if code == "toi_trang":
        return f"tới trắng: {hand_label(params['hand'], 'en' if en else 'vi')}"
    n = params["n"]
    if code == "cong":
        return f"cóng: {n} {'cards' if en else 'lá'} ×{params['x']}"
    if en:
        cards = f"{n} card" if n == 1 else f"{n} cards"
        return f"went out on a 2: {cards}" if code == "two_out" else cards
    if code == "two_out":
        return f"về bằng heo: {n} lá"
    if code == "cards":
        return f"{n} lá"
    raise ValueError(f"unknown explanation code {code!r}")


def _thoi(held: Params, en: bool) -> str:
    parts = [card_label(card) for card in held.get("heo", ())]
    for key, (vi, english) in HANG.items():
        count = held.get(key, 0)
        if count:
            name = english if en else vi
            parts.append(name if count == 1 else f"{count} {'× ' if en else 'bộ '}{name}")
    if not parts:
        return ""
    # Said as a player says it: "thối 2♥ + tứ quý", "thối 2 bộ 3 đôi thông".
    return f"thối ({', '.join(parts)})" if en else "thối " + " + ".join(parts)


def _step(play: str, cards: Sequence[str], en: bool) -> str:
    if play == "heo":
        return card_label(cards[0])
    if play == "doi_heo":
        return play_label(play, "en" if en else "vi") + " " + " ".join(map(card_label, cards))
    return play_label(play, "en" if en else "vi")
