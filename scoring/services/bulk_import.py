"""Writing an imported session file: every row in bulk, in one transaction.

:func:`session_import` is the whole import: the file is checked (``scoring.ledger.sessionfile``) and
every game scored before anything is written, then :func:`write_session` writes the sitting.

Recording games one by one through ``services.game_record`` costs about ten queries a game
(lock, number, game, seats, payments, history), so a large file held a gunicorn worker past
its timeout (figures in docs/reliability.md, section 6). Here the engine scores every game
first, in memory and before anything is written; then the sitting is opened through
``services.sitting_open`` (players and members exactly as at the table) and the games, their
seats and payments, the settlements and the history are each written in one statement
(``COPY`` on PostgreSQL), all inside one transaction: a file is imported whole or not at all.

The rows are the ones the per-game services write, column for column and in the same order:
games numbered from 1 at revision 1 with a new submission token each, their seats and
payments as ``services.games._write_result`` stores them, voided games and settlements as
``game_void`` and ``settlement_void`` leave them, one history entry per step (recorded,
voided, settled, settlement voided) and the sitting's version moved once per step.
``tests/exports/test_importer.py`` holds the per-game path and compares every column of
every row the two write; a column added to a model later gets its default here, and that
test says whether the services write the same.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F, Field, Model
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain
from scoring.ledger.sessionfile import CheckedSession, FileProblem, SessionFileError, session_check
from scoring.models import Game, Group, HistoryEntry, Payment, Seat, Settlement, Sitting
from scoring.services.common import InvalidInput
from scoring.services.sittings import sitting_open
from scoring.services.totals import refresh_totals
from scoring.text.typed import engine_language
from scoring.text.wording import SETTLEMENT_VOID_NOTE, void_note

# Rows per INSERT where Django writes (bulk_create): well under PostgreSQL's 65 535
# parameters per statement; on SQLite Django splits further by its own variable limit.
BATCH = 1000
# Field types whose database value is not the Python value itself (JSON text or Jsonb, the
# backend's datetime form, SQLite's hex UUIDs).
_PREPARED = {"JSONField", "DateTimeField", "DateField", "UUIDField"}
GAME_COLUMNS = [
    "sitting",
    "number",
    "revision",
    "record",
    "status",
    "void_reason",
    "led_by",
    "next_leader",
    "submission_token",
    "created_by",
    "created_at",
    "updated_at",
]
HISTORY_COLUMNS = [
    "sitting",
    "user",
    "username",
    "game",
    "settlement",
    "action",
    "revision",
    "before",
    "after",
    "note",
    "note_code",
    "at",
]
RECORDED, VOIDED, SETTLED, SETTLEMENT_VOIDED, IMPORTED = (
    a.value
    for a in (
        HistoryEntry.Action.RECORDED,
        HistoryEntry.Action.VOIDED,
        HistoryEntry.Action.SETTLED,
        HistoryEntry.Action.SETTLEMENT_VOIDED,
        HistoryEntry.Action.IMPORTED,
    )
)


def _new_value(field: Any) -> Any:
    """What a field holds on a new object before it is saved (``auto_now`` included)."""
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return timezone.now()
    return field.get_default()


def insert_rows(model: type[Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """INSERT rows of plain values the fastest way the database offers: COPY on PostgreSQL,
    one prepared statement run over every row (``executemany``) elsewhere.

    ``columns`` are field names (``game`` for a foreign key, given its id); a column not
    named gets the default a new object would hold. No model object is built per row (that
    and ``bulk_create`` were most of an import's time); each value here is still turned into
    the backend's form by its field (``get_db_prep_save``) wherever that is not the value
    itself.
    """
    # Concrete columns only (a foreign key by its field): never a reverse relation.
    given = [cast("Field[Any, Any]", model._meta.get_field(name)) for name in columns]
    # Any other column (one added to the model later) gets what a new object would hold.
    rest = [f for f in model._meta.concrete_fields if not f.primary_key and f not in given]
    fields = given + rest
    prepare = [f.get_internal_type() in _PREPARED for f in fields]
    values = [
        tuple(
            f.get_db_prep_save(v, connection) if prep else v
            for f, prep, v in zip(fields, prepare, (*row, *map(_new_value, rest)), strict=True)
        )
        for row in rows
    ]
    if not values:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    column_names = [f.column for f in fields]
    assert all(column_names)  # concrete fields all have a column
    names = ", ".join(connection.ops.quote_name(str(c)) for c in column_names)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)


@dataclass(frozen=True)
class _Scored:
    """A file's game, scored by the engine before anything is written."""

    record: dict[str, object]  # canonical, as stored
    parsed: engine.GameRecord
    result: engine.GameResult
    void: bool
    void_reason: str


def _score_all(checked: CheckedSession) -> list[_Scored]:
    """Every game of the file through the engine, against the rules the sitting will hold."""
    rules = engine.ruleset_from_dict(engine.ruleset_to_dict(checked.rules))
    prices = engine.Prices(rules, checked.stake)
    scored = []
    for index, game in enumerate(checked.games):
        try:
            parsed = engine.parse_record(game.record, rules)
            result = engine.score_game(rules, parsed, checked.stake, prices=prices)
        except engine.InvalidRecord as error:  # checked before; a belt for the braces
            lang = engine_language()
            raise SessionFileError(
                [
                    FileProblem(f"games[{index}].{p.path}", p.message(lang), index + 1)
                    for p in error.problems
                ]
            ) from None
        scored.append(
            _Scored(
                record=engine.record_to_dict(parsed),
                parsed=parsed,
                result=result,
                void=game.void,
                # What services.game_void would store.
                void_reason=game.void_reason.strip()[:200],
            )
        )
    return scored


def _players_of(game: _Scored, index: int, members: dict[str, int]) -> dict[str, int]:
    """Name in the record -> member's id, or the problem ``services.game_score`` reports."""
    names = game.record["players"]
    assert isinstance(names, list)
    strangers = [(i, name) for i, name in enumerate(names) if name not in members]
    if strangers:
        raise SessionFileError(
            [
                FileProblem(
                    f"games[{index}].players[{i}]",
                    _("%(name)s không có trong danh sách người chơi của tệp (players).")
                    % {"name": name},
                    index + 1,
                )
                for i, name in strangers
            ]
        )
    return {name: members[name] for name in names}


def write_session(
    *, owner: User, checked: CheckedSession, source: str, group: Group | None = None
) -> Sitting:
    """Create the sitting of a checked session file in ``group`` (the owner's default group
    when none is given); all of it, or nothing."""
    scored = _score_all(checked)
    with transaction.atomic(durable=True):
        sitting = sitting_open(
            owner=owner,
            name=checked.name,
            date=checked.date,
            rules=checked.rules,
            stake=checked.stake,
            player_names=checked.players,
            group=group,
        )
        members = dict(sitting.memberships.values_list("player__name", "player_id"))
        names = {pk: name for name, pk in members.items()}
        user, now = owner.pk, timezone.now
        players = [_players_of(game, index, members) for index, game in enumerate(scored)]

        # Games, as services.game_record (then services.game_void) leaves them.
        insert_rows(
            Game,
            GAME_COLUMNS,
            (
                (
                    sitting.pk,
                    number,
                    1,
                    game.record,
                    (Game.Status.VOID if game.void else Game.Status.ACTIVE).value,
                    game.void_reason if game.void else "",
                    None,
                    ids.get(engine.next_leader(game.parsed) or ""),
                    uuid.uuid4(),
                    user,
                    now(),
                    now(),
                )
                for number, (game, ids) in enumerate(zip(scored, players, strict=True), 1)
            ),
        )
        game_ids = dict(Game.objects.filter(sitting=sitting).values_list("number", "pk"))

        # Seats and payments, as services.games._write_result stores them.
        insert_seats_and_payments(
            (game_ids[number], 1, game.record, game.result, ids)
            for number, (game, ids) in enumerate(zip(scored, players, strict=True), 1)
        )

        settlements = Settlement.objects.bulk_create(
            [
                Settlement(
                    sitting=sitting,
                    payer_id=members[s.payer],
                    payee_id=members[s.payee],
                    amount=s.amount,
                    created_by_id=user,
                    is_void=s.void,
                    # What services.settlement_void would store.
                    void_reason=(s.void_reason.strip() or SETTLEMENT_VOID_NOTE)[:200]
                    if s.void
                    else "",
                )
                for s in checked.settlements
            ],
            batch_size=BATCH,
        )

        # One history entry per step the services would have taken, in their order.
        history: list[tuple[Any, ...]] = []
        for number, game in enumerate(scored, 1):
            game_id = game_ids[number]
            history.append((game_id, None, RECORDED, 1, None, game.record, "", "", now()))
            if game.void:
                noted = _noted(game.void_reason)
                history.append((game_id, None, VOIDED, 1, None, None, *noted, now()))
        for settlement in settlements:
            after = {
                "from": names[settlement.payer_id],
                "to": names[settlement.payee_id],
                "amount": settlement.amount,
            }
            history.append((None, settlement.pk, SETTLED, None, None, after, "", "", now()))
            if settlement.is_void:
                history.append(
                    (
                        None,
                        settlement.pk,
                        SETTLEMENT_VOIDED,
                        None,
                        None,
                        None,
                        *_noted(settlement.void_reason),
                        now(),
                    )
                )
        steps = len(history)  # services move the sitting's version once per change
        # The one entry no service writes: where the rows above came from, which only the
        # import knows.
        imported = {"games": len(scored), "settlements": len(settlements)}
        history.append((None, None, IMPORTED, None, None, imported, source[:200], "", now()))
        insert_rows(
            HistoryEntry,
            [*HISTORY_COLUMNS, "hash"],
            (
                (sitting.pk, user, owner.get_username(), *row, digest)
                for row, digest in _chained(sitting, owner, history)
            ),
        )
        Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + steps)
        refresh_totals([sitting.pk])
    sitting.refresh_from_db()
    return sitting


