"""A rule set: every number of a scoring scheme, editable (its JSON form: :mod:`.rulejson`).

Values are exact :class:`~fractions.Fraction` (schemes use halves: ½, 1½). In JSON a value is an
int when whole, otherwise a string ``"a/b"``; on input ``"1.5"``, ``"½"``, ``"1½"`` and floats
that are exact decimals are accepted too. ``docs/rules-json.md`` documents every field.

Decisions where the rules leave room (each is a validation rule below; they are also in
docs/record-format.md#engine-choices):

* ``cong_multiplier`` is at least 1: cóng never costs less than losing with the same cards.
* placement values are listed nhất first, never increase down the ranks and sum to 0 (so a game
  without cóng balances); ``cong_score`` is at most the last placement value, so the nhất's
  balancing amount is never negative.
* ``toi_trang_counts_thoi`` as a list names accepted tới trắng hands only, kept in the order of
  ``HANDS``; an empty list reads as ``false``.
* ``chops`` may give only some of its three rows; the others keep the default (or the base
  preset's) row. Each row lists distinct plays; any play may be listed (a table's own choice).
* ``thoi_to = "above"``, ``cong_thoi_to = "above"`` and ``ket_3_bich`` only make sense in
  ``placement`` / ``first_out`` mode respectively and are refused in the other.
* fields that a mode does not use still hold sane values (the defaults), so a clone can switch
  mode and stay valid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import pairwise
from typing import TYPE_CHECKING

from .cards import DEFAULT_CHOPS, HANDS, HANDS_A, PLAYS, ChopTable, legal_chops
from .problems import Problem
from .readnumbers import VULGAR_FRACTIONS

if TYPE_CHECKING:
    from typing import Any, Literal, Protocol

    Mode = Literal["first_out", "placement"]
    ThoiTo = Literal["winner", "above"]
    DenWhen = Literal["any_cong", "all_cong", "always", "never"]
    KetMode = Literal["instead", "plus"]
    TwoOut = Literal["allowed", "bet"]

    class _AddProblem(Protocol):
        def __call__(self, path: str, code: str, **params: Any) -> None: ...


MODES: tuple[str, ...] = ("first_out", "placement")
THOI_TO: tuple[str, ...] = ("winner", "above")
#: When a đền may be recorded: at least one loser cóng, every loser cóng (default: the source's
#: "cóng 3 nhà … xét đền"), any game (also a player who exposed cards, with no cóng), or never.
DEN_WHEN: tuple[str, ...] = ("any_cong", "all_cong", "always", "never")
#: What kết 3 bích does to the card and thối money: the kết value replaces it, or comes on top.
KET_3_BICH_MODES: tuple[str, ...] = ("instead", "plus")
#: Going out on a 2: allowed like any card, or the player goes to bét ("về bét").
TWO_OUT: tuple[str, ...] = ("allowed", "bet")
#: The hàng that chop, the rows of a ``chops`` table.
CHOPPERS: tuple[str, ...] = ("3dt", "tq", "4dt")

#: Keys of a penalty table in JSON (and in ``PenaltyTable[...]``).
PENALTY_KEYS: tuple[str, ...] = ("2S", "2C", "2D", "2H", "3dt", "tq", "4dt")


@dataclass(frozen=True, slots=True)
class PenaltyTable:
    """What each heo (by suit) and each hàng costs, for thối and for chặt.
    ``table["2H"]``, ``table["3dt"]`` read it by its JSON key."""

    heo_s: Fraction
    heo_c: Fraction
    heo_d: Fraction
    heo_h: Fraction
    dt3: Fraction
    tq: Fraction
    dt4: Fraction

    def __getitem__(self, key: str) -> Fraction:
        value: Fraction = getattr(self, _PENALTY_ATTRS[key])
        return value

    def items(self) -> list[tuple[str, Fraction]]:
        return [(k, self[k]) for k in PENALTY_KEYS]

    @classmethod
    def of(cls, *values: int | Fraction) -> PenaltyTable:
        """Build from values in ``PENALTY_KEYS`` order."""
        return cls(*(Fraction(v) for v in values))


#: Each JSON key to its field: the fields are in ``PENALTY_KEYS`` order.
_PENALTY_ATTRS = dict(zip(PENALTY_KEYS, (f.name for f in fields(PenaltyTable)), strict=True))

_ONE, _TWO, _THIRTEEN = Fraction(1), Fraction(2), Fraction(13)
_DEFAULT_PLACEMENT = {
    2: (Fraction(3), Fraction(-3)),
    3: (Fraction(3), Fraction(0), Fraction(-3)),
    4: (Fraction(3), Fraction(1), Fraction(-1), Fraction(-3)),
}
_DEFAULT_PENALTIES = PenaltyTable.of(5, 5, 10, 10, 10, 15, 20)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A scoring scheme. See docs/rules-json.md for what each field means and which mode uses it."""

    id: str = "custom"
    name: str = "Luật riêng"
    mode: Mode = "first_out"
    unit: str = "lá"
    # first_out: what each card left costs, whether heo/hàng cards also count as cards, and the
    # multiplier on a cóng loser's card amount.
    card_value: Fraction = _ONE
    count_special_cards: bool = True
    cong_multiplier: Fraction = _TWO
    # placement: a cóng player's score, and the value of each rank (nhất first) by player count.
    cong_score: Fraction = -6 * _ONE
    placement_2: tuple[Fraction, ...] = _DEFAULT_PLACEMENT[2]
    placement_3: tuple[Fraction, ...] = _DEFAULT_PLACEMENT[3]
    placement_4: tuple[Fraction, ...] = _DEFAULT_PLACEMENT[4]
    # thối table; chặt uses it too unless a separate table is given.
    penalties: PenaltyTable = _DEFAULT_PENALTIES
    chat_penalties: PenaltyTable | None = None
    thoi_to: ThoiTo = "winner"
    # tới trắng: a flat value (or None when every accepted hand has its own value).
    toi_trang_value: Fraction | None = _THIRTEEN
    toi_trang_hands: tuple[str, ...] = HANDS_A
    toi_trang_opening_only: tuple[str, ...] = ()
    toi_trang_hand_values: tuple[tuple[str, Fraction], ...] = ()
    # "tới trắng có đếm heo": True (every hand), False, or the hand ids that count it.
    toi_trang_counts_thoi: bool | tuple[str, ...] = False
    # kết 3 bích value (also what chặn kết 3 bích costs); None = not played.
    ket_3_bich: Fraction | None = None
    # cóng "cả làng": each cóng player pays this to every non-cóng player; None = off.
    cong_ca_lang: Fraction | None = None
    # When đền may be recorded (DEN_WHEN).
    den_when: DenWhen = "all_cong"
    # placement: who receives a cóng player's thối (the nhất, or the player ranked just above).
    cong_thoi_to: ThoiTo = "winner"
    # Which plays each hàng may chop: ((hàng, (play, …)), …) in CHOPPERS order.
    chops: ChopTable = DEFAULT_CHOPS
    # kết 3 bích: the value "instead" of each loser's card and thối money, or "plus" on top.
    ket_3_bich_mode: KetMode = "instead"
    # chặn kết 3 bích: whether the winner is still paid card and thối money besides the chặn.
    chan_ket_keeps_cards: bool = False
    # Going out on a 2 (TWO_OUT); under "bet", in first_out the player pays as if holding
    # ``two_out_cards`` cards (None: not said, and such a record is refused).
    two_out: TwoOut = "allowed"
    two_out_cards: int | None = None
    # True: in a ván khởi đầu only the ``toi_trang_opening_only`` hands win trắng (the others
    # count "tại các ván khác").
    toi_trang_outside_opening: bool = False

    def placement(self, players: int) -> tuple[Fraction, ...]:
        return {2: self.placement_2, 3: self.placement_3}.get(players, self.placement_4)

    def counts_thoi_on(self, hand: str) -> bool:
        """Whether a tới trắng with ``hand`` also charges the thối of the dealt hands."""
        counts = self.toi_trang_counts_thoi
        return counts if isinstance(counts, bool) else hand in counts

    def chopped_by(self, play: str) -> set[str]:
        """The plays that may chop ``play`` at this table."""
        return legal_chops(play, self.chops)

    @property
    def chat_table(self) -> PenaltyTable:
        return self.penalties if self.chat_penalties is None else self.chat_penalties

    def toi_trang_amount(self, hand: str) -> Fraction:
        """What each loser pays for a tới trắng with ``hand`` (an accepted hand)."""
        own = (value for hand_id, value in self.toi_trang_hand_values if hand_id == hand)
        value = next(own, self.toi_trang_value)
        if value is None:
            raise KeyError(hand)
        return value


