"""The scoring engine of Sổ Tiến Lên: the rules and the money maths, pure Python.

No Django here: typed, frozen dataclasses in, payments out, exact arithmetic (``Fraction`` for
rule values, ``int`` đồng for money). The rules book docs/rules.md is the specification.

Vietnamese game terms used as names (English has no word for them):

* ván: one game; nhất/nhì/ba/bét: 1st/2nd/3rd/last to get rid of their cards;
* heo: a 2; đôi heo: a pair of 2s; hàng: 3 đôi thông (``3dt``), tứ quý (``tq``), 4 đôi thông
  (``4dt``);
* thối: paying for heo/hàng still in hand at the end; chặt: chopping a heo/hàng with a hàng
  (chặt chồng: a chop chopped again);
* cóng: a player who had not played a card when the first player went out; đền: a player who
  pays for the whole table because they let a cóng happen;
* tới trắng: an instant win at the deal; kết 3 bích: going out with 3♠ as the last card.
"""

from .cards import HANDS, PLAYS, legal_chops, parse_card
from .payout import REASONS, GameResult, Transfer, next_leader, score_game
from .presets import PRESETS
from .problems import InvalidRecord, InvalidRuleSet, Problem
from .record import ChanKet3Bich, ChatChain, ChatStep, GameRecord, Hand, ToiTrang, record_to_dict
from .rules import (
    PenaltyTable,
    RuleSet,
    check_rules,
    check_stake,
    load_rules,
    ruleset_from_dict,
    ruleset_to_dict,
)
from .validate import parse_record
from .words import detail_text, hand_label, play_label

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
    "Problem",
    "RuleSet",
    "ToiTrang",
    "Transfer",
    "check_rules",
    "check_stake",
    "detail_text",
    "hand_label",
    "legal_chops",
    "load_rules",
    "next_leader",
    "parse_card",
    "parse_record",
    "play_label",
    "record_to_dict",
    "ruleset_from_dict",
    "ruleset_to_dict",
    "score_game",
]
