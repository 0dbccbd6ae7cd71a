"""The scoring engine of Sổ Tiến Lên: the rules and the money maths, pure Python.

No Django here: typed, frozen dataclasses in, payments out, exact arithmetic
(``Fraction`` for rule values, ``int`` đồng for money). The rules book docs/rules.md is the
specification.

Vietnamese game terms are used as names where English has no word for them (``cong``,
``thoi``, ``chat``, ``toi_trang``…); what each means is said once, in the rules book's glossary
(docs/rules.md, "Thuật ngữ" / "Game terms", also ``scoring.text.rulesbook.glossary``).
"""

from __future__ import annotations

from .cards import HANDS, PLAYS, legal_chops, parse_card
from .limits import check_stake
from .payout import REASONS, GameResult, Prices, Transfer, next_leader, score_game
from .presets import PRESETS
from .problems import InvalidRecord, InvalidRuleSet, Problem
from .record import (
    ChanKet3Bich,
    ChatChain,
    ChatStep,
    GameRecord,
    Hand,
    ToiTrang,
    record_from_dict,
    record_to_dict,
    rename_players,
)
from .rulejson import load_rules, ruleset_from_dict, ruleset_to_dict
from .rules import PenaltyTable, RuleSet, check_rules
from .validate import checks_alike, den_allowed, parse_record, parse_stored
from .words import explain, hand_label, play_label

__all__ = [
    "HANDS",
    "PLAYS",
    "PRESETS",
    "REASONS",
    "ChanKet3Bich",
    "ChatChain",
    "ChatStep",
    "GameRecord",
    "GameResult",
    "Hand",
    "InvalidRecord",
    "InvalidRuleSet",
    "PenaltyTable",
    "Prices",
    "Problem",
    "RuleSet",
    "ToiTrang",
    "Transfer",
    "check_rules",
    "check_stake",
    "checks_alike",
    "den_allowed",
    "explain",
    "hand_label",
    "legal_chops",
    "load_rules",
    "next_leader",
    "parse_card",
    "parse_record",
    "parse_stored",
    "play_label",
    "record_from_dict",
    "record_to_dict",
    "rename_players",
    "ruleset_from_dict",
    "ruleset_to_dict",
    "score_game",
]
