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
from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring import engine, services
from scoring.models import Game, HistoryEntry, Payment, Player, Seat, Settlement, Sitting

if TYPE_CHECKING:
    from scoring.session_file import CheckedSession

# Rows per INSERT: well under PostgreSQL's 65 535 parameters per statement for every model
# here; on SQLite Django splits further by its own variable limit.
BATCH = 1000


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
        Game.objects.bulk_create(games, batch_size=BATCH)
        seats: list[Seat] = []
        payments: list[Payment] = []
        for row, as_service in zip(games, played, strict=True):
            game_seats, game_payments = services.result_rows(row, as_service)
            seats += game_seats
            payments += game_payments
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        Payment.objects.bulk_create(payments, batch_size=BATCH)

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
                    sitting=sitting,
                    game=row,
                    user=owner,
                    action=HistoryEntry.Action.RECORDED,
                    revision=1,
                    after=game.record,
                )
            )
            if game.void:
                history.append(
                    HistoryEntry(
                        sitting=sitting,
                        game=row,
                        user=owner,
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
        HistoryEntry.objects.bulk_create(history, batch_size=BATCH)
        Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + steps)
    sitting.refresh_from_db()
    return sitting
