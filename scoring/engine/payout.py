"""Turning a validated game record into payments, in whole đồng.

Every payment names payer, payee, amount (> 0) and reason; a game's payments only move money
between players, so the net of every game sums to exactly 0. Amounts are unit values × stake,
computed exactly; :func:`check_stake` makes sure none can be fractional, so nothing is rounded.

Decisions where the rules leave room (docs/record-format.md#engine-choices):

* first_out: each loser makes one payment to the winner covering cards and thối together
  (explained ``"5 lá + thối 2♥"``); its reason is ``cong`` for a cóng loser, else ``cards``, or
  ``thoi`` when only thối is owed.
* kết 3 bích: every loser, cóng or not, pays the kết value instead of cards, cóng and thối
  (``ket_3_bich_mode`` "instead"), or besides them ("plus", a separate payment).
  chặn kết 3 bích: only the chặn payments (and chặt) move money in that game, no cards, cóng or
  thối, unless ``chan_ket_keeps_cards``: then the losers also pay the winner as in any game.
  Under a rule set without kết 3 bích, either is a fact it does not price: the game is priced
  as any other, and the result notes it.
  Chặt is paid in every kind of game except tới trắng.
* going out on a 2 under ``two_out = "bet"``: in first_out that player pays the winner
  ``two_out_cards`` cards (reason ``cards``, never cóng, no thối: they hold nothing); in
  placement the record already ranks them bét, so nothing changes here.
* cóng "cả làng": each cóng player pays the fixed value to every non-cóng player, nothing else
  (no cards, ranks or thối) except chặt.
* placement: rank and cóng values are net scores settled greedily, lowest-ranked debtor to
  highest-ranked creditor (reason ``cong`` when the debtor is cóng, else ``placement``); thối
  is paid directly to its recipient (``cong_thoi_to`` for a cóng player, ``thoi_to`` for the
  other; "above" is the player ranked just above, cóng or not).
* đền: every payment a loser would make to the winner is made by the đền player instead
  (reason ``den``, unless it was the đền player's own); payments between losers are dropped,
  since the other losers "pay nothing and receive nothing". Chặt is untouched. kết 3 bích
  counts as something the losers owe the winner. The đền player may be cóng: they then pay their
  own cóng and everyone else's.
* tới trắng with thối counted (for every hand, or for the hands the rule set lists): each
  loser's thối is added to their tới trắng payment. Under a rule set that does not count it,
  the dealt hands a record gives cost nothing, and the result notes that they were set aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .cards import HEO_CARDS
from .limits import MAX_AMOUNT, check_game_limit, check_stake
from .messages import Words
from .problems import InvalidRecord, InvalidRuleSet, Problem
from .record import EMPTY_HAND, ChatChain, GameRecord, Hand
from .rules import RuleSet, check_rules, format_amount
from .validate import parse_record
from .words import Params, explain, hand_label, thoi_params

REASONS: tuple[str, ...] = (
    "cards",
    "cong",
    "placement",
    "thoi",
    "chat",
    "toi_trang",
    "den",
    "ket_3_bich",
    "chan_ket_3_bich",
)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: ``code`` and ``params`` explain it (:mod:`.words` says them in words)."""

    payer: str
    payee: str
    amount: int
    reason: str
    code: str
    params: Params = field(default_factory=dict)

    @property
    def detail(self) -> str:
        """The explanation in Vietnamese, as the ``score`` command prints it."""
        return explain(self.code, self.params, "vi")


@dataclass(frozen=True, slots=True)
class GameResult:
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    #: The thối each player's hand was charged, in đồng (under đền someone else paid it);
    #: players charged nothing are left out.
    thoi: dict[str, int] = field(default_factory=dict)
    #: Facts of the record that the rule set does not price, each set aside with a note (a
    #: :class:`Problem` that refuses nothing): the record is still priced.
    notes: tuple[Problem, ...] = ()


