"""Random valid game records, for property tests, the benchmark and demo data.

:func:`random_record` draws a record that :func:`parse_record` accepts for the given rule set:
any player count, cóng, thối, chặt chains (chặt chồng included), đền, tới trắng, kết 3 bích and
chặn kết 3 bích where the rule set has them. It draws from a ``random.Random`` so a seed (or
Hypothesis's ``st.randoms()``) reproduces it.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CARD_STRENGTH, HEO_CARDS, RANKS, SUITS
from .rules import RuleSet
from .validate import den_allowed

NAMES: tuple[str, ...] = ("An", "Bình", "Chi", "Dũng")


def _special(rng: random.Random, cards: int, heo_left: list[str]) -> dict[str, Any]:
    """heo and hàng that fit in ``cards`` cards, taking 2s out of ``heo_left``."""
    hand: dict[str, Any] = {"cards": cards}
    room = cards
    heo: list[str] = []
    while heo_left and room and rng.random() < 0.3:
        heo.append(heo_left.pop())
        room -= 1
    if heo:
        hand["heo"] = heo
    for key, size, chance in (("3dt", 6, 0.12), ("tq", 4, 0.12), ("4dt", 8, 0.05)):
        count = 0
        while room >= size and rng.random() < chance:
            count += 1
            room -= size
        if count:
            hand[key] = count
    return hand


def _top(rng: random.Random, play: str, above: int) -> str | None:
    """A top card for a hàng, stronger than strength ``above``; None if there is none."""
    high = 52 if play == "tq" else 48  # runs of pairs hold no 2
    low = max(above + 1, 8 if play == "3dt" else 0)
    if low >= high:
        return None
    strength = rng.randrange(low, high)
    return RANKS[strength // 4] + SUITS[strength % 4]


def _chain(
    rules: RuleSet, rng: random.Random, players: list[str], heo_left: list[str]
) -> list[dict[str, Any]] | None:
    """A chain the rule set's chop table allows, or None when it lets nothing be chopped."""
    victims = ["3dt", "tq", "4dt"]
    if heo_left:
        victims.append("heo")
    if len(heo_left) >= 2:
        victims.append("doi_heo")
    victims = [v for v in victims if rules.chopped_by(v)]
    if not victims:
        return None
    play = rng.choice(victims)
    step: dict[str, Any] = {"player": rng.choice(players), "play": play}
    if play == "heo":
        step["cards"] = [heo_left.pop()]
    elif play == "doi_heo":
        step["cards"] = [heo_left.pop(), heo_left.pop()]
    tops: dict[str, int] = {}

    def maybe_top(step: dict[str, Any]) -> None:
        # A hàng may say its top card; one of the same kind chopping it must then be bigger.
        kind = step["play"]
        if kind in ("heo", "doi_heo") or rng.random() < 0.4:
            return
        top = _top(rng, kind, tops.get(kind, -1))
        if top is not None:
            step["top"] = top
            tops[kind] = CARD_STRENGTH[top]

    maybe_top(step)
    steps = [step]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        prev = steps[-1]
        chops = sorted(rules.chopped_by(prev["play"]))
        if not chops:  # never on the first chop: victims are plays something chops
            break
        others = [p for p in players if p != prev["player"]]
        nxt = {"player": rng.choice(others), "play": rng.choice(chops)}
        maybe_top(nxt)
        steps.append(nxt)
    return steps


def random_record(
    rules: RuleSet, rng: random.Random, names: tuple[str, ...] = NAMES
) -> dict[str, Any]:
    """A random record that is valid for ``rules`` (2 to ``len(names)`` players)."""
    n = rng.randint(2, min(4, len(names)))
    players = list(names[:n])
    heo_left = list(HEO_CARDS)
    rng.shuffle(heo_left)
    record: dict[str, Any] = {"players": players, "opening": rng.random() < 0.2}

    if rng.random() < 0.05 and rules.toi_trang_hands:
        hand = rng.choice(rules.toi_trang_hands)
        if hand in rules.toi_trang_opening_only:
            record["opening"] = True
        winner = rng.choice(players)
        record["toi_trang"] = {"player": winner, "hand": hand}
        if rules.counts_thoi_on(hand):
            record["hands"] = {p: _special(rng, 13, heo_left) for p in players if p != winner}
        return record

    order = players[:]
    rng.shuffle(order)
    winner = order[0]
    cong: list[str] = []
    if rng.random() < 0.3:
        cong = [p for p in order[1:] if rng.random() < 0.5]
    non_cong = [p for p in order if p not in cong]
    ca_lang = rules.cong_ca_lang is not None and bool(cong)
    hands = {p: _special(rng, 13, heo_left) for p in cong}
    if rules.mode == "first_out" or ca_lang:
        for p in non_cong[1:]:
            hands[p] = _special(rng, rng.randint(1, 12), heo_left)
        finish = [winner] if rng.random() < 0.5 else non_cong + cong
        last_holder = None
    else:
        finish = non_cong + cong
        last_holder = non_cong[-1]
        if last_holder != winner:
            hands[last_holder] = _special(rng, rng.randint(1, 12), heo_left)
    record["finish"] = finish
    record["hands"] = hands
    if cong and (rules.mode == "placement" or rng.random() < 0.5):
        record["cong"] = cong

    chains = []
    if len(non_cong) >= 2:
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            steps = _chain(rules, rng, non_cong, heo_left)
            if steps is None:
                break
            victim = steps[-2]["player"]
            chain: dict[str, Any] = {"steps": steps}
            can_be_out = victim == winner if last_holder is None else victim != last_holder
            if can_be_out and rng.random() < 0.2:
                chain["victim_out"] = True
            chains.append(chain)
    if chains:
        record["chat"] = chains

    losers = [p for p in order if p != winner]
    if den_allowed(rules, losers, cong) and rng.random() < (0.4 if cong else 0.1):
        record["den"] = rng.choice(losers)
    if rules.ket_3_bich is not None and rules.mode == "first_out":
        roll = rng.random()
        if roll < 0.1:
            record["ket_3_bich"] = True
        elif roll < 0.18 and len(non_cong) >= 2:
            stopped = rng.choice(non_cong)
            others = [p for p in non_cong if p != stopped]
            round_players = [p for p in others if rng.random() < 0.6] or [rng.choice(others)]
            record["chan_ket_3_bich"] = {"player": stopped, "last_round": round_players}
    return record
