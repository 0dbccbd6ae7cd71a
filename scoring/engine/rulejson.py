"""A rule set's JSON form: to and from plain dicts (``docs/rules-json.md``), a preset as
the base of a custom rule set, and :func:`load_rules` (a preset's id or a JSON form)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    pass


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
