"""A sitting as files to take away: the JSON session file and the CSV exports.

The session file, version 1::

    {"version": 1,
     "name": "Tối thứ Bảy", "date": "2026-05-16",          # date is optional on import
     "rules": <a preset id, or a rule-set object as stored in the sitting>,
     "stake": 5000,
     "players": ["An", "Bình", "Chi", "Dũng"],             # seating order
     "games": [<game record, docs/rules.md>, …],           # in order: game n is games[n-1]
     "settlements": [{"from": "An", "to": "Bình", "amount": 200000}, …],
     "totals": {"An": -200000, …},                          # export only
     "settle_up": [{"from": …, "to": …, "amount": …}],     # export only
     "history": [{<the entry's fields>, "hash": …}, …],     # export only, oldest first
     "fingerprint": "7F3K-9QX2"}                            # export only

A voided game keeps its record and carries ``"void": true`` and ``"void_reason"``; so does a
voided settlement. ``totals`` is each player's balance now (games plus settlements, as
``ledger.balances``) and ``settle_up`` the fewest payments that clear them; both are for a
person reading the file. Import (``scoring.imports``) recomputes them, ignores ``settle_up``
and only warns when ``totals`` disagrees. ``history`` is the sitting's whole history, each
entry as its hash chain covers it (``scoring.chain.fields``) with its ``hash``, and
``fingerprint`` the head's short form: ``manage.py verify_session FILE`` checks the chain and
that replaying it gives the file's games, offline; the import ignores both. Only each
game's current record is imported, so an imported game starts again at revision 1 (the
history stays with the original sitting).

The CSV exports are written by ``scoring.csvfile`` (a byte-order mark for spreadsheets, text
that would start a formula escaped). The payments CSV has one row per current payment of
*every* game, voided ones too, flagged ``void`` in the status column: the file is an audit
trail, and summing the ``active`` rows gives exactly the games column of the totals CSV.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.text import slugify

from scoring import chain, ledger, settle
from scoring.csvfile import csv_text
from scoring.ledger.balances import handed_over
from scoring.models import HistoryEntry, Payment, Player, Sitting
from scoring.wording import payment_words

FORMAT_VERSION = 1


def _members(sitting: Sitting) -> list[Player]:
    return [m.player for m in sitting.memberships.select_related("player")]


def _names(sitting: Sitting, balances: Mapping[int, int], members: list[Player]) -> dict[int, str]:
    """Player id -> name, for members and anyone else the ledger mentions (one query at most)."""
    names = {p.pk: p.name for p in members}
    missing = [pk for pk in balances if pk not in names]
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return names


def session_build(sitting: Sitting) -> dict[str, Any]:
    """The session file of a sitting, as a JSON-ready dict, in a constant number of queries."""
    members = _members(sitting)
    balances = ledger.balances(sitting)
    names = _names(sitting, balances, members)
    games = []
    for game in sitting.games.order_by("number").only("record", "status", "void_reason"):
        record = dict(game.record)
        if game.is_void:
            record["void"] = True
            record["void_reason"] = game.void_reason
        games.append(record)
    settlements = []
    for s in sitting.settlements.order_by("created_at", "id"):
        entry: dict[str, Any] = {
            "from": names[s.payer_id],
            "to": names[s.payee_id],
            "amount": s.amount,
        }
        if s.is_void:
            entry.update(void=True, void_reason=s.void_reason)
        settlements.append(entry)
    history = [
        {**chain.fields(entry), "hash": entry.hash}
        for entry in chain.entries(HistoryEntry, sitting.pk)
    ]
    totals = {names[pk]: amount for pk, amount in sorted(balances.items(), key=_seat(members))}
    plan = settle.min_payments(totals)
    return {
        "version": FORMAT_VERSION,
        "name": sitting.name,
        "date": sitting.date.isoformat(),
        "rules": sitting.rules,
        "stake": sitting.stake,
        "players": [p.name for p in members],
        "games": games,
        "settlements": settlements,
        "totals": totals,
        "settle_up": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in plan],
        "history": history,
        "fingerprint": chain.fingerprint(history[-1]["hash"] if history else ""),
    }


def _seat(members: list[Player]) -> Callable[[tuple[int, int]], tuple[int, int]]:
    order = {p.pk: i for i, p in enumerate(members)}
    return lambda item: (order.get(item[0], len(order)), item[0])


def session_json(sitting: Sitting) -> str:
    """The session file: indented for a person, but the history one compact entry a line
    (indented, it would take half again the size of a full sitting, which must stay under
    the import's limit to re-import)."""
    data = session_build(sitting)
    history = data.pop("history")
    fingerprint = data.pop("fingerprint")
    text = json.dumps(data, ensure_ascii=False, indent=2)
    assert text.endswith("\n}")
    entries = ",\n".join(
        "    " + json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in history
    )
    return (
        f'{text[:-2]},\n  "history": [\n{entries}\n  ],\n'
        f'  "fingerprint": {json.dumps(fingerprint)}\n}}\n'
    )


PAYMENTS_HEADER = ("game", "revision", "status", "payer", "payee", "amount", "reason", "detail")
TOTALS_HEADER = ("player", "games_net", "settlements", "balance", "paid", "received")


def payments_csv(sitting: Sitting) -> str:
    """One row per current payment of every game (voided games flagged ``void``), one query;
    the explanation in the active language."""
    payments = (
        Payment.objects.current()
        .filter(game__sitting=sitting)
        .order_by("game__number", "id")
        # Plain tuples: a model row per payment would also decode its game's record JSON.
        .values_list(
            "game__number",
            "revision",
            "game__status",
            "payer__name",
            "payee__name",
            "amount",
            "reason",
            "detail_code",
            "detail_params",
        )
    )
    rows = ((*row[:-2], payment_words(row[-2], row[-1])) for row in payments)
    return csv_text(PAYMENTS_HEADER, rows)


def totals_rows(sitting: Sitting) -> list[tuple[str, int, int, int, int, int]]:
    """(player, games net, settlements, balance, paid, received) per player, members in
    seating order.

    ``settlements`` is what settling has moved the balance by: paid out counts up (a debt
    shrinks), received counts down, so ``games net + settlements = balance``; ``paid`` and
    ``received`` are the two sides of it, never netted (``settlements = paid - received``).
    """
    members = _members(sitting)
    balances = ledger.balances(sitting)
    games = ledger.game_totals(sitting)
    paid, received = handed_over(sitting)
    names = _names(sitting, balances, members)
    rows: list[tuple[str, int, int, int, int, int]] = []
    for pk, balance in sorted(balances.items(), key=_seat(members)):
        won = games.get(pk, 0)
        rows.append((names[pk], won, balance - won, balance, paid.get(pk, 0), received.get(pk, 0)))
    return rows


def totals_csv(sitting: Sitting) -> str:
    return csv_text(TOTALS_HEADER, totals_rows(sitting))


def file_stem(sitting: Sitting) -> str:
    """An ASCII file name stem: "Bàn Đức 16/5" on 2026-05-16 -> "ban-duc-16-5-2026-05-16"."""
    ascii_name = sitting.name.replace("đ", "d").replace("Đ", "D")
    return f"{slugify(ascii_name) or 'ban'}-{sitting.date.isoformat()}"