def _chained(
    sitting: Sitting, owner: User, rows: list[tuple[Any, ...]]
) -> Iterable[tuple[tuple[Any, ...], str]]:
    """Each history row with its link in the sitting's chain (after the "opened" entry
    ``sitting_open`` wrote), computed by the one function every entry is hashed with."""
    numbers = dict(Game.objects.filter(sitting=sitting).values_list("pk", "number"))
    settled = Settlement.objects.filter(sitting=sitting).order_by("id").values_list("pk", flat=True)
    settlement_numbers = {pk: n for n, pk in enumerate(settled, 1)}
    entries = [
        HistoryEntry(
            sitting=sitting,
            user_id=owner.pk,
            username=owner.get_username(),
            game=None if game is None else Game(pk=game, sitting=sitting, number=numbers[game]),
            settlement_id=settlement,
            action=action,
            revision=revision,
            before=before,
            after=after,
            note=note,
            note_code=note_code,
            at=at,
        )
        for game, settlement, action, revision, before, after, note, note_code, at in rows
    ]
    for entry in entries:
        # The settlements' numbers are known here: one query, not one per entry.
        number = settlement_numbers.get(entry.settlement_id or 0)
        entry.chain_numbers = {"settlement": number, "undoes": None}  # type: ignore[attr-defined]
    chain.link_all(entries)
    return zip(rows, (entry.hash for entry in entries), strict=True)