# --- amounts -----------------------------------------------------------------------------------


def amount_to_json(value: Fraction) -> int | str:
    """A whole amount as an int, anything else as ``"a/b"``."""
    if value.denominator == 1:
        return int(value)
    return f"{value.numerator}/{value.denominator}"


def format_amount(value: Fraction) -> str:
    """An amount for people: ``3``, ``½``, ``1½``, ``-½``, ``2/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    frac = Fraction(rest, value.denominator)
    for text, v in VULGAR_FRACTIONS.items():
        if v == frac:
            return f"{sign}{whole or ''}{text}"
    return f"{sign}{abs(value)}" if not whole else f"{sign}{whole} {frac}"


# --- checking a rule set ------------------------------------------------------------------------


def check_rules(rules: RuleSet) -> list[Problem]:
    """Every problem of a rule set built in code (``ruleset_from_dict`` already runs this)."""
    out: list[Problem] = []

    def add(path: str, code: str, **params: Any) -> None:
        out.append(Problem(path, code, params))

    for name in ("id", "name", "unit"):
        value = getattr(rules, name)
        if not isinstance(value, str) or not value.strip():
            add(name, "blank_text")
    if rules.mode not in MODES:
        add("mode", "unknown_mode", value=str(rules.mode))
    if rules.thoi_to not in THOI_TO:
        add("thoi_to", "unknown_thoi_to", value=str(rules.thoi_to))
    elif rules.thoi_to == "above" and rules.mode == "first_out":
        add("thoi_to", "thoi_to_above_first_out")

    if rules.den_when not in DEN_WHEN:
        add("den_when", "unknown_den_when", value=str(rules.den_when))
    if rules.ket_3_bich_mode not in KET_3_BICH_MODES:
        add("ket_3_bich_mode", "unknown_ket_3_bich_mode", value=str(rules.ket_3_bich_mode))
    if rules.two_out not in TWO_OUT:
        add("two_out", "unknown_two_out", value=str(rules.two_out))
    cards = rules.two_out_cards
    if cards is not None and (isinstance(cards, bool) or not isinstance(cards, int)):
        add("two_out_cards", "not_an_int", value=_show(cards))
    elif cards is not None and not 0 <= cards <= 13:
        add("two_out_cards", "count_out_of_range", value=cards, high=13)
    if rules.cong_thoi_to not in THOI_TO:
        add("cong_thoi_to", "unknown_cong_thoi_to", value=str(rules.cong_thoi_to))
    elif rules.cong_thoi_to == "above" and rules.mode == "first_out":
        add("cong_thoi_to", "cong_thoi_to_above_first_out")
    _check_chops(rules.chops, add)

    def non_negative(path: str, value: Fraction | None) -> None:
        if value is not None and value < 0:
            add(path, "negative_value", value=format_amount(value))

    non_negative("card_value", rules.card_value)
    if rules.cong_multiplier < 1:
        add(
            "cong_multiplier",
            "cong_multiplier_below_one",
            value=format_amount(rules.cong_multiplier),
        )
    for name, table in (("penalties", rules.penalties), ("chat_penalties", rules.chat_penalties)):
        if table is not None:
            for key, value in table.items():
                non_negative(f"{name}.{key}", value)
    non_negative("toi_trang_value", rules.toi_trang_value)
    non_negative("cong_ca_lang", rules.cong_ca_lang)
    if rules.ket_3_bich is not None:
        if rules.ket_3_bich <= 0:
            add("ket_3_bich", "not_positive", value=format_amount(rules.ket_3_bich))
        if rules.mode != "first_out":
            add("ket_3_bich", "ket_3_bich_needs_first_out")

    lowest: Fraction | None = None
    for n in (2, 3, 4):
        values = rules.placement(n)
        path = f"placement.{n}"
        if len(values) != n:
            add(path, "placement_length", players=n, count=len(values))
            continue
        if any(a < b for a, b in pairwise(values)):
            add(path, "placement_not_descending")
        if sum(values) != 0:
            add(path, "placement_not_zero_sum", total=format_amount(sum(values, Fraction(0))))
        lowest = values[-1] if lowest is None else min(lowest, values[-1])
    if lowest is not None and rules.cong_score > lowest:
        add("cong_score", "cong_score_above_last", value=format_amount(rules.cong_score),
            last=format_amount(lowest))  # fmt: skip

    seen: set[str] = set()
    for i, hand in enumerate(rules.toi_trang_hands):
        if hand not in HANDS:
            add(f"toi_trang_hands[{i}]", "unknown_hand", hand=str(hand))
        elif hand in seen:
            add(f"toi_trang_hands[{i}]", "duplicate_hand", hand=hand)
        seen.add(hand)
    for i, hand in enumerate(rules.toi_trang_opening_only):
        if hand not in seen:
            add(f"toi_trang_opening_only[{i}]", "opening_hand_not_accepted", hand=str(hand))
    valued: set[str] = set()
    for hand, value in rules.toi_trang_hand_values:
        path = f"toi_trang_hand_values.{hand}"
        if hand not in seen:
            add(path, "valued_hand_not_accepted", hand=str(hand))
        non_negative(path, value)
        valued.add(hand)
    if rules.toi_trang_value is None:
        for i, hand in enumerate(rules.toi_trang_hands):
            if hand in HANDS and hand not in valued and rules.toi_trang_hands.index(hand) == i:
                add(f"toi_trang_hands[{i}]", "hand_without_value", hand=hand)
    counts = rules.toi_trang_counts_thoi
    if isinstance(counts, tuple):
        listed: set[str] = set()
        for i, hand in enumerate(counts):
            path = f"toi_trang_counts_thoi[{i}]"
            if hand not in HANDS:
                add(path, "unknown_hand", hand=str(hand))
            elif hand in listed:
                add(path, "duplicate_hand", hand=HANDS[hand])
            elif hand not in seen:
                add(path, "thoi_hand_not_accepted", hand=HANDS[hand])
            listed.add(hand)
    elif not isinstance(counts, bool):
        add("toi_trang_counts_thoi", "not_a_bool_or_hands", value=_show(counts))
    return out


def _check_chops(chops: object, add: _AddProblem) -> None:
    """A chop table: rows of distinct known plays, one row per hàng at most."""
    if not isinstance(chops, tuple):
        add("chops", "not_an_object", value=_show(chops))
        return
    rows: set[str] = set()
    for row in chops:
        if not (isinstance(row, tuple) and len(row) == 2 and isinstance(row[1], tuple)):
            add("chops", "not_an_object", value=_show(row))
            continue
        chopper, targets = row
        if chopper not in CHOPPERS or chopper in rows:
            add(f"chops.{chopper}", "unknown_field")
            continue
        rows.add(chopper)
        plays: set[str] = set()
        for j, play in enumerate(targets):
            if play not in PLAYS:
                add(f"chops.{chopper}[{j}]", "unknown_play", value=_show(play))
            elif play in plays:
                add(f"chops.{chopper}[{j}]", "duplicate_play", play=PLAYS[play])
            plays.add(play)


def _show(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 40 else text[:37] + "…"


# --- stake --------------------------------------------------------------------------------------


def _stake_amounts(rules: RuleSet) -> list[tuple[str, Fraction]]:
    """Every amount that can be paid alone in a game, in units, with a label.

    Amounts paid together are sums of these, so if each is whole in đồng, every payment is. Card
    amounts: a non-cóng loser can hold any count, so one card must be whole; a cóng loser holds
    13 cards, less the heo/hàng cards when those are not counted (then 12 and 13 both occur, so
    one card × multiplier must be whole).
    """
    items: list[tuple[str, Fraction]] = []
    if rules.mode == "first_out":
        items.append(("card_value", rules.card_value))
        per_cong_card = rules.card_value * rules.cong_multiplier
        items.append(("cong", per_cong_card * (13 if rules.count_special_cards else 1)))
        if rules.ket_3_bich is not None:
            items.append(("ket_3_bich", rules.ket_3_bich))
    else:
        items.append(("cong_score", rules.cong_score))
        for n in (2, 3, 4):
            items.extend((f"placement.{n}", v) for v in rules.placement(n))
    items.extend((f"penalties.{k}", v) for k, v in rules.penalties.items())
    items.extend((f"chat_penalties.{k}", v) for k, v in rules.chat_table.items())
    if rules.toi_trang_value is not None:
        items.append(("toi_trang_value", rules.toi_trang_value))
    items.extend((f"toi_trang_hand_values.{h}", v) for h, v in rules.toi_trang_hand_values)
    if rules.cong_ca_lang is not None:
        items.append(("cong_ca_lang", rules.cong_ca_lang))
    return items


def stake_multiple(rules: RuleSet) -> tuple[int, str, Fraction]:
    """The smallest stake (and every valid stake is a multiple of it), with one amount that
    needs it."""
    multiple, label, value = 1, "", Fraction(0)
    for item_label, item in _stake_amounts(rules):
        new = math.lcm(multiple, item.denominator)
        if new != multiple:
            multiple, label, value = new, item_label, item
    return multiple, label, value