class Prices:
    """A rule set's values in đồng at one stake (all whole: check_stake said so).

    :func:`score_game` makes one for each game; a caller scoring many games at one rule set and
    stake (an import, the ``score`` command) makes one and passes it to every call. Raises
    :class:`InvalidRuleSet` for a bad rule set and :class:`InvalidRecord` for a bad stake.
    """

    def __init__(self, rules: RuleSet, stake: int) -> None:
        problems = check_rules(rules)
        if problems:
            raise InvalidRuleSet(problems)
        problems = check_stake(rules, stake)
        if problems:
            raise InvalidRecord(problems)

        def money(value: Fraction) -> int:
            amount = value * stake
            if amount.denominator != 1:  # pragma: no cover - check_stake rules this out
                raise InvalidRecord([Problem("stake", "stake_makes_fraction", {
                    "stake": stake, "multiple": amount.denominator, "field": "",
                    "value": format_amount(value), "amount": format_amount(amount)})])  # fmt: skip
            return int(amount)

        self.rules = rules
        self.stake = stake
        self.card = money(rules.card_value) if rules.mode == "first_out" else 0
        per_cong_card = rules.card_value * rules.cong_multiplier
        if rules.mode != "first_out":
            self.cong_cards: tuple[int, ...] = (0,) * 14
        elif rules.count_special_cards:
            self.cong_cards = (0,) * 13 + (money(13 * per_cong_card),)
        else:
            self.cong_cards = tuple(money(n * per_cong_card) for n in range(14))
        self.cong_x = format_amount(rules.cong_multiplier)
        pen = rules.penalties
        self.heo = {card: money(pen[card]) for card in HEO_CARDS}
        self.dt3, self.tq, self.dt4 = money(pen["3dt"]), money(pen["tq"]), money(pen["4dt"])
        self.chat = {key: money(value) for key, value in rules.chat_table.items()}
        if rules.mode == "placement":
            self.placement = {n: tuple(money(v) for v in rules.placement(n)) for n in (2, 3, 4)}
            self.cong_score = money(rules.cong_score)
        self.toi_trang = {h: money(rules.toi_trang_amount(h)) for h in rules.toi_trang_hands}
        self.ket = 0 if rules.ket_3_bich is None else money(rules.ket_3_bich)
        self.ca_lang = 0 if rules.cong_ca_lang is None else money(rules.cong_ca_lang)

    def thoi(self, hand: Hand) -> tuple[int, dict[str, Any]]:
        """What a hand's heo and hàng cost, and what it held (:func:`.words.thoi_params`,
        said "thối 2♥ + tứ quý")."""
        amount = sum(self.heo[card] for card in hand.heo)
        # 5 đôi thông is priced as 4 đôi thông, "or longer".
        amount += hand.dt3 * self.dt3 + hand.tq * self.tq + (hand.dt4 + hand.dt5) * self.dt4
        return amount, thoi_params(hand.heo, hand.dt3, hand.tq, hand.dt4, hand.dt5)


def score_game(
    rules: RuleSet,
    record: GameRecord | Mapping[str, Any],
    stake: int,
    *,
    prices: Prices | None = None,
) -> GameResult:
    """Every payment of one game at ``stake`` đồng per unit (``prices``: the rule set's
    :class:`Prices` at that stake, when the caller has made them for many games).

    Raises :class:`InvalidRuleSet` for a bad rule set and :class:`InvalidRecord` for a bad record
    or a stake that would make an amount fractional.
    """
    if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
        raise InvalidRecord(check_stake(rules, stake))
    if prices is None:
        prices = Prices(rules, stake)
    elif prices.stake != stake or (prices.rules is not rules and prices.rules != rules):
        raise ValueError("these prices are for another rule set or stake")
    if not isinstance(record, GameRecord):
        record = parse_record(record, rules)
    out: list[Transfer] = []
    thoi: dict[str, int] = {}
    notes: list[Problem] = []
    if record.toi_trang is not None:
        _toi_trang(record, prices, out, thoi, notes)
    else:
        _game(record, rules, prices, out, thoi, notes)
        for chain in record.chat:
            _chat(chain, prices, out)
    net = dict.fromkeys(record.players, 0)
    total = 0
    for t in out:
        amount = t.amount
        net[t.payer] -= amount
        net[t.payee] += amount
        total += abs(amount)
    # No payment and no player's net can be larger than all the payments together.
    if total > MAX_AMOUNT:
        too_large = check_game_limit((t.amount for t in out), net)
        if too_large:
            raise InvalidRecord(too_large)
    return GameResult(tuple(out), net, thoi, tuple(notes))


