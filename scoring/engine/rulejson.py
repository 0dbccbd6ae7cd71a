"""A rule set's JSON form: to and from plain dicts (``docs/rules-json.md``), a preset as
the base of a custom rule set, and :func:`load_rules` (a preset's id or a JSON form)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from .cards import HANDS, PLAYS
from .presets import PRESETS
from .problems import InvalidRuleSet, Problem
from .readnumbers import NotANumber, parse_fraction
from .readtext import normalise as normalise_text
from .readtext import text_problem
from .rules import (
    CHOPPERS,
    DEN_WHEN,
    KET_3_BICH_MODES,
    MODES,
    PENALTY_KEYS,
    THOI_TO,
    TWO_OUT,
    PenaltyTable,
    RuleSet,
    _show,
    amount_to_json,
    check_rules,
    format_amount,
)

# --- JSON form ----------------------------------------------------------------------------------

_NULLABLE_AMOUNTS = ("toi_trang_value", "ket_3_bich", "cong_ca_lang")
_AMOUNTS = ("card_value", "cong_multiplier", "cong_score")
_BOOLS = ("count_special_cards", "chan_ket_keeps_cards", "toi_trang_outside_opening")
_TEXTS = ("id", "name", "unit")
_CHOICES = (
    ("mode", MODES),
    ("thoi_to", THOI_TO),
    ("den_when", DEN_WHEN),
    ("cong_thoi_to", THOI_TO),
    ("ket_3_bich_mode", KET_3_BICH_MODES),
    ("two_out", TWO_OUT),
)
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
    if not isinstance(data, Mapping):
        raise InvalidRuleSet([Problem("", "not_an_object", {})])
    read = _Reader(data)
    read.single_values()
    for key, read_field in (
        ("penalties", read.penalties),
        ("chat_penalties", read.penalties),
        ("placement", read.placement),
        ("toi_trang_hands", read.hand_list),
        ("toi_trang_opening_only", read.hand_list),
        ("toi_trang_counts_thoi", read.counts_thoi),
        ("chops", read.chops),
        ("toi_trang_hand_values", read.hand_values),
    ):
        if key in data:
            read_field(key, data[key])
    rules = replace(read.base, **read.changes)
    problems = _all_problems(read.problems, rules, data)
    if problems:
        raise InvalidRuleSet(problems)
    return rules


def _all_problems(read: list[Problem], rules: RuleSet, data: Mapping[str, Any]) -> list[Problem]:
    """The problems of reading, then the check of what could be read, each (path, code) once.
    With unreadable fields, only the check's problems of fields given and read (the rest would
    be noise)."""
    unreadable = {p.path for p in read}
    for problem in check_rules(rules):
        field = problem.path.split(".")[0].split("[")[0]
        if not unreadable or (field in data and problem.path not in unreadable):
            read.append(problem)
    first: dict[tuple[str, str], Problem] = {}
    for problem in read:
        first.setdefault((problem.path, problem.code), problem)
    return list(first.values())


class _Reader:
    """The problems and the fields read while one rule set's JSON form is read."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.problems: list[Problem] = []
        self.changes: dict[str, Any] = {}
        self.base = RuleSet()
        self.merge = False  # a preset is the base: its tables are merged into
        if "base" in data:
            base_id = data["base"]
            if isinstance(base_id, str) and base_id in PRESETS:
                self.base, self.merge = PRESETS[base_id], True
            else:
                self.add("base", "unknown_preset", value=str(base_id))

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(path, code, params))

    def amount(self, path: str, value: object) -> Fraction | None:
        try:
            result = parse_fraction(value)
        except NotANumber as error:
            self.problems.append(error.problem(path))
            return None
        if result is None:
            self.add(path, "not_a_number", value=_show(value))
        return result

    def strings(self, key: str, raw: list[Any]) -> bool:
        """Whether every item of ``raw`` is a string; an unknown hand for each that is not."""
        bad = [i for i, h in enumerate(raw) if not isinstance(h, str)]
        for i in bad:
            self.add(f"{key}[{i}]", "unknown_hand", hand=_show(raw[i]))
        return not bad

    def single_values(self) -> None:
        """Every field of one value: unknown ones, texts, choices, true/false, amounts, a count."""
        data, changes, add = self.data, self.changes, self.add
        for key in data:
            if key not in _JSON_KEYS:
                add(str(key), "unknown_field")
        for key in _TEXTS:
            if key in data:
                unsafe = text_problem(data[key], key) if isinstance(data[key], str) else None
                if unsafe is not None:
                    self.problems.append(unsafe)
                elif isinstance(data[key], str) and data[key].strip():
                    changes[key] = normalise_text(data[key])
                else:
                    add(key, "blank_text")
        for key, choices in _CHOICES:
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
        for key in _AMOUNTS + _NULLABLE_AMOUNTS:
            if key not in data:
                continue
            if data[key] is None and key in _NULLABLE_AMOUNTS:
                changes[key] = None
            elif (value := self.amount(key, data[key])) is not None:
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

    def penalties(self, key: str, raw: object) -> None:
        """``penalties`` or ``chat_penalties`` (null: none), merged into the preset's if any."""
        if raw is None and key == "chat_penalties":
            self.changes[key] = None
            return
        if not isinstance(raw, Mapping):
            self.add(key, "not_an_object")
            return
        start = self.base.penalties
        if key == "chat_penalties":
            start = self.base.chat_penalties or start
        values: dict[str, Fraction] = dict(start.items()) if self.merge else {}
        ok = True
        for name, value in raw.items():
            if name not in PENALTY_KEYS:
                self.add(f"{key}.{name}", "unknown_field")
                ok = False
                continue
            parsed = self.amount(f"{key}.{name}", value)
            if parsed is None:
                ok = False
            else:
                if parsed < 0:  # said here too, in case the table as a whole cannot be read
                    self.add(f"{key}.{name}", "negative_value", value=format_amount(parsed))
                values[name] = parsed
        for name in PENALTY_KEYS:
            if name not in values:
                self.add(f"{key}.{name}", "missing_field")
                ok = False
        if ok:
            self.changes[key] = PenaltyTable(*(values[k] for k in PENALTY_KEYS))

    def placement(self, key: str, raw: object) -> None:
        if not isinstance(raw, Mapping):
            self.add(key, "not_an_object")
            return
        for n, values in raw.items():
            path = f"{key}.{n}"
            if str(n) not in ("2", "3", "4"):
                self.add(path, "unknown_field")
            elif not isinstance(values, list):
                self.add(path, "not_a_list")
            else:
                parsed = [self.amount(f"{path}[{i}]", v) for i, v in enumerate(values)]
                if None not in parsed:
                    self.changes[f"placement_{n}"] = tuple(v for v in parsed if v is not None)
        if not self.merge:
            for n in ("2", "3", "4"):
                if n not in raw:
                    self.add(f"{key}.{n}", "missing_field")

    def hand_list(self, key: str, raw: object) -> None:
        if not isinstance(raw, list):
            self.add(key, "not_a_list")
        elif self.strings(key, raw):
            self.changes[key] = tuple(raw)

    def counts_thoi(self, key: str, raw: object) -> None:
        if isinstance(raw, bool):
            self.changes[key] = raw
        elif not isinstance(raw, list):
            self.add(key, "not_a_bool_or_hands", value=_show(raw))
        elif self.strings(key, raw):
            # Kept in one order, so the same hands are the same rule set (a repeat is kept as
            # given, for the check to name it).
            order = {h: i for i, h in enumerate(HANDS)}
            listed = (
                raw if len(set(raw)) < len(raw) else sorted(raw, key=lambda h: order.get(h, -1))
            )
            self.changes[key] = tuple(listed) if raw else False

    def chops(self, key: str, raw: object) -> None:
        if not isinstance(raw, Mapping):
            self.add(key, "not_an_object", value=_show(raw))
            return
        rows = dict(self.base.chops)
        order = {p: i for i, p in enumerate(PLAYS)}
        for chopper, targets in raw.items():
            path = f"{key}.{chopper}"
            if chopper not in CHOPPERS:
                self.add(path, "unknown_field")
            elif not isinstance(targets, list):
                self.add(path, "not_a_list", value=_show(targets))
            elif all(isinstance(t, str) and t in PLAYS for t in targets):
                if len(set(targets)) == len(targets):
                    rows[chopper] = tuple(sorted(targets, key=order.__getitem__))
                else:  # kept as given, so the check names the repeat
                    rows[chopper] = tuple(targets)
            else:
                for j, t in enumerate(targets):
                    if not isinstance(t, str) or t not in PLAYS:
                        self.add(f"{path}[{j}]", "unknown_play", value=_show(t))
        self.changes["chops"] = tuple((c, rows[c]) for c in CHOPPERS if c in rows)

    def hand_values(self, key: str, raw: object) -> None:
        if not isinstance(raw, Mapping):
            self.add(key, "not_an_object")
            return
        merged = dict(self.base.toi_trang_hand_values) if self.merge else {}
        for hand, value in raw.items():
            parsed = self.amount(f"{key}.{hand}", value)
            if parsed is not None:
                merged[str(hand)] = parsed
        order = {h: i for i, h in enumerate(HANDS)}
        self.changes["toi_trang_hand_values"] = tuple(
            sorted(merged.items(), key=lambda kv: order.get(kv[0], len(order)))
        )


def load_rules(spec: str | Mapping[str, Any] | RuleSet) -> RuleSet:
    """A preset by id, or a rule set from its JSON form; :class:`InvalidRuleSet` otherwise."""
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
