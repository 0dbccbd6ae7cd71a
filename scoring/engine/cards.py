"""Cards, plays and special hands, as the scorekeeper names them.

Card text is rank then suit: ``3S``, ``10D``, ``QC``, ``2H``; the suit symbols ♠♣♦♥ (and the
white ♤♧♢♡) are accepted too, and letters in either case. The canonical form is the letter form.
Card order, weakest to strongest: ranks 3 … A 2, then suits ♠ < ♣ < ♦ < ♥.

Terms: *heo* is a 2; *đôi heo* a pair of 2s; *hàng* (bombs) are 3 đôi thông (``3dt``), tứ quý
(``tq``) and 4 đôi thông (``4dt``, longer runs of pairs count as 4dt). *Chặt* is chopping a heo,
đôi heo or hàng with a hàng. *Tới trắng* is an instant win at the deal with a special hand.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS: tuple[str, ...] = ("S", "C", "D", "H")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_SUIT_ALIASES: dict[str, str] = {
    "S": "S", "C": "C", "D": "D", "H": "H",
    "♠": "S", "♣": "C", "♦": "D", "♥": "H",
    "♤": "S", "♧": "C", "♢": "D", "♡": "H",
}  # fmt: skip

#: Every accepted spelling of a card → its canonical letter form.
_CARD_TEXT: dict[str, str] = {}
#: Canonical card → strength (higher is stronger): rank first, then suit.
CARD_STRENGTH: dict[str, int] = {}
for _r, _rank in enumerate(RANKS):
    for _s, _suit in enumerate(SUITS):
        CARD_STRENGTH[_rank + _suit] = _r * 4 + _s
for _rank in RANKS:
    for _alias, _suit in _SUIT_ALIASES.items():
        for _rank_text in {_rank, _rank.lower()}:
            for _alias_text in {_alias, _alias.lower()}:
                _CARD_TEXT[_rank_text + _alias_text] = _rank + _suit

#: The four heo (2s), weakest first, and the penalty-table key of each.
HEO_CARDS: tuple[str, ...] = ("2S", "2C", "2D", "2H")


def parse_card(text: object) -> str | None:
    """The canonical form of a card text, or None when it is not a card."""
    if not isinstance(text, str):
        return None
    return _CARD_TEXT.get(text.strip())


def card_label(card: str) -> str:
    """A card as people write it: ``2♥``."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


#: Plays that can appear in a chặt chain → Vietnamese name.
PLAYS: dict[str, str] = {
    "heo": "heo",
    "doi_heo": "đôi heo",
    "3dt": "3 đôi thông",
    "tq": "tứ quý",
    "4dt": "4 đôi thông",
}
HANG: tuple[str, ...] = ("3dt", "tq", "4dt")

ChopTable = tuple[tuple[str, tuple[str, ...]], ...]
#: Which plays each hàng may chop (docs/rules.md#chopping): the standard table, and the default
#: of a rule set's ``chops`` (a table may remove or add entries). A heo or đôi heo never chops
#: anything, and nothing chops three 2s whatever the table says.
DEFAULT_CHOPS: ChopTable = (
    ("3dt", ("heo", "3dt")),
    ("tq", ("heo", "doi_heo", "3dt", "tq")),
    ("4dt", ("heo", "doi_heo", "3dt", "tq", "4dt")),
)


def legal_chops(play: str, chops: ChopTable = DEFAULT_CHOPS) -> set[str]:
    """The plays that may chop ``play`` under the chop table ``chops`` (empty for anything
    else, e.g. three 2s)."""
    return {chopper for chopper, targets in chops if play in targets}


def can_chop(chopper: str, chopped: str, chops: ChopTable = DEFAULT_CHOPS) -> bool:
    return chopped in next((targets for hang, targets in chops if hang == chopper), ())


#: Tới trắng hand ids → Vietnamese name, in the strength order of list C first.
HANDS: dict[str, str] = {
    "sanh_rong": "sảnh rồng",
    "6_doi_thong": "6 đôi thông",
    "4_sam": "4 sám cô",
    "2_tu_quy": "2 tứ quý",
    "dong_chat_12": "12 lá đồng chất",
    "5_doi_thong": "5 đôi thông",
    "tu_quy_heo": "tứ quý heo",
    "6_doi": "6 đôi",
    "3_sam_thong": "3 sám cô thông",
    "4_sam_thong": "4 sám cô thông",
    "3_tu_quy": "3 tứ quý",
    "dong_mau_12": "12 lá đồng màu",
    "thung_pha_sanh": "sảnh rồng đồng hoa",
    "3_doi_thong_3bich": "3 đôi thông có 3♠",
    "tu_quy_3": "tứ quý 3",
    "4_doi_thong_3bich": "4 đôi thông có 3♠",
}

#: Hand list A of docs/rules.md#instant-win-hands.
HANDS_A: tuple[str, ...] = ("sanh_rong", "tu_quy_heo", "5_doi_thong", "6_doi")
#: Hand list B: A plus more, and three hands that only count in a ván khởi đầu.
HANDS_B_OPENING_ONLY: tuple[str, ...] = ("3_doi_thong_3bich", "tu_quy_3", "4_doi_thong_3bich")
HANDS_B: tuple[str, ...] = (
    *HANDS_A,
    "6_doi_thong",
    "3_sam_thong",
    "4_sam_thong",
    "4_sam",
    "3_tu_quy",
    "dong_mau_12",
    "thung_pha_sanh",
    *HANDS_B_OPENING_ONLY,
)
#: Hand list C with what each loser pays, strongest first.
HANDS_C: tuple[tuple[str, int], ...] = (
    ("sanh_rong", 9),
    ("6_doi_thong", 8),
    ("4_sam", 7),
    ("2_tu_quy", 6),
    ("dong_chat_12", 5),
    ("5_doi_thong", 4),
    ("tu_quy_heo", 3),
    ("6_doi", 2),
)
