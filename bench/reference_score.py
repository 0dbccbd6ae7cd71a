"""A naive reference scorer: the rules book's payment rules written the plain way, for comparison.

It reads a full rule set in its JSON form (``docs/rules-json.md``), a stake and a JSON array of
game records, and prints one result per record: the transfers (from, to, amount, reason) and
each player's net, as ``manage.py score`` does, without the wording of each payment. Every
amount is a :class:`~fractions.Fraction` of the rule set's unit until the end, where it is
multiplied by the stake. It trusts its input (no validation) and shares no code with the engine,
so ``bench/bench_score.py`` can check that both agree on every net and compare their speed.

    python bench/reference_score.py RULES.json STAKE RECORDS.json
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

SUIT_LETTERS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
SPECIAL_CARDS = {"3dt": 6, "tq": 4, "4dt": 8}  # cards taken off the count where they are not cards


def card(text: str) -> str:
    text = text.strip().upper()
    return text[:-1] + SUIT_LETTERS.get(text[-1], text[-1])


def value(raw: Any) -> Fraction:
    return Fraction(str(raw))


def thoi(rules: dict[str, Any], hand: dict[str, Any]) -> Fraction:
    pen = rules["penalties"]
    total = sum((value(pen[card(c)]) for c in hand.get("heo", [])), Fraction(0))
    for kind in ("3dt", "tq", "4dt"):
        total += hand.get(kind, 0) * value(pen[kind])
    return total


def losers_cong(rules: dict[str, Any], record: dict[str, Any]) -> set[str]:
    cong = set(record.get("cong") or [])
    if rules["mode"] == "first_out":
        winner = record["finish"][0]
        for player, hand in (record.get("hands") or {}).items():
            if player != winner and hand.get("cards", 0) == 13:
                cong.add(player)
    return cong


def first_out(rules: dict[str, Any], record: dict[str, Any], cong: set[str]) -> list[Any]:
    winner = record["finish"][0]
    hands = record.get("hands") or {}
    out = []
    for player in record["players"]:
        if player == winner:
            continue
        hand = hands.get(player, {})
        cards = hand.get("cards", 0)
        if not rules["count_special_cards"]:
            cards -= len(hand.get("heo", []))
            cards -= sum(hand.get(k, 0) * n for k, n in SPECIAL_CARDS.items())
        amount = cards * value(rules["card_value"])
        reason = "cards"
        if player in cong:
            amount *= value(rules["cong_multiplier"])
            reason = "cong"
        penalty = thoi(rules, hand)
        if penalty and not amount and reason == "cards":
            reason = "thoi"
        if amount + penalty:
            out.append((player, winner, amount + penalty, reason))
    return out


def placement(rules: dict[str, Any], record: dict[str, Any], cong: set[str]) -> list[Any]:
    finish = record["finish"]
    values = [value(v) for v in rules["placement"][str(len(record["players"]))]]
    score = {}
    rank = 0
    for player in finish:
        if player in cong:
            score[player] = value(rules["cong_score"])
        else:
            score[player] = values[rank]
            rank += 1
    first = finish[0]
    score[first] = -sum(v for p, v in score.items() if p != first)
    out = []
    owed = {p: score[p] for p in finish if score[p] > 0}
    for payer in reversed(finish):
        debt = -score[payer]
        for payee in finish:
            if debt <= 0:
                break
            if owed.get(payee, 0) > 0:
                amount = min(debt, owed[payee])
                out.append((payer, payee, amount, "cong" if payer in cong else "placement"))
                debt -= amount
                owed[payee] -= amount
    hands = record.get("hands") or {}
    for i, player in enumerate(finish):
        penalty = thoi(rules, hands.get(player, {}))
        if penalty:
            above = first if player in cong or rules["thoi_to"] == "winner" else finish[i - 1]
            out.append((player, above, penalty, "thoi"))
    return out


def chat(rules: dict[str, Any], chain: dict[str, Any]) -> list[Any]:
    if chain.get("victim_out"):
        return []
    table = rules["chat_penalties"] or rules["penalties"]
    steps = chain["steps"]
    amount = Fraction(0)
    for step in steps[:-1]:
        if step.get("cards"):
            amount += sum(value(table[card(c)]) for c in step["cards"])
        else:
            amount += value(table[step["play"]])
    if not amount:
        return []
    return [(steps[-2]["player"], steps[-1]["player"], amount, "chat")]


def game(rules: dict[str, Any], record: dict[str, Any]) -> list[Any]:
    players = record["players"]
    trang = record.get("toi_trang")
    if trang:
        base = rules["toi_trang_hand_values"].get(trang["hand"], rules["toi_trang_value"])
        hands = record.get("hands") or {}
        out = []
        for player in players:
            if player != trang["player"]:
                amount = value(base)
                if rules["toi_trang_counts_thoi"]:
                    amount += thoi(rules, hands.get(player, {}))
                if amount:
                    out.append((player, trang["player"], amount, "toi_trang"))
        return out
    winner = record["finish"][0]
    cong = losers_cong(rules, record)
    chan = record.get("chan_ket_3_bich")
    if chan:
        owed = [(chan["player"], p, value(rules["ket_3_bich"]), "chan_ket_3_bich")
                for p in chan["last_round"] if p != chan["player"]]  # fmt: skip
    elif record.get("ket_3_bich"):
        owed = [(p, winner, value(rules["ket_3_bich"]), "ket_3_bich") for p in players
                if p != winner]  # fmt: skip
    elif cong and rules["cong_ca_lang"] is not None:
        fixed = value(rules["cong_ca_lang"])
        owed = [(c, p, fixed, "cong") for c in players if c in cong
                for p in players if p not in cong and fixed]  # fmt: skip
    elif rules["mode"] == "first_out":
        owed = first_out(rules, record, cong)
    else:
        owed = placement(rules, record, cong)
    den = record.get("den")
    if den and not chan:
        owed = [(t[0], t[1], t[2], t[3]) if t[0] == den else (den, winner, t[2], "den")
                for t in owed if t[1] == winner]  # fmt: skip
    for chain in record.get("chat") or []:
        owed += chat(rules, chain)
    return owed


def score(rules: dict[str, Any], record: dict[str, Any], stake: int) -> dict[str, Any]:
    net = {p: Fraction(0) for p in record["players"]}
    transfers = []
    for payer, payee, units, reason in game(rules, record):
        amount = units * stake
        assert amount.denominator == 1, "the stake makes an amount fractional"
        net[payer] -= amount
        net[payee] += amount
        transfers.append({"from": payer, "to": payee, "amount": int(amount), "reason": reason})
    return {"transfers": transfers, "net": {p: int(v) for p, v in net.items()}}


def main(argv: list[str]) -> None:
    rules_file, stake, records_file = argv
    with open(rules_file, encoding="utf-8") as f:
        rules = json.load(f)
    with open(records_file, encoding="utf-8") as f:
        records = json.load(f)
    results = [score(rules, record, int(stake)) for record in records]
    sys.stdout.write(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