@dataclass(frozen=True)
class Imported:
    sitting: Sitting
    warnings: list[str]


def session_import(
    *, owner: User, data: object, source: str = "", group: Group | None = None
) -> Imported:
    """Create a new sitting from a session file: all of it, or nothing at all.

    The file is checked and every game scored before anything is written; then
    :func:`write_session` writes the sitting in bulk, in one transaction, with the same rows
    and history entries the per-game services (``game_record``, ``game_void``,
    ``settlement_record``, ``settlement_void``) would have written.
    """
    checked = session_check(data)
    try:
        sitting = write_session(owner=owner, checked=checked, source=source, group=group)
    except InvalidInput as error:  # e.g. a date inside the group's closed period
        raise SessionFileError([FileProblem(error.field or "", error.message)]) from None
    return Imported(sitting, checked.warnings)


def _noted(reason: str) -> tuple[str, str]:
    """(note, note_code) of the entry noting a void reason, as the services store it."""
    noted = void_note(reason)
    return noted.get("note", ""), noted.get("note_code", "")


def insert_seats_and_payments(
    games: Iterable[
        tuple[int, int | None, Mapping[str, Any], engine.GameResult, Mapping[str, int]]
    ],
) -> None:
    """The seats and payments of games just inserted in bulk, as ``services.games``
    stores them: each ``(game id, revision, record as the engine writes it, its result, the
    player id of each name)``."""
    seats = []
    payments = []
    for game_id, revision, record, result, ids in games:
        finish = record.get("finish") or []
        cong = set(record.get("cong") or [])
        for position, name in enumerate(record["players"]):
            seats.append(
                (
                    game_id,
                    ids[name],
                    position,
                    (finish.index(name) + 1) if name in finish else None,
                    name in cong,
                    result.net[name],
                    result.thoi.get(name, 0),
                )
            )
        for t in result.transfers:
            payments.append(
                (
                    game_id,
                    revision,
                    ids[t.payer],
                    ids[t.payee],
                    t.amount,
                    t.reason,
                    t.code,
                    t.params,
                )
            )
    insert_rows(Seat, ["game", "player", "position", "place", "is_cong", "net", "thoi"], seats)
    insert_rows(
        Payment,
        ["game", "revision", "payer", "payee", "amount", "reason", "detail_code", "detail_params"],
        payments,
    )
