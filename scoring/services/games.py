"""Writes of games: record, edit, void and restore, and the undo and redo of those.

A game's money is computed by the engine when it is recorded or edited; each revision keeps
its payments (the audit), and ``Seat`` holds the current revision's nets.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain
from scoring.models import MAX_GAMES, Game, HistoryEntry, Payment, Player, Seat, Sitting
from scoring.services.common import (
    Conflict,
    InvalidInput,
    bump,
    frozen_columns,
    in_locked_sitting,
    lock_sitting_row,
    refuse_if_closed,
    refuse_if_frozen,
    safe_text,
    write_once,
)
from scoring.services.totals import add_game, refresh_totals
from scoring.text.wording import (
    REDO_NOTE,
    UNDO_RECORD_NOTE,
    UNDO_RESTORE_NOTE,
    reason_of,
    void_note,
)


@dataclass(frozen=True)
class Change:
    """What a write to a game left: the game as it now is, and the history entry it wrote
    (None when it changed nothing, or nothing worth an entry)."""

    game: Game
    entry: HistoryEntry | None


@dataclass(frozen=True)
class Scored:
    record: dict[str, Any]
    parsed: engine.GameRecord
    result: engine.GameResult
    players: dict[str, Player]  # name in the record -> player

    @property
    def next_leader(self) -> Player | None:
        name = engine.next_leader(self.parsed)
        return self.players.get(name) if name else None


def game_score(
    *,
    sitting: Sitting,
    record: Mapping[str, Any],
    members: Mapping[str, Player] | None = None,
) -> Scored:
    """Validate and score a record for this sitting without writing anything; ``members``
    (``Sitting.players_by_name``), when the caller has just read them, saves reading them
    again.

    Raises ``engine.InvalidRecord`` listing every problem (the preview shows them).
    """
    rules = sitting.ruleset()
    if members is None:
        members = sitting.players_by_name()
    names = record.get("players") if isinstance(record, Mapping) else None
    problems = [
        engine.Problem(path=f"players[{index}]", code="not_a_member", params={"player": name})
        for index, name in enumerate(names if isinstance(names, list) else [])
        if isinstance(name, str) and name not in members
    ]
    if problems:
        raise engine.InvalidRecord(problems)
    parsed = engine.parse_record(record, rules)
    result = engine.score_game(rules, parsed, sitting.stake)
    canonical = engine.record_to_dict(parsed)
    return Scored(
        record=canonical,
        parsed=parsed,
        result=result,
        players={name: members[name] for name in canonical["players"]},
    )


def _write_result(game: Game, scored: Scored, *, replace: bool = True) -> None:
    """Store the seats and payments of the game's current revision."""
    record = scored.record
    finish = record.get("finish") or []
    cong = set(record.get("cong") or [])
    if replace:
        Seat.objects.filter(game=game).delete()
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            player=scored.players[name],
            position=position,
            place=(finish.index(name) + 1) if name in finish else None,
            is_cong=name in cong,
            net=scored.result.net[name],
            thoi=scored.result.thoi.get(name, 0),
        )
        for position, name in enumerate(record["players"])
    )
    payments = Payment.objects.bulk_create(
        Payment(
            game=game,
            revision=game.revision,
            payer=scored.players[t.payer],
            payee=scored.players[t.payee],
            amount=t.amount,
            reason=t.reason,
            detail_code=t.code,
            detail_params=t.params,
        )
        for t in scored.result.transfers
    )
    if replace or game.status != Game.Status.ACTIVE:
        refresh_totals([game.sitting_id])  # another revision: the sitting recounted
    else:
        add_game(game.sitting_id, seats, payments)  # a new game only adds