def _game(
    record: GameRecord,
    rules: RuleSet,
    prices: Prices,
    out: list[Transfer],
    thoi: dict[str, int],
    notes: list[Problem],
) -> None:
    """Everything but chặt, then đền applied to it."""
    winner = record.finish[0]
    cong = record.cong
    chan = record.chan_ket_3_bich
    ket = record.ket_3_bich
    if rules.ket_3_bich is None:  # kết 3 bích and chặn are facts this rule set does not price
        if ket:
            notes.append(Problem("ket_3_bich", "ket_3_bich_set_aside", {"rules": rules.name}))
        if chan is not None:
            notes.append(
                Problem("chan_ket_3_bich", "chan_ket_3_bich_set_aside", {"rules": rules.name})
            )
        ket, chan = False, None
    if chan is not None:
        for player in chan.last_round:
            if player != chan.player:
                out.append(Transfer(chan.player, player, prices.ket, "chan_ket_3_bich",
                                    "chan_ket_3_bich"))  # fmt: skip
        if not rules.chan_ket_keeps_cards:
            return
    # chặn kết 3 bích is not owed to the winner: đền does not touch it.
    start = len(out)
    if ket:
        for player in record.players:
            if player != winner:
                out.append(Transfer(player, winner, prices.ket, "ket_3_bich", "ket_3_bich"))
        if rules.ket_3_bich_mode == "plus":
            _first_out(record, rules, prices, out, thoi)
    elif cong and rules.cong_ca_lang is not None:
        if prices.ca_lang:
            for payer in cong:
                for payee in record.players:
                    if payee not in cong:
                        out.append(Transfer(payer, payee, prices.ca_lang, "cong", "cong_ca_lang"))
    elif rules.mode == "first_out":
        _first_out(record, rules, prices, out, thoi)
    else:
        _placement(record, rules, prices, out, thoi)
    if record.den is not None:
        _den(record.den, winner, out, start)


def _first_out(
    record: GameRecord,
    rules: RuleSet,
    prices: Prices,
    out: list[Transfer],
    charged: dict[str, int],
) -> None:
    winner = record.finish[0]
    cong = record.cong
    hands = record.hands
    two_out = record.two_out
    for player in record.players:
        if player == winner:
            continue
        if player == two_out:
            # Went out on a 2: bét, paying for the cards the rule set counts it as.
            count = rules.two_out_cards or 0
            if count and prices.card:
                out.append(Transfer(player, winner, prices.card * count, "cards",
                                    "two_out", {"n": count}))  # fmt: skip
            continue
        hand = hands.get(player, EMPTY_HAND)
        cards = hand.cards if rules.count_special_cards else hand.cards - hand.special_cards
        amount, reason, code, params = _cards_owed(cards, player in cong, prices)
        if hand.has_thoi:  # paid with the cards, in one payment: "5 lá + thối 2♥"
            thoi, held = prices.thoi(hand)
            params = {**params, "thoi": held}
            if not amount and reason == "cards":
                reason = "thoi"
            amount += thoi
            if thoi:
                charged[player] = thoi
        if amount:
            out.append(Transfer(player, winner, amount, reason, code, params))


def _cards_owed(cards: int, in_cong: bool, prices: Prices) -> tuple[int, str, str, Params]:
    """What a first_out loser's cards cost: (amount, reason, code, params); code ``thoi``
    (nothing to say yet) for no cards."""
    if in_cong:
        return prices.cong_cards[cards], "cong", "cong", {"n": cards, "x": prices.cong_x}
    if not cards:
        return 0, "cards", "thoi", {}
    return prices.card * cards, "cards", "cards", {"n": cards}


