"""A rule set: every number of a scoring scheme, editable, with its JSON form.

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
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from itertools import pairwise
from typing import TYPE_CHECKING

from .cards import DEFAULT_CHOPS, HANDS, HANDS_A, PLAYS, ChopTable, legal_chops
from .limits import check_stake_limit
from .numbers import VULGAR_FRACTIONS, NotANumber, parse_fraction
from .problems import InvalidRuleSet, Problem
from .text import normalise as normalise_text
from .text import text_problem

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
_PENALTY_ATTRS: dict[str, str] = {
    "2S": "heo_s",
    "2C": "heo_c",
    "2D": "heo_d",
    "2H": "heo_h",
    "3dt": "dt3",
    "tq": "tq",
    "4dt": "dt4",
}


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
        if players == 2:
            return self.placement_2
        if players == 3:
            return self.placement_3
        return self.placement_4

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
        for hand_id, value in self.toi_trang_hand_values:
            if hand_id == hand:
                return value
        if self.toi_trang_value is None:
            raise KeyError(hand)
        return self.toi_trang_value


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
    for key, value in rules.penalties.items():
        non_negative(f"penalties.{key}", value)
    if rules.chat_penalties is not None:
        for key, value in rules.chat_penalties.items():
            non_negative(f"chat_penalties.{key}", value)
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


# --- JSON form ----------------------------------------------------------------------------------

_NULLABLE_AMOUNTS = ("toi_trang_value", "ket_3_bich", "cong_ca_lang")
_AMOUNTS = ("card_value", "cong_multiplier", "cong_score")
_BOOLS = ("count_special_cards", "chan_ket_keeps_cards", "toi_trang_outside_opening")
_TEXTS = ("id", "name", "unit")
_FIELD_NAMES = {f.name for f in fields(RuleSet)}
_JSON_KEYS = (_FIELD_NAMES - {"placement_2", "placement_3", "placement_4"}) | {"placement", "base"}


def ruleset_to_dict(rules: RuleSet) -> dict[str, Any]:
    """The JSON form of a rule set (exact: ``ruleset_from_dict`` gives the same rule set back)."""

    def table(t: PenaltyTable) -> dict[str, int | str]:
        return {k: amount_to_json(v) for k, v in t.items()}

    def maybe(v: Fraction | None) -> int | str | None:
        return None if v is None else amount_to_json(v)

    return {
        "id": rules.id,
        "name": rules.name,
        "mode": rules.mode,
        "unit": rules.unit,
        "card_value": amount_to_json(rules.card_value),
        "count_special_cards": rules.count_special_cards,
        "cong_multiplier": amount_to_json(rules.cong_multiplier),
        "cong_score": amount_to_json(rules.cong_score),
        "placement": {str(n): [amount_to_json(v) for v in rules.placement(n)] for n in (2, 3, 4)},
        "penalties": table(rules.penalties),
        "chat_penalties": None if rules.chat_penalties is None else table(rules.chat_penalties),
        "thoi_to": rules.thoi_to,
        "toi_trang_value": maybe(rules.toi_trang_value),
        "toi_trang_hands": list(rules.toi_trang_hands),
        "toi_trang_opening_only": list(rules.toi_trang_opening_only),
        "toi_trang_hand_values": {h: amount_to_json(v) for h, v in rules.toi_trang_hand_values},
        "toi_trang_counts_thoi": (
            counts if isinstance(counts := rules.toi_trang_counts_thoi, bool) else list(counts)
        ),
        "ket_3_bich": maybe(rules.ket_3_bich),
        "cong_ca_lang": maybe(rules.cong_ca_lang),
        "den_when": rules.den_when,
        "cong_thoi_to": rules.cong_thoi_to,
        "chops": {chopper: list(targets) for chopper, targets in rules.chops},
        "ket_3_bich_mode": rules.ket_3_bich_mode,
        "chan_ket_keeps_cards": rules.chan_ket_keeps_cards,
        "two_out": rules.two_out,
        "two_out_cards": rules.two_out_cards,
        "toi_trang_outside_opening": rules.toi_trang_outside_opening,
    }


def ruleset_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """Read the JSON form of a rule set; raise :class:`InvalidRuleSet` listing every problem.

    A missing field takes the default (see docs/rules-json.md). With ``"base": "<preset id>"``
    the preset is the starting point instead, and ``penalties``, ``chat_penalties``, ``placement``
    and ``toi_trang_hand_values`` may then give only the entries that differ.
    """
    from .presets import PRESETS

    problems: list[Problem] = []

    def add(path: str, code: str, **params: Any) -> None:
        problems.append(Problem(path, code, params))

    if not isinstance(data, Mapping):
        raise InvalidRuleSet([Problem("", "not_an_object", {})])

    base = RuleSet()
    merge = False
    if "base" in data:
        base_id = data["base"]
        if isinstance(base_id, str) and base_id in PRESETS:
            base = PRESETS[base_id]
            merge = True
        else:
            add("base", "unknown_preset", value=str(base_id))
    changes: dict[str, Any] = {}

    for key in data:
        if key not in _JSON_KEYS:
            add(str(key), "unknown_field")

    def amount(path: str, value: object) -> Fraction | None:
        try:
            result = parse_fraction(value)
        except NotANumber as error:
            problems.append(error.problem(path))
            return None
        if result is None:
            add(path, "not_a_number", value=_show(value))
        return result

    for key in _TEXTS:
        if key in data:
            unsafe = text_problem(data[key], key) if isinstance(data[key], str) else None
            if unsafe is not None:
                problems.append(unsafe)
            elif isinstance(data[key], str) and data[key].strip():
                changes[key] = normalise_text(data[key])
            else:
                add(key, "blank_text")
    for key, choices in (
        ("mode", MODES),
        ("thoi_to", THOI_TO),
        ("den_when", DEN_WHEN),
        ("cong_thoi_to", THOI_TO),
        ("ket_3_bich_mode", KET_3_BICH_MODES),
        ("two_out", TWO_OUT),
    ):
        if key in data:
            if data[key] in choices:
                changes[key] = data[key]
            else:
                add(key, f"unknown_{key}", value=_show(data[key]))
    for key in _BOOLS:
        if key in data:
            if isinstance(data[key], bool):
                changes[key] = data[key]
            else:
                add(key, "not_a_bool", value=_show(data[key]))
    for key in _AMOUNTS:
        if key in data:
            value = amount(key, data[key])
            if value is not None:
                changes[key] = value
    for key in _NULLABLE_AMOUNTS:
        if key in data:
            if data[key] is None:
                changes[key] = None
            else:
                value = amount(key, data[key])
                if value is not None:
                    changes[key] = value

    if "two_out_cards" in data:
        raw_count = data["two_out_cards"]
        if raw_count is None:
            changes["two_out_cards"] = None
        elif isinstance(raw_count, bool) or not isinstance(raw_count, int):
            add("two_out_cards", "not_an_int", value=_show(raw_count))
        elif not 0 <= raw_count <= 13:
            add("two_out_cards", "count_out_of_range", value=raw_count, high=13)
        else:
            changes["two_out_cards"] = raw_count

    def read_table(path: str, raw: object, start: PenaltyTable | None) -> PenaltyTable | None:
        if not isinstance(raw, Mapping):
            add(path, "not_an_object")
            return None
        values: dict[str, Fraction] = dict(start.items()) if start is not None else {}
        ok = True
        for key, value in raw.items():
            if key not in PENALTY_KEYS:
                add(f"{path}.{key}", "unknown_field")
                ok = False
                continue
            parsed = amount(f"{path}.{key}", value)
            if parsed is None:
                ok = False
            else:
                if parsed < 0:  # said here too, in case the table as a whole cannot be read
                    add(f"{path}.{key}", "negative_value", value=format_amount(parsed))
                values[key] = parsed
        for key in PENALTY_KEYS:
            if key not in values:
                add(f"{path}.{key}", "missing_field")
                ok = False
        return PenaltyTable(*(values[k] for k in PENALTY_KEYS)) if ok else None

    if "penalties" in data:
        table = read_table("penalties", data["penalties"], base.penalties if merge else None)
        if table is not None:
            changes["penalties"] = table
    if "chat_penalties" in data:
        raw = data["chat_penalties"]
        if raw is None:
            changes["chat_penalties"] = None
        else:
            start = (base.chat_penalties or base.penalties) if merge else None
            table = read_table("chat_penalties", raw, start)
            if table is not None:
                changes["chat_penalties"] = table

    if "placement" in data:
        raw = data["placement"]
        if not isinstance(raw, Mapping):
            add("placement", "not_an_object")
        else:
            for key, values in raw.items():
                if str(key) not in ("2", "3", "4"):
                    add(f"placement.{key}", "unknown_field")
                    continue
                path = f"placement.{key}"
                if not isinstance(values, list):
                    add(path, "not_a_list")
                    continue
                parsed_values = [amount(f"{path}[{i}]", v) for i, v in enumerate(values)]
                if all(v is not None for v in parsed_values):
                    changes[f"placement_{key}"] = tuple(v for v in parsed_values if v is not None)
            if not merge:
                for n in ("2", "3", "4"):
                    if n not in raw:
                        add(f"placement.{n}", "missing_field")

    def hand_list(key: str) -> None:
        if key not in data:
            return
        raw = data[key]
        if not isinstance(raw, list):
            add(key, "not_a_list")
        elif all(isinstance(h, str) for h in raw):
            changes[key] = tuple(raw)
        else:
            for i, h in enumerate(raw):
                if not isinstance(h, str):
                    add(f"{key}[{i}]", "unknown_hand", hand=_show(h))

    hand_list("toi_trang_hands")
    hand_list("toi_trang_opening_only")
    if "toi_trang_counts_thoi" in data:
        raw = data["toi_trang_counts_thoi"]
        if isinstance(raw, bool):
            changes["toi_trang_counts_thoi"] = raw
        elif not isinstance(raw, list):
            add("toi_trang_counts_thoi", "not_a_bool_or_hands", value=_show(raw))
        elif all(isinstance(h, str) for h in raw):
            # Kept in one order, so the same hands are the same rule set (a repeat is kept as
            # given, for the check to name it).
            order = {h: i for i, h in enumerate(HANDS)}
            listed = (
                raw if len(set(raw)) < len(raw) else sorted(raw, key=lambda h: order.get(h, -1))
            )
            changes["toi_trang_counts_thoi"] = tuple(listed) if raw else False
        else:
            for i, h in enumerate(raw):
                if not isinstance(h, str):
                    add(f"toi_trang_counts_thoi[{i}]", "unknown_hand", hand=_show(h))
    if "chops" in data:
        raw = data["chops"]
        if not isinstance(raw, Mapping):
            add("chops", "not_an_object", value=_show(raw))
        else:
            rows = dict(base.chops)
            order = {p: i for i, p in enumerate(PLAYS)}
            for chopper, targets in raw.items():
                path = f"chops.{chopper}"
                if chopper not in CHOPPERS:
                    add(path, "unknown_field")
                elif not isinstance(targets, list):
                    add(path, "not_a_list", value=_show(targets))
                elif all(isinstance(t, str) and t in PLAYS for t in targets):
                    if len(set(targets)) == len(targets):
                        rows[chopper] = tuple(sorted(targets, key=order.__getitem__))
                    else:  # kept as given, so the check below names the repeat
                        rows[chopper] = tuple(targets)
                else:
                    for j, t in enumerate(targets):
                        if not isinstance(t, str) or t not in PLAYS:
                            add(f"{path}[{j}]", "unknown_play", value=_show(t))
            changes["chops"] = tuple((c, rows[c]) for c in CHOPPERS if c in rows)
    if "toi_trang_hand_values" in data:
        raw = data["toi_trang_hand_values"]
        if not isinstance(raw, Mapping):
            add("toi_trang_hand_values", "not_an_object")
        else:
            merged = dict(base.toi_trang_hand_values) if merge else {}
            for hand, value in raw.items():
                parsed = amount(f"toi_trang_hand_values.{hand}", value)
                if parsed is not None:
                    merged[str(hand)] = parsed
            order = {h: i for i, h in enumerate(HANDS)}
            changes["toi_trang_hand_values"] = tuple(
                sorted(merged.items(), key=lambda kv: order.get(kv[0], len(order)))
            )

    rules = replace(base, **changes)
    # Check what could be read too, so every problem comes back at once; with unreadable fields
    # only problems of fields that were given and read are added (the rest would be noise).
    unreadable = {p.path for p in problems}
    for problem in check_rules(rules):
        field = problem.path.split(".")[0].split("[")[0]
        if not unreadable or (field in data and problem.path not in unreadable):
            problems.append(problem)
    if problems:
        seen: set[tuple[str, str]] = set()
        unique = []
        for problem in problems:
            if (problem.path, problem.code) not in seen:
                seen.add((problem.path, problem.code))
                unique.append(problem)
        raise InvalidRuleSet(unique)
    return rules


def load_rules(spec: str | Mapping[str, Any] | RuleSet) -> RuleSet:
    """A preset by id, or a rule set from its JSON form; :class:`InvalidRuleSet` otherwise."""
    from .presets import PRESETS

    if isinstance(spec, RuleSet):
        problems = check_rules(spec)
        if problems:
            raise InvalidRuleSet(problems)
        return spec
    if isinstance(spec, str):
        if spec in PRESETS:
            return PRESETS[spec]
        raise InvalidRuleSet([Problem("rules", "unknown_preset", {"value": spec})])
    return ruleset_from_dict(spec)


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


def _stake_multiple(rules: RuleSet) -> tuple[int, str, Fraction]:
    """The smallest stake (and every valid stake is a multiple of it), with one amount that
    needs it."""
    multiple, label, value = 1, "", Fraction(0)
    for item_label, item in _stake_amounts(rules):
        new = math.lcm(multiple, item.denominator)
        if new != multiple:
            multiple, label, value = new, item_label, item
    return multiple, label, value


def check_stake(rules: RuleSet, stake: object) -> list[Problem]:
    """Empty when ``stake`` (đồng per unit) is a positive int that turns every amount the rule set
    can produce into whole đồng; otherwise the problems, all with path ``stake``."""
    if isinstance(stake, bool) or not isinstance(stake, int):
        return [Problem("stake", "stake_not_int", {"value": _show(stake)})]
    if stake <= 0:
        return [Problem("stake", "stake_not_positive", {"value": stake})]
    multiple, label, value = _stake_multiple(rules)
    if stake % multiple:
        return [
            Problem(
                "stake",
                "stake_makes_fraction",
                {
                    "stake": stake,
                    "multiple": multiple,
                    "field": label,
                    "value": format_amount(value),
                    "amount": format_amount(value * stake),
                },
            )
        ]
    return check_stake_limit(rules, stake)