def game_record(
    *,
    sitting: Sitting,
    user: User,
    record: Mapping[str, Any],
    token: uuid.UUID,
    led_by: str | None = None,
    members: Mapping[str, Player] | None = None,
) -> tuple[Game, bool]:
    """Record a new game. Returns ``(game, created)``.

    Raises ``engine.InvalidRecord`` when the record does not score. The same token sent again
    with the same record returns the game it already made (``created`` False); with a
    different record it raises ``Conflict``. ``members``: the sitting's players as the caller
    read them with ``sitting`` (``players_by_name``); the record is scored again only when the
    locked row's version is no longer ``sitting``'s (every change of the members or the rules
    moves it).
    """
    # Scored before the lock when the caller has read the members (a bad record then takes
    # no lock), under it otherwise.
    scored = (
        None if members is None else game_score(sitting=sitting, record=record, members=members)
    )

    def find() -> Game | None:
        return Game.objects.filter(submission_token=token).first()

    def write(locked: Sitting) -> tuple[Game, bool]:
        # All the write needs to know of the locked sitting, in one read: the token's game,
        # wherever it is; the sitting's latest number; the close that may freeze it; and the
        # head of its history, which the new entry is linked after.
        seen = (
            Sitting.objects.filter(pk=locked.pk)
            .annotate(
                made=Subquery(Game.objects.filter(submission_token=token).values("pk")[:1]),
                latest=Subquery(
                    Game.objects.filter(sitting=OuterRef("pk"))
                    .order_by("-number")
                    .values("number")[:1]
                ),
                head=Subquery(chain.hashes_newest_first(HistoryEntry, OuterRef("pk"))[:1]),
                **frozen_columns(),
            )
            .values("made", "latest", "head", "close_through", "close_upto")
            .get()
        )
        if seen["made"] is not None:
            return Game.objects.get(pk=seen["made"]), False
        refuse_if_closed(locked, seen["close_through"], seen["close_upto"])
        now = scored
        if now is None or locked.version != sitting.version:
            now = game_score(sitting=locked, record=record)
        number = (seen["latest"] or 0) + 1
        if number > MAX_GAMES:
            raise Conflict(
                _(
                    "Bàn này đã có %(n)d ván, số ván tối đa của một bàn (để tệp xuất của bàn "
                    "luôn nhập lại được). Hãy mở một bàn mới cho các ván tiếp theo."
                )
                % {"n": MAX_GAMES}
            )
        game = Game.objects.create(
            sitting=locked,
            number=number,
            record=now.record,
            submission_token=token,
            created_by=user,
            led_by=now.players.get(led_by or ""),
            next_leader=now.next_leader,
        )
        _write_result(game, now, replace=False)
        HistoryEntry(
            sitting=locked,
            game=game,
            user=user,
            action=HistoryEntry.Action.RECORDED,
            revision=1,
            after=now.record,
        ).save(head=seen["head"] or "")
        bump([locked], final=True)
        return game, True

    game, created = write_once(
        functools.partial(in_locked_sitting, sitting, write), find, own_transaction=True
    )
    if created:
        return game, True
    return _replayed(
        game, sitting, scored.record if scored else _normalised(sitting, record)
    ), False


