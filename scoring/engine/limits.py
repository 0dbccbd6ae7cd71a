"""How large money may get: one limit for every amount, and the bound a rule set puts on a game.

Every amount the ledger stores or shows (a game payment, a player's net in a game, a settlement,
a suggested transfer) must fit two things: a PostgreSQL ``bigint`` (about 9.2 × 10¹⁸) and the
amount field of a VietQR code, which holds at most 13 digits. The second is far smaller, so
:data:`MAX_AMOUNT` is the largest 13-digit number of đồng, and it is the limit everywhere: the
settlement form, the import, and what one game may move.

A rule set decides how large a game can get, so :func:`game_bound` computes, from the rule
values alone, an upper bound (in units, before the stake) on what one player can pay or receive
in one game. It is generous rather than tight, but every term is a real maximum of a real table:

* at most 4 players, so at most 3 losers, and any one player (the winner, or a đền player) pays
  or receives at most 3 losers' worth;
* a loser holds at most 13 cards; a cóng loser pays 13 × card value × the cóng multiplier;
* thối: the heo and hàng a hand holds take at most its 13 cards, so a hand's thối is at most
  13 × the dearest value per card of the penalty table (a heo is 1 card, 3 đôi thông 6,
  tứ quý 4, 4 đôi thông 8);
* chặt: every card of every chain is played once, so all the chặt of a game is at most the 52
  cards of the deck × the dearest value per card of the chặt table;
* tới trắng, kết 3 bích and cóng cả làng are a fixed value per loser (plus thối when tới
  trắng counts it).

:func:`check_rule_limits` refuses a rule set whose bound, at its smallest valid stake, is above
:data:`MAX_AMOUNT` (where a rule set comes in; a stored one still reads);
:func:`check_stake_limit` refuses a stake that would take the bound above it, and says the
largest stake that fits. :func:`check_game_limit` is the last check on a scored game: a record
no table could produce (a chặt chain longer than the deck) is refused instead of
reaching the database.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction

from .problems import Problem
from .readnumbers import grouped as vnd
from .rules import PenaltyTable, RuleSet, _show, format_amount, stake_multiple

#: The largest group archive (``scoring.ledger.archive``), unpacked JSON bytes: the import reads
#: no more (``scoring.ledger.archive_file``) and the export writes no more, so whatever exports
#: imports. About 540 sittings of 200 games (docs/archive.md); the upload on the site is further
#: bound by the request limit, which a gzipped archive of that size fits.
MAX_ARCHIVE_BYTES = 128 * 1024 * 1024

#: Largest amount of đồng anywhere: 13 digits, the most a VietQR amount field holds.
MAX_AMOUNT = 9_999_999_999_999
#: Largest stake whatever the rules (the form that opens a sitting has always said so).
MAX_STAKE = 100_000_000

_LOSERS = 3
_HAND_CARDS = 13
_DECK = 52
# Cards in each chặt/thối combination of a penalty table.
_CARDS_OF = {"2S": 1, "2C": 1, "2D": 1, "2H": 1, "3dt": 6, "tq": 4, "4dt": 8}


def _per_card(table: PenaltyTable) -> tuple[Fraction, str]:
    """The dearest value per card of a penalty table, and which key it is (the first)."""
    return max(((abs(value) / _CARDS_OF[k], k) for k, value in table.items()), key=lambda p: p[0])


def _parts(rules: RuleSet) -> list[tuple[str, Fraction]]:
    """(field, units) for each term of the bound, as they add up for the dearest player."""
    thoi_card, thoi_key = _per_card(rules.penalties)
    chat_card, chat_key = _per_card(rules.chat_table)
    thoi = _HAND_CARDS * thoi_card
    toi_values = [abs(v) for _h, v in rules.toi_trang_hand_values]
    if rules.toi_trang_value is not None:
        toi_values.append(abs(rules.toi_trang_value))
    toi = max(toi_values, default=Fraction(0))
    if rules.toi_trang_counts_thoi:
        toi += thoi
    if rules.mode == "first_out":
        cards = _HAND_CARDS * abs(rules.card_value) * max(Fraction(1), abs(rules.cong_multiplier))
        main = ("card_value", cards + thoi)
    else:
        values = [abs(rules.cong_score)]
        for n in (2, 3, 4):
            values.extend(abs(v) for v in rules.placement(n))
        main = ("placement.4", max(values) + thoi)
    loser = [main, ("toi_trang_value", toi)]
    if rules.ket_3_bich is not None:
        ket = abs(rules.ket_3_bich)
        if rules.ket_3_bich_mode == "plus" or rules.chan_ket_keeps_cards:
            ket += main[1]  # the kết or chặn value on top of the card and thối money
        loser.append(("ket_3_bich", ket))
    if rules.cong_ca_lang is not None:
        loser.append(("cong_ca_lang", abs(rules.cong_ca_lang)))
    field, dearest = max(loser, key=lambda item: item[1])
    if field == "card_value" and thoi > dearest - thoi:
        field = f"penalties.{thoi_key}"
    return [(field, _LOSERS * dearest), (f"chat_penalties.{chat_key}", _DECK * chat_card)]


def game_bound(rules: RuleSet) -> Fraction:
    """Units (before the stake) that bound what one player pays or receives in one game."""
    return sum((units for _f, units in _parts(rules)), Fraction(0))


def max_stake(rules: RuleSet) -> int:
    """The largest stake at which no game of ``rules`` can go above :data:`MAX_AMOUNT`."""
    bound = game_bound(rules)
    if bound == 0:
        return MAX_STAKE
    return min(MAX_STAKE, math.floor(MAX_AMOUNT / bound))


def _dearest_field(rules: RuleSet) -> str:
    field, _units = max(_parts(rules), key=lambda item: item[1])
    if field.startswith("chat_penalties.") and rules.chat_penalties is None:
        field = "penalties." + field.split(".", 1)[1]
    return field


def check_rule_limits(rules: RuleSet) -> list[Problem]:
    """A problem when even the smallest valid stake lets a game go above :data:`MAX_AMOUNT`.

    Checked where a rule set comes in (the rule editor, an imported file, ``score --rules``),
    not by ``check_rules``: a rule set stored before the limit existed still reads, and
    :func:`check_stake_limit` refuses every stake for it with a message."""
    bound = game_bound(rules)
    if bound * stake_multiple(rules)[0] <= MAX_AMOUNT:
        return []
    return [Problem(_dearest_field(rules), "rules_too_large", _too_large(bound))]


def check_stake_limit(rules: RuleSet, stake: int) -> list[Problem]:
    """A problem (path ``stake``) when ``stake`` lets a game of ``rules`` go above the limit."""
    bound = game_bound(rules)
    if bound * stake <= MAX_AMOUNT:
        if stake <= MAX_STAKE:
            return []
        return [Problem("stake", "stake_above_max", {"stake": vnd(stake), "max": vnd(MAX_STAKE)})]
    largest = max_stake(rules)
    if largest < 1:
        return [Problem("stake", "rules_too_large_for_any_stake", _too_large(bound))]
    params = {"stake": vnd(stake), "max_stake": vnd(largest), **_too_large(bound)}
    return [Problem("stake", "stake_too_large", params)]


def check_game_limit(amounts: Iterable[int], nets: Mapping[str, int]) -> list[Problem]:
    """A problem when a scored game moves more than :data:`MAX_AMOUNT` in one payment or for
    one player."""
    largest = max([0, *amounts, *(abs(v) for v in nets.values())])
    if largest <= MAX_AMOUNT:
        return []
    return [Problem("", "game_too_large", {"amount": vnd(largest), "max": vnd(MAX_AMOUNT)})]


def _too_large(bound: Fraction) -> dict[str, str]:
    """A message's words for a bound above :data:`MAX_AMOUNT`: the bound in units, the limit."""
    whole = math.ceil(bound)
    units = vnd(whole) if whole < 10**24 else f"{str(whole)[:4]}…({len(str(whole))} chữ số)"
    return {"units": units, "max": vnd(MAX_AMOUNT)}


def check_stake(rules: RuleSet, stake: object) -> list[Problem]:
    """Empty when ``stake`` (đồng per unit) is a positive int that turns every amount the rule set
    can produce into whole đồng; otherwise the problems, all with path ``stake``."""
    if isinstance(stake, bool) or not isinstance(stake, int):
        return [Problem("stake", "stake_not_int", {"value": _show(stake)})]
    if stake <= 0:
        return [Problem("stake", "stake_not_positive", {"value": stake})]
    multiple, label, value = stake_multiple(rules)
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
