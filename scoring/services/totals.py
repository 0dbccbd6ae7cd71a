"""Keeping each sitting's stored totals (``SittingTotal``, ``SittingFlow``) true.

Every write that changes what a sitting's games or settlements add up to (a game edited,
voided or restored, an undo or redo, a settlement recorded or voided, a merge of two
players, a move of the sitting to another group, an import) calls ``refresh_totals`` for the
sittings it changed, inside its own transaction, after its rows are written. It recomputes
those sittings' rows from scratch (``ledger.totals.compute``: a few aggregate queries over
one sitting's games, never the group's) and replaces them, so what is stored is what a fresh
count would give, whatever the write was. Closing a period and its undo change no amount and
leave the rows as they are.

A new game only adds: ``add_game`` adds its seats and payments to the rows in one statement
(two on SQLite: inserts that add to a row already there), where a recount would read the
whole sitting again on every save of the night. Anything else recounts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection

from scoring.ledger import totals
from scoring.models import Payment, Seat, SittingFlow, SittingTotal


def refresh_totals(sitting_ids: Iterable[int]) -> None:
    """Replace the stored totals of ``sitting_ids`` with what their rows add up to now. Call
    it in the write's transaction, with the sittings locked."""
    ids = sorted(set(sitting_ids))
    if not ids:
        return
    book = totals.compute(ids)
    total_rows, flow_rows = totals.rows_of(book)
    SittingTotal.objects.filter(sitting_id__in=ids).delete()
    SittingFlow.objects.filter(sitting_id__in=ids).delete()
    if total_rows:
        SittingTotal.objects.bulk_create(total_rows)
    if flow_rows:
        SittingFlow.objects.bulk_create(flow_rows)


def add_game(sitting_id: int, seats: Sequence[Seat], payments: Sequence[Payment]) -> None:
    """Add a newly recorded game (active, its first revision: it counts whole) to its
    sitting's stored rows: one statement on PostgreSQL, two on SQLite, whatever the sitting
    holds."""
    # Summed here, not in a ``totals.Book``: the save stays in this module until it is done.
    adds: dict[int, list[int]] = {}
    flows: dict[tuple[int, int], int] = {}

    def add(player_id: int, **amounts: int) -> None:
        row = adds.setdefault(player_id, [0] * len(totals.FIELDS))
        for name, amount in amounts.items():
            row[totals.FIELDS.index(name)] += int(amount)

    for seat in seats:
        add(seat.player_id, net=seat.net, games=1, first=seat.place == 1, cong=seat.is_cong)
        add(seat.player_id, thoi_games=seat.thoi > 0, thoi=seat.thoi)
    won_white: set[int] = set()
    for p in payments:
        flows[p.payer_id, p.payee_id] = flows.get((p.payer_id, p.payee_id), 0) + p.amount
        if p.reason == "chat":
            add(p.payee_id, chat_made=1, chat_made_amount=p.amount)
            add(p.payer_id, chat_suffered=1, chat_suffered_amount=p.amount)
        elif p.reason == "toi_trang":
            won_white.add(p.payee_id)
    for winner in won_white:
        add(winner, toi_trang=1)
    _add_rows(
        [
            _adding(
                SittingTotal,
                ("sitting_id", "player_id"),
                totals.FIELDS,
                [(sitting_id, player, *values) for player, values in adds.items()],
            ),
            _adding(
                SittingFlow,
                ("sitting_id", "payer_id", "payee_id"),
                ("amount",),
                [(sitting_id, *key, amount) for key, amount in flows.items()],
            ),
        ]
    )


def _adding(
    model: type[SittingTotal] | type[SittingFlow],
    keys: tuple[str, ...],
    fields: tuple[str, ...],
    rows: list[tuple[int, ...]],
) -> tuple[str, list[int]] | None:
    """An ``INSERT … ON CONFLICT DO UPDATE`` of ``rows`` (the key columns, then ``fields``)
    that adds ``fields`` to a row already there, and its parameters; SQLite and PostgreSQL
    both read it (the ORM's upsert can only replace a value, not add to it)."""
    if not rows:
        return None
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(c) for c in (*keys, *fields))
    one = "(" + ", ".join(["%s"] * (len(keys) + len(fields))) + ")"
    adds = ", ".join(f"{quote(f)} = {table}.{quote(f)} + excluded.{quote(f)}" for f in fields)
    sql = (
        f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(rows))} "
        f"ON CONFLICT ({', '.join(quote(k) for k in keys)}) DO UPDATE SET {adds}"
    )
    return sql, [value for row in rows for value in row]


def _add_rows(inserts: list[tuple[str, list[int]] | None]) -> None:
    """Run the inserts: on PostgreSQL as one statement (each but the last in a ``WITH``, which
    PostgreSQL runs to completion whether or not the last reads it), one each on SQLite."""
    found = [insert for insert in inserts if insert is not None]
    if not found:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            *first, (last_sql, last_params) = found
            head = ", ".join(
                f"added{n} AS ({sql} RETURNING 1)" for n, (sql, _p) in enumerate(first)
            )
            params = [value for _sql, p in first for value in p] + last_params
            cursor.execute(f"WITH {head} {last_sql}" if first else last_sql, params)
        else:
            for sql, params in found:
                cursor.execute(sql, params)