def _normalised(sitting: Sitting, record: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        return game_score(sitting=sitting, record=record).record
    except engine.InvalidRecord:
        return None


def _replayed(existing: Game, sitting: Sitting, record: dict[str, Any] | None) -> Game:
    """A token seen before: the same submission (``record``, as scored) is answered with the
    game it made."""
    if existing.sitting_id != sitting.pk:
        raise Conflict(
            _(
                "Ván này đã được ghi ở một bàn khác (có lẽ do bấm hai lần). "
                "Hãy tải lại trang để xem."
            )
        )
    # Compare with what that submission recorded, not with later edits of the game.
    first = existing.history.filter(action=HistoryEntry.Action.RECORDED).order_by("at", "id")
    original = first.values_list("after", flat=True).first()
    if record != original:
        raise Conflict(
            _("Ván này đã được lưu (ván %(n)d) với nội dung khác. Hãy tải lại trang.")
            % {"n": existing.number},
            game=existing,
        )
    return existing


@transaction.atomic(durable=True)
def game_edit(
    *,
    game: Game,
    user: User,
    record: Mapping[str, Any],
    expected_revision: int,
    led_by: str | None = None,
) -> Change:
    """Replace a game's record with a new revision; the old payments stay for the audit.

    The same record again (a retried save) changes nothing: the change has no entry."""
    return _edit(game, user, record, expected_revision, led_by)


def _edit(
    game: Game,
    user: User,
    record: Mapping[str, Any],
    expected_revision: int,
    led_by: str | None = None,
    *,
    note: str = "",
    undoes: HistoryEntry | None = None,
) -> Change:
    """``note``: the history note's code (scoring.text.wording.NOTES), if any."""
    sitting = lock_sitting_row(game.sitting)
    refuse_if_frozen(sitting)
    current = Game.objects.get(pk=game.pk)
    scored = game_score(sitting=sitting, record=record)
    if current.revision != expected_revision:
        if scored.record == current.record:
            return Change(current, None)  # a retried save of the edit that already landed
        raise Conflict(
            _(
                "Ván %(n)d vừa được người khác sửa (lần sửa %(rev)d). "
                "Xem bản mới nhất bên dưới rồi sửa lại nếu cần."
            )
            % {"n": current.number, "rev": current.revision},
            game=current,
        )
    if led_by is None:
        # An undo or a redo restores a record, not who led it: a leader no longer among the
        # game's players is forgotten.
        seated = {player.pk for player in scored.players.values()}
        leader = current.led_by if current.led_by_id in seated else None
    else:
        leader = scored.players.get(led_by)
    new_leader = leader != current.led_by
    if scored.record == current.record and not new_leader:
        return Change(current, None)
    bump([sitting])
    if new_leader:
        current.led_by = leader
        current.save(update_fields=["led_by", "updated_at"])
    if scored.record == current.record:
        return Change(current, None)
    before = current.record
    current.revision += 1
    current.record = scored.record
    current.next_leader = scored.next_leader
    current.save(update_fields=["revision", "record", "next_leader", "updated_at"])
    _write_result(current, scored)
    entry = HistoryEntry.objects.create(
        sitting=sitting,
        game=current,
        user=user,
        action=HistoryEntry.Action.EDITED,
        revision=current.revision,
        before=before,
        after=scored.record,
        note_code=note,
        undoes=undoes,
    )
    return Change(current, entry)


def game_void(*, game: Game, user: User, reason: str) -> Change:
    """Take a game out of the totals; it stays visible and can be restored."""
    reason = safe_text(reason, "reason")
    if not reason:
        raise InvalidInput(_("Hãy ghi lý do huỷ ván."), "reason")
    return _set_status(game, user, Game.Status.VOID, reason[:200])


def game_restore(*, game: Game, user: User) -> Change:
    """Put a voided game back into the totals; the history keeps why it was voided."""
    return _set_status(game, user, Game.Status.ACTIVE, "")


# Not durable: an undo and a redo run it inside their own write.
@transaction.atomic
def _set_status(
    game: Game,
    user: User,
    status: str,
    reason: str,
    *,
    note: str = "",
    undoes: HistoryEntry | None = None,
) -> Change:
    """Void or restore; a game already in that state is left as it is (no entry, the
    sitting's version does not move). ``note``: the history note's code, if any; by default
    the entry notes the void reason."""
    sitting = lock_sitting_row(game.sitting)
    refuse_if_frozen(sitting)
    current = Game.objects.get(pk=game.pk)
    if current.status == status:
        return Change(current, None)
    bump([sitting])
    # The history note is the void reason: the new one, or the one a restore clears.
    noted = {"note_code": note} if note else void_note(reason or current.void_reason)
    current.status = status
    current.void_reason = reason
    current.save(update_fields=["status", "void_reason", "updated_at"])
    refresh_totals([sitting.pk])
    entry = HistoryEntry.objects.create(
        sitting=sitting,
        game=current,
        user=user,
        action=(
            HistoryEntry.Action.VOIDED
            if status == Game.Status.VOID
            else HistoryEntry.Action.RESTORED
        ),
        revision=current.revision,
        **noted,
        undoes=undoes,
    )
    return Change(current, entry)


# --- Undo and redo ----------------------------------------------------------------------

UNDOABLE = (
    HistoryEntry.Action.RECORDED,
    HistoryEntry.Action.EDITED,
    HistoryEntry.Action.VOIDED,
    HistoryEntry.Action.RESTORED,
)


def sitting_undo(*, sitting: Sitting, user: User) -> HistoryEntry | None:
    """Take back the latest change to a game, as a new change (history is never rewritten).

    A recorded game is voided, an edit is reverted by a new revision, a void is restored and
    a restore voided again. The entry written points at the one it undoes (``undoes``), so
    the next undo goes one step further back. Returns the entry that was undone, its
    ``undone_by`` the entry the undo wrote; None, with nothing changed, when there is none.
    """
    with transaction.atomic(durable=True):
        lock_sitting_row(sitting)
        last = (
            sitting.history.filter(
                action__in=UNDOABLE,
                game__isnull=False,
                undoes__isnull=True,
                undone_by__isnull=True,
            )
            .select_related("game")
            .first()
        )
        if last is None:
            return None
        game = last.game
        assert game is not None
        if last.action == HistoryEntry.Action.RECORDED:
            change = _set_status(game, user, Game.Status.VOID, UNDO_RECORD_NOTE, undoes=last)
        elif last.action == HistoryEntry.Action.EDITED:
            change = _edit(game, user, last.before or {}, game.revision, undoes=last)
        elif last.action == HistoryEntry.Action.VOIDED:
            change = _set_status(game, user, Game.Status.ACTIVE, "", undoes=last)
        else:
            change = _set_status(game, user, Game.Status.VOID, UNDO_RESTORE_NOTE, undoes=last)
        if change.entry is None:
            return None  # the game is already as the undo would leave it
        last.undone_by = change.entry
        return last


def undo_entry_redoable(sitting: Sitting, entry: HistoryEntry) -> bool:
    """Whether ``entry`` (written by an undo) can still be redone: nothing changed since."""
    newest = sitting.history.only("pk").first()
    return entry.undoes_id is not None and newest is not None and newest.pk == entry.pk


def sitting_redo(*, sitting: Sitting, user: User, undo_id: int) -> HistoryEntry:
    """Take back an undo (a stray tap on "undo" must not silently drop a game).

    ``undo_id`` is the entry the undo wrote. It is redone only while it is still the newest
    change to the sitting, so a second tap, or a redo after another scorekeeper saved, changes
    nothing. The redo is a new change through the same services, with its own history entry
    (noted as a redo); a later undo takes it back like any other change. Returns the new entry.
    """
    with transaction.atomic(durable=True):
        locked = lock_sitting_row(sitting)
        entry = (
            locked.history.filter(pk=undo_id, undoes__isnull=False, game__isnull=False)
            .select_related("undoes", "game")
            .first()
        )
        if entry is None:
            raise InvalidInput(_("Không có gì để làm lại."))
        newest = locked.history.first()
        if newest is not None and newest.pk != entry.pk:
            if newest.game_id == entry.game_id and newest.note_code == "redo":
                raise Conflict(_("Đã làm lại rồi."))
            raise Conflict(_("Không làm lại được: sổ đã có thay đổi khác sau lần hoàn tác đó."))
        game = entry.game
        assert game is not None and entry.undoes is not None
        if entry.action == HistoryEntry.Action.VOIDED:
            change = _set_status(game, user, Game.Status.ACTIVE, "", note="redo")
        elif entry.action == HistoryEntry.Action.RESTORED:
            reason = (
                reason_of(entry.note, entry.note_code)
                or reason_of(entry.undoes.note, entry.undoes.note_code)
                or REDO_NOTE
            )
            change = _set_status(game, user, Game.Status.VOID, reason[:200], note="redo")
        else:
            change = _edit(game, user, entry.before or {}, game.revision, note="redo")
        if change.entry is None:
            raise InvalidInput(_("Không có gì để làm lại."))
        return change.entry