def _placement(
    record: GameRecord,
    rules: RuleSet,
    prices: Prices,
    out: list[Transfer],
    charged: dict[str, int],
) -> None:
    finish = record.finish
    cong = record.cong
    n = len(record.players)
    names = (*("first", "second", "third")[: n - 1], "last")
    values = prices.placement[n]
    score: dict[str, int] = {}
    rank_name: dict[str, str] = {}
    rank = 0
    for player in finish:
        if player in cong:
            score[player] = prices.cong_score
            rank_name[player] = "cong"
        else:
            score[player] = values[rank]
            rank_name[player] = names[rank]
            rank += 1
    first = finish[0]
    score[first] = -sum(v for p, v in score.items() if p != first)
    # Lowest-ranked debtor pays the highest-ranked creditor first: paying one suggested transfer
    # never reshuffles the others.
    creditors = [p for p in finish if score[p] > 0]
    owed = {p: score[p] for p in creditors}
    ci = 0
    for payer in reversed(finish):
        debt = -score[payer]
        while debt > 0:
            payee = creditors[ci]
            amount = min(debt, owed[payee])
            reason = "cong" if payer in cong else "placement"
            ranks = {"from": rank_name[payer], "to": rank_name[payee]}
            out.append(Transfer(payer, payee, amount, reason, "place", ranks))
            debt -= amount
            owed[payee] -= amount
            if not owed[payee]:
                ci += 1
    # Thối: a cóng player pays the rule set's recipient for cóng (by default the nhất); the
    # player left holding cards pays the thối recipient (the nhất, or the player ranked just
    # above).
    for i, player in enumerate(finish):
        hand = record.hand(player)
        if not hand.has_thoi:
            continue
        amount, held = prices.thoi(hand)
        to = rules.cong_thoi_to if player in cong else rules.thoi_to
        payee = first if to == "winner" else finish[i - 1]
        if amount:
            out.append(Transfer(player, payee, amount, "thoi", "thoi", {"thoi": held}))
            charged[player] = amount


def _den(den: str, winner: str, out: list[Transfer], start: int) -> None:
    """The đền player takes over every payment owed to the winner; the rest are dropped."""
    moved: list[Transfer] = []
    for t in out[start:]:
        if t.payee != winner:
            continue
        if t.payer == den:
            moved.append(t)
        else:
            owed = {"player": t.payer, "code": t.code, "params": t.params}
            moved.append(Transfer(den, winner, t.amount, "den", "den", owed))
    out[start:] = moved


def _chat(chain: ChatChain, prices: Prices, out: list[Transfer]) -> None:
    """The last chopped player pays the last chopper every chopped play of the chain."""
    if chain.victim_out:
        return
    *chopped, chopper = chain.steps
    chat = prices.chat
    amount = sum(sum(chat[card] for card in s.cards) if s.cards else chat[s.play] for s in chopped)
    if amount:
        # Only a heo or đôi heo is told by its cards.
        steps = [[s.play, list(s.cards) if s.play in ("heo", "doi_heo") else []] for s in chopped]
        params = {"steps": steps}
        out.append(Transfer(chopped[-1].player, chopper.player, amount, "chat", "chat", params))


def _toi_trang(
    record: GameRecord,
    prices: Prices,
    out: list[Transfer],
    charged: dict[str, int],
    notes: list[Problem],
) -> None:
    assert record.toi_trang is not None
    winner = record.toi_trang.player
    hand = record.toi_trang.hand
    base = prices.toi_trang[hand]
    counts_thoi = prices.rules.counts_thoi_on(hand)
    if record.hands and not counts_thoi:
        said = {"rules": prices.rules.name, "hand": Words(hand_label(hand), hand_label(hand, "en"))}
        notes.append(Problem("hands", "hands_set_aside", said))
    for player in record.players:
        if player == winner:
            continue
        amount = base
        params: dict[str, Any] = {"hand": hand}
        if counts_thoi:
            thoi, held = prices.thoi(record.hand(player))
            if held:
                amount += thoi
                params = {"hand": hand, "thoi": held}
            if thoi:
                charged[player] = thoi
        if amount:
            out.append(Transfer(player, winner, amount, "toi_trang", "toi_trang", params))


def next_leader(record: GameRecord) -> str | None:
    """Who leads the next game: the winner; after đền the đền player; after a tới trắng None
    (whoever holds 3♠ leads, a ván khởi đầu)."""
    if record.toi_trang is not None:
        return None
    if record.den is not None:
        return record.den
    return record.finish[0]
