"""Writing an imported session file: every row in bulk, in one transaction.

Recording games one by one through ``services.game_record`` costs about ten queries a game
(lock, number, game, seats, payments, history), so a 2 000-game file took half a minute and
held a gunicorn worker past its timeout. Here the engine scores every game first, in memory
and before anything is written; then the sitting is opened through ``services.sitting_open``
(players and members exactly as at the table) and the games, their seats and payments, the
settlements and the history are each written with one ``bulk_create`` (in batches), all
inside one transaction: a file is imported whole or not at all.

The rows are the ones the per-game services write, field for field and in the same order:
games numbered from 1 at revision 1 with a new submission token each, the seats and payments
of ``services.result_rows``, voided games and settlements as ``game_void`` and
``settlement_void`` leave them, one history entry per step (recorded, voided, settled,
settlement voided) and the sitting's version moved once per step.
``tests/exports/test_importer.py`` holds the per-game path and compares the two.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import F, Model
from django.utils.translation import gettext as _

from scoring import engine, services
from scoring.models import Game, HistoryEntry, Payment, Player, Seat, Settlement, Sitting

if TYPE_CHECKING:
    from scoring.session_file import CheckedSession

# Rows per INSERT where Django writes (bulk_create): well under PostgreSQL's 65 535
# parameters per statement; on SQLite Django splits further by its own variable limit.
BATCH = 1000
# Field types whose database value is not the Python value itself (JSON text or Jsonb, the
# backend's datetime form, SQLite's hex UUIDs).
_PREPARED = {"JSONField", "DateTimeField", "DateField", "UUIDField"}


def _insert(model: type[Model], objs: list[Any]) -> None:
    """INSERT unsaved rows the fastest way the database offers: COPY on PostgreSQL, one
    prepared statement run over every row (``executemany``) elsewhere.

    ``bulk_create`` spends most of its time preparing each row in Python (about half of a
    2 000-game import on PostgreSQL went there), and none of these rows needs an id back
    (the games' come back in one query by number). The values are Django's own (``pre_save``
    fills the ``auto_now`` columns, ``get_db_prep_save`` gives each backend its form), so
    the rows are the ones ``bulk_create`` would have written.
    """
    if not objs:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    prepared = [f.get_internal_type() in _PREPARED for f in fields]
    rows = [
        tuple(
            f.get_db_prep_save(f.pre_save(obj, True), connection) if prep else f.pre_save(obj, True)
            for f, prep in zip(fields, prepared, strict=True)
        )
        for obj in objs
    ]
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


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
    from scoring.session_file import FileProblem, SessionFileError

    rules = engine.ruleset_from_dict(engine.ruleset_to_dict(checked.rules))
    scored = []
    for index, game in enumerate(checked.games):
        try:
            parsed = engine.parse_record(game.record, rules)
            result = engine.score_game(rules, parsed, checked.stake)
        except engine.InvalidRecord as error:  # checked before; a belt for the braces
            lang = services._lang()
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


def _players_of(game: _Scored, index: int, members: dict[str, Player]) -> dict[str, Player]:
    """Name in the record -> member, or the problem ``services.game_score`` would report."""
    from scoring.session_file import FileProblem, SessionFileError

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


def write_session(*, owner: AbstractBaseUser, checked: CheckedSession, source: str) -> Sitting:
    """Create the sitting of a checked session file; all of it, or nothing."""
    scored = _score_all(checked)
    with transaction.atomic():
        sitting = services.sitting_open(
            owner=owner,
            name=checked.name,
            date=checked.date,
            rules=checked.rules,
            stake=checked.stake,
            player_names=checked.players,
        )
        members = {m.player.name: m.player for m in sitting.memberships.select_related("player")}

        games: list[Game] = []
        played: list[services.Scored] = []
        for index, game in enumerate(scored):
            players = _players_of(game, index, members)
            as_service = services.Scored(
                record=game.record, parsed=game.parsed, result=game.result, players=players
            )
            games.append(
                Game(
                    sitting=sitting,
                    number=index + 1,
                    record=game.record,
                    submission_token=uuid.uuid4(),
                    created_by=owner,
                    led_by=None,
                    next_leader=services._next_leader(as_service),
                    status=Game.Status.VOID if game.void else Game.Status.ACTIVE,
                    void_reason=game.void_reason if game.void else "",
                )
            )
            played.append(as_service)
        _insert(Game, games)
        ids = dict(Game.objects.filter(sitting=sitting).values_list("number", "pk"))
        for row in games:
            row.pk = ids[row.number]
        seats: list[Seat] = []
        payments: list[Payment] = []
        for row, as_service in zip(games, played, strict=True):
            game_seats, game_payments = services.result_rows(row, as_service)
            seats += game_seats
            payments += game_payments
        _insert(Seat, seats)
        _insert(Payment, payments)

        settlements = [
            Settlement(
                sitting=sitting,
                payer=members[s.payer],
                payee=members[s.payee],
                amount=s.amount,
                created_by=owner,
                is_void=s.void,
                # What services.settlement_void would store.
                void_reason=(s.void_reason.strip() or _("Ghi nhầm"))[:200] if s.void else "",
            )
            for s in checked.settlements
        ]
        Settlement.objects.bulk_create(settlements, batch_size=BATCH)

        history: list[HistoryEntry] = []
        for row, game in zip(games, scored, strict=True):
            history.append(
                HistoryEntry(
                    sitting_id=sitting.pk,
                    game_id=row.pk,
                    user_id=owner.pk,
                    action=HistoryEntry.Action.RECORDED,
                    revision=1,
                    after=game.record,
                )
            )
            if game.void:
                history.append(
                    HistoryEntry(
                        sitting_id=sitting.pk,
                        game_id=row.pk,
                        user_id=owner.pk,
                        action=HistoryEntry.Action.VOIDED,
                        revision=1,
                        note=game.void_reason,
                    )
                )
        for settlement in settlements:
            history.append(
                HistoryEntry(
                    sitting=sitting,
                    settlement=settlement,
                    user=owner,
                    action=HistoryEntry.Action.SETTLED,
                    after={
                        "from": settlement.payer.name,
                        "to": settlement.payee.name,
                        "amount": settlement.amount,
                    },
                )
            )
            if settlement.is_void:
                history.append(
                    HistoryEntry(
                        sitting=sitting,
                        settlement=settlement,
                        user=owner,
                        action=HistoryEntry.Action.SETTLEMENT_VOIDED,
                        note=settlement.void_reason,
                    )
                )
        steps = len(history)  # services move the sitting's version once per change
        # The one row no service writes: where the rows above came from, which only the
        # import knows.
        history.append(
            HistoryEntry(
                sitting=sitting,
                user=owner,
                action=HistoryEntry.Action.IMPORTED,
                note=source[:200],
                after={"games": len(games), "settlements": len(settlements)},
            )
        )
        _insert(HistoryEntry, history)
        Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + steps)
    sitting.refresh_from_db()
    return sitting
