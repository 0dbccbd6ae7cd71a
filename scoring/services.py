"""Every write to the ledger, one function each, each inside one transaction.

Views and forms call these; they never compute money. Each function locks the sitting row
first (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's immediate transactions serialise writers
anyway), so game numbers stay unique and ``Sitting.version`` moves once per change, appends a
``HistoryEntry`` instead of overwriting anything, and leaves the sitting's totals equal to the
sum of its active games' current payments.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date as date_type
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring import engine, live_cache
from scoring.engine import text as engine_text
from scoring.engine.limits import MAX_AMOUNT, vnd
from scoring.models import (
    MAX_GAMES,
    MAX_MEMBERS,
    MAX_SETTLEMENTS,
    Game,
    Group,
    HistoryEntry,
    Membership,
    Payment,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    Sitting,
)


class Conflict(Exception):
    """The request collides with what is already stored; nothing was written."""

    def __init__(self, message: str, *, game: Game | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game = game


class LedgerError(Exception):
    """A request that makes no sense for this sitting (message is shown to the user)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def rules_of(sitting: Sitting) -> engine.RuleSet:
    return engine.ruleset_from_dict(sitting.rules)


def lock_sitting(sitting: Sitting) -> Sitting:
    """Lock the sitting row for this transaction and move its version on."""
    locked = Sitting.objects.select_for_update().get(pk=sitting.pk)
    Sitting.objects.filter(pk=sitting.pk).update(version=F("version") + 1)
    live_cache.publish([locked])
    return locked


def refuse_if_frozen(sitting: Sitting) -> None:
    """A sitting dated inside a closed period of its group takes no more changes to its
    money (``services_groups.period_close``; reopening the period lifts it). One query."""
    close = (
        PeriodClose.objects.filter(
            group_id=sitting.group_id, undone_at__isnull=True, closes_before__gt=sitting.date
        )
        .order_by("-closes_before")
        .first()
    )
    if close is not None:
        raise Conflict(frozen_message(close.closes_before))


def frozen_message(closes_before: date_type) -> str:
    return _(
        "Sổ của nhóm đã chốt đến trước ngày %(d)s nên bàn này không sửa được nữa. "
        "Muốn sửa, hãy huỷ chốt sổ ở trang của nhóm."
    ) % {"d": closes_before.strftime("%d/%m/%Y")}


# --- Sittings and players ---------------------------------------------------------------


def safe_text(value: str, field: str) -> str:
    """``value`` as stored (NFC, single spaces), or a ``LedgerError`` when it holds a character
    that would make it display wrongly (see ``engine.text``): the forms and the import check
    first, this is the last line."""
    problem = engine_text.text_problem(value, field)
    if problem is not None:
        raise LedgerError(problem.message(_lang()), field)
    return engine_text.normalise(value)


def player_get_or_create(
    *, owner: AbstractBaseUser, name: str, group: Group | None = None
) -> Player:
    """The group's player of this name (``owner``'s default group when none is given)."""
    name = safe_text(name, "name")
    if not name:
        raise LedgerError(_("Tên người chơi không được để trống."), "name")
    if group is None:
        group = Group.objects.default_for(owner)
    player = Player.objects.filter(group=group, name=name, merged_into=None).first()
    return player or Player.objects.create(owner_id=group.owner_id, group=group, name=name)


@transaction.atomic
def sitting_open(
    *,
    owner: AbstractBaseUser,
    name: str,
    date: date_type,
    rules: engine.RuleSet,
    stake: int,
    player_names: Sequence[str],
    token: uuid.UUID | None = None,
    group: Group | None = None,
) -> Sitting:
    """Open a sitting in ``group`` (``owner``'s default group when none is given); its
    players are the group's players of those names."""
    problems = engine.check_stake(rules, stake)
    if problems:
        raise LedgerError(problems[0].message(_lang()), "stake")
    if group is None:
        group = Group.objects.default_for(owner)
    elif not Group.objects.for_user(owner).filter(pk=group.pk).exists():
        raise LedgerError(_("Bạn không ghi sổ cho nhóm này."), "group")
    try:
        refuse_if_frozen(Sitting(group=group, date=date))
    except Conflict as error:
        raise LedgerError(error.message, "date") from None
    sitting = Sitting.objects.create(
        owner=owner,
        group=group,
        name=safe_text(name, "name"),
        date=date,
        rules=engine.ruleset_to_dict(rules),
        rules_label=rules.name,
        stake=stake,
        submission_token=token,
    )
    _set_members(sitting, owner, player_names)
    HistoryEntry.objects.create(
        sitting=sitting,
        user=owner,
        action=HistoryEntry.Action.OPENED,
        after={
            "rules": sitting.rules,
            "stake": stake,
            "players": [m.player.name for m in sitting.memberships.select_related("player")],
        },
    )
    return sitting


def sitting_open_once(
    *,
    token: uuid.UUID,
    owner: AbstractBaseUser,
    name: str,
    date: date_type,
    rules: engine.RuleSet,
    stake: int,
    player_names: Sequence[str],
    group: Group | None = None,
) -> tuple[Sitting, bool]:
    """Open a sitting (in ``group``, as ``sitting_open``) from a form carrying ``token``.
    Returns ``(sitting, created)``.

    The same form sent again (the back button, a double tap, a retry) returns the sitting it
    already opened; another form under the same token raises ``Conflict`` and opens nothing.
    """
    wanted = {
        "name": name,
        "date": date,
        "rules": rules,
        "stake": stake,
        "players": player_names,
        "group": group,
    }
    try:
        with transaction.atomic():
            existing = Sitting.objects.filter(submission_token=token).first()
            if existing is None:
                sitting = sitting_open(
                    owner=owner,
                    name=name,
                    date=date,
                    rules=rules,
                    stake=stake,
                    player_names=player_names,
                    token=token,
                    group=group,
                )
                return sitting, True
    except IntegrityError:
        # Two sends of one form raced past the check: the other one opened it.
        existing = Sitting.objects.filter(submission_token=token).first()
        if existing is None:
            raise
    return _sitting_replayed(existing, owner, wanted), False


def _sitting_replayed(
    existing: Sitting, owner: AbstractBaseUser, wanted: dict[str, Any]
) -> Sitting:
    if existing.owner_id != owner.pk:
        raise Conflict(_("Mã gửi này đã được dùng. Hãy tải lại trang rồi mở bàn lần nữa."))
    opened = existing.history.filter(action=HistoryEntry.Action.OPENED).order_by("id").first()
    after = (opened.after if opened else None) or {}
    same = (
        (wanted["group"] is None or existing.group_id == wanted["group"].pk)
        and existing.name == wanted["name"]
        and existing.date == wanted["date"]
        and existing.stake == wanted["stake"]
        and after.get("rules") == engine.ruleset_to_dict(wanted["rules"])
        and [n.casefold() for n in after.get("players", [])]
        == [" ".join(n.split()).casefold() for n in wanted["players"] if n.strip()]
    )
    if not same:
        raise Conflict(
            _(
                "Biểu mẫu này đã mở bàn “%(name)s” với nội dung khác. Bàn đó vẫn còn; "
                "nếu muốn mở thêm một bàn mới, hãy bấm “Mở bàn” lần nữa."
            )
            % {"name": existing.name}
        )
    return existing


def _set_members(sitting: Sitting, owner: AbstractBaseUser, names: Sequence[str]) -> None:
    cleaned: list[str] = []
    for raw in names:
        clean = safe_text(raw, "players")
        if clean and clean.casefold() not in {n.casefold() for n in cleaned}:
            cleaned.append(clean)
    for name, other in engine_text.confusable_pairs(cleaned):
        raise LedgerError(engine_text.confusable_problem(name, other).message(_lang()), "players")
    if len(cleaned) < 2:
        raise LedgerError(_("Một bàn cần ít nhất 2 người chơi."), "players")
    if len(cleaned) > MAX_MEMBERS:
        raise LedgerError(_("Một bàn có tối đa %(n)d người.") % {"n": MAX_MEMBERS}, "players")
    existing = {m.player.name.casefold(): m for m in sitting.memberships.select_related("player")}
    played = set(Seat.objects.filter(game__sitting=sitting).values_list("player_id", flat=True))
    keep = {name.casefold() for name in cleaned}
    for key, membership in existing.items():
        if key not in keep:
            if membership.player_id in played:
                raise LedgerError(
                    _("%(name)s đã chơi trong bàn này nên không thể bỏ ra.")
                    % {"name": membership.player.name},
                    "players",
                )
            membership.delete()
    for position, clean in enumerate(cleaned):
        membership = existing.get(clean.casefold())
        if membership is None:
            player = player_get_or_create(owner=sitting.owner, name=clean, group=sitting.group)
            Membership.objects.create(sitting=sitting, player=player, position=position)
        elif membership.position != position:
            membership.position = position
            membership.save(update_fields=["position"])


@transaction.atomic
def sitting_set_members(
    *, sitting: Sitting, user: AbstractBaseUser, player_names: Sequence[str]
) -> None:
    refuse_if_frozen(lock_sitting(sitting))
    before = [m.player.name for m in sitting.memberships.select_related("player")]
    _set_members(sitting, sitting.owner, player_names)
    after = [m.player.name for m in sitting.memberships.select_related("player")]
    HistoryEntry.objects.create(
        sitting=sitting,
        user=user,
        action=HistoryEntry.Action.MEMBERS,
        before={"players": before},
        after={"players": after},
    )


def _lang() -> str:
    from django.utils.translation import get_language

    return "en" if (get_language() or "vi").startswith("en") else "vi"


# --- Games ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    record: dict[str, Any]
    parsed: engine.GameRecord
    result: engine.GameResult
    players: dict[str, Player]  # name in the record -> player


def game_score(*, sitting: Sitting, record: Mapping[str, Any]) -> Scored:
    """Validate and score a record for this sitting without writing anything.

    Raises ``engine.InvalidRecord`` listing every problem (the preview shows them).
    """
    rules = rules_of(sitting)
    members = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    problems: list[engine.Problem] = []
    names = record.get("players") if isinstance(record, Mapping) else None
    if isinstance(names, list):
        for index, name in enumerate(names):
            if isinstance(name, str) and name not in members:
                problems.append(
                    engine.Problem(
                        path=f"players[{index}]",
                        code="not_a_member",
                        params={"player": name},
                    )
                )
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
    Seat.objects.bulk_create(
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
    Payment.objects.bulk_create(
        Payment(
            game=game,
            revision=game.revision,
            payer=scored.players[t.payer],
            payee=scored.players[t.payee],
            amount=t.amount,
            reason=t.reason,
            detail=t.detail[:200],
        )
        for t in scored.result.transfers
    )


def game_record(
    *,
    sitting: Sitting,
    user: AbstractBaseUser,
    record: Mapping[str, Any],
    token: uuid.UUID,
    led_by: str | None = None,
) -> tuple[Game, bool]:
    """Record a new game. Returns ``(game, created)``.

    The same token sent again with the same record returns the game it already made
    (``created`` False); with a different record it raises ``Conflict``.
    """
    try:
        with transaction.atomic():
            locked = lock_sitting(sitting)
            existing = Game.objects.filter(submission_token=token).first()
            if existing is not None:
                return _replayed(existing, sitting, record), False
            refuse_if_frozen(locked)
            scored = game_score(sitting=locked, record=record)
            number = (
                locked.games.order_by("-number").values_list("number", flat=True).first() or 0
            ) + 1
            if number > MAX_GAMES:
                raise Conflict(_full_games_message())
            game = Game.objects.create(
                sitting=locked,
                number=number,
                record=scored.record,
                submission_token=token,
                created_by=user,
                led_by=scored.players.get(led_by or ""),
                next_leader=_next_leader(scored),
            )
            _write_result(game, scored, replace=False)
            HistoryEntry.objects.create(
                sitting=locked,
                game=game,
                user=user,
                action=HistoryEntry.Action.RECORDED,
                revision=1,
                after=scored.record,
            )
            return game, True
    except IntegrityError:
        # Two retries of one submission raced past the check: the other one won.
        existing = Game.objects.filter(submission_token=token).first()
        if existing is None:
            raise
        return _replayed(existing, sitting, record), False


def _full_games_message() -> str:
    return _(
        "Bàn này đã có %(n)d ván, số ván tối đa của một bàn (để tệp xuất của bàn luôn nhập "
        "lại được). Hãy mở một bàn mới cho các ván tiếp theo."
    ) % {"n": MAX_GAMES}


def _replayed(existing: Game, sitting: Sitting, record: Mapping[str, Any]) -> Game:
    """A token seen before: the same submission is answered with the game it made."""
    if existing.sitting_id != sitting.pk:
        raise Conflict(_("Mã gửi này đã được dùng cho một bàn khác."))
    # Compare with what that submission recorded, not with later edits of the game.
    first = existing.history.filter(action=HistoryEntry.Action.RECORDED).order_by("at", "id")
    original = first.values_list("after", flat=True).first()
    if _normalised(sitting, record) != original:
        raise Conflict(
            _("Ván này đã được lưu (ván %(n)d) với nội dung khác. Hãy tải lại trang.")
            % {"n": existing.number},
            game=existing,
        )
    return existing


def _normalised(sitting: Sitting, record: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        return game_score(sitting=sitting, record=record).record
    except engine.InvalidRecord:
        return None


def _next_leader(scored: Scored) -> Player | None:
    name = engine.next_leader(scored.parsed)
    return scored.players.get(name) if name else None


@transaction.atomic
def game_edit(
    *,
    game: Game,
    user: AbstractBaseUser,
    record: Mapping[str, Any],
    expected_revision: int,
    led_by: str | None = None,
) -> Game:
    """Replace a game's record with a new revision; the old payments stay for the audit."""
    sitting = lock_sitting(game.sitting)
    refuse_if_frozen(sitting)
    current = Game.objects.get(pk=game.pk)
    scored = game_score(sitting=sitting, record=record)
    if current.revision != expected_revision:
        if scored.record == current.record:
            return current  # a retried save of the edit that already landed
        raise Conflict(
            _(
                "Ván %(n)d vừa được người khác sửa (lần sửa %(rev)d). "
                "Xem bản mới nhất bên dưới rồi sửa lại nếu cần."
            )
            % {"n": current.number, "rev": current.revision},
            game=current,
        )
    leader = scored.players.get(led_by or "")
    if led_by is not None and leader != current.led_by:
        current.led_by = leader
        current.save(update_fields=["led_by", "updated_at"])
    if scored.record == current.record:
        return current
    before = current.record
    current.revision += 1
    current.record = scored.record
    current.next_leader = _next_leader(scored)
    current.save(update_fields=["revision", "record", "next_leader", "updated_at"])
    _write_result(current, scored)
    HistoryEntry.objects.create(
        sitting=sitting,
        game=current,
        user=user,
        action=HistoryEntry.Action.EDITED,
        revision=current.revision,
        before=before,
        after=scored.record,
    )
    return current


def game_void(*, game: Game, user: AbstractBaseUser, reason: str) -> Game:
    """Take a game out of the totals; it stays visible and can be restored."""
    reason = safe_text(reason, "reason")
    if not reason:
        raise LedgerError(_("Hãy ghi lý do huỷ ván."), "reason")
    return _set_status(game, user, Game.Status.VOID, reason[:200])


def game_restore(*, game: Game, user: AbstractBaseUser) -> Game:
    """Put a voided game back into the totals; the history keeps why it was voided."""
    return _set_status(game, user, Game.Status.ACTIVE, "")


@transaction.atomic
def _set_status(
    game: Game, user: AbstractBaseUser, status: str, reason: str, note: str = ""
) -> Game:
    sitting = lock_sitting(game.sitting)
    refuse_if_frozen(sitting)
    current = Game.objects.get(pk=game.pk)
    if current.status == status:
        return current
    # The history note is the void reason: the new one, or the one a restore clears.
    note = note or reason or current.void_reason
    current.status = status
    current.void_reason = reason
    current.save(update_fields=["status", "void_reason", "updated_at"])
    HistoryEntry.objects.create(
        sitting=sitting,
        game=current,
        user=user,
        action=(
            HistoryEntry.Action.VOIDED
            if status == Game.Status.VOID
            else HistoryEntry.Action.RESTORED
        ),
        revision=current.revision,
        note=note,
    )
    return current


# Notes the ledger writes itself are stored in Vietnamese (the source language) and translated
# where they are shown, so a table whose scorekeepers use different languages reads each
# note in their own.
UNDO_RECORD_NOTE = gettext_noop("Hoàn tác ghi ván")
UNDO_RESTORE_NOTE = gettext_noop("Hoàn tác khôi phục")
REDO_NOTE = gettext_noop("Làm lại sau khi hoàn tác")
SETTLEMENT_VOID_NOTE = gettext_noop("Ghi nhầm")
SYSTEM_NOTES = frozenset({UNDO_RECORD_NOTE, UNDO_RESTORE_NOTE, REDO_NOTE, SETTLEMENT_VOID_NOTE})

UNDOABLE = (
    HistoryEntry.Action.RECORDED,
    HistoryEntry.Action.EDITED,
    HistoryEntry.Action.VOIDED,
    HistoryEntry.Action.RESTORED,
)


def sitting_undo(*, sitting: Sitting, user: AbstractBaseUser) -> HistoryEntry | None:
    """Take back the latest change to a game, as a new change (history is never rewritten).

    A recorded game is voided, an edit is reverted by a new revision, a void is restored and
    a restore voided again. The entry written points at the one it undoes, so the next undo
    goes one step further back. Returns the entry that was undone, or None if there is none.
    """
    with transaction.atomic():
        lock_sitting(sitting)
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
            game_void(game=game, user=user, reason=UNDO_RECORD_NOTE)
        elif last.action == HistoryEntry.Action.EDITED:
            game_edit(
                game=game, user=user, record=last.before or {}, expected_revision=game.revision
            )
        elif last.action == HistoryEntry.Action.VOIDED:
            game_restore(game=game, user=user)
        else:
            game_void(game=game, user=user, reason=UNDO_RESTORE_NOTE)
        newest = sitting.history.exclude(pk=last.pk).first()
        if newest is not None and newest.at >= last.at and newest.undoes_id is None:
            HistoryEntry.objects.filter(pk=newest.pk).update(undoes=last)
        return last


def undo_entry_redoable(sitting: Sitting, entry: HistoryEntry) -> bool:
    """Whether ``entry`` (written by an undo) can still be redone: nothing changed since."""
    newest = sitting.history.only("pk").first()
    return entry.undoes_id is not None and newest is not None and newest.pk == entry.pk


def sitting_redo(*, sitting: Sitting, user: AbstractBaseUser, undo_id: int) -> HistoryEntry:
    """Take back an undo (a stray tap on "undo" must not silently drop a game).

    ``undo_id`` is the entry the undo wrote. It is redone only while it is still the newest
    change to the sitting, so a second tap, or a redo after another scorekeeper saved, changes
    nothing. The redo is a new change through the same services, with its own history entry
    (noted as a redo); a later undo takes it back like any other change. Returns the new entry.
    """
    with transaction.atomic():
        locked = lock_sitting(sitting)
        entry = (
            locked.history.filter(pk=undo_id, undoes__isnull=False, game__isnull=False)
            .select_related("undoes", "game")
            .first()
        )
        if entry is None:
            raise LedgerError(_("Không có gì để làm lại."))
        newest = locked.history.first()
        if newest is not None and newest.pk != entry.pk:
            if newest.game_id == entry.game_id and newest.note == REDO_NOTE:
                raise Conflict(_("Đã làm lại rồi."))
            raise Conflict(_("Không làm lại được: sổ đã có thay đổi khác sau lần hoàn tác đó."))
        game = entry.game
        assert game is not None and entry.undoes is not None
        if entry.action == HistoryEntry.Action.VOIDED:
            _set_status(game, user, Game.Status.ACTIVE, "", note=REDO_NOTE)
        elif entry.action == HistoryEntry.Action.RESTORED:
            reason = entry.note or entry.undoes.note or REDO_NOTE
            _set_status(game, user, Game.Status.VOID, reason[:200], note=REDO_NOTE)
        else:
            game_edit(
                game=game, user=user, record=entry.before or {}, expected_revision=game.revision
            )
        written = locked.history.first()
        if written is None or written.pk == entry.pk:
            raise LedgerError(_("Không có gì để làm lại."))
        HistoryEntry.objects.filter(pk=written.pk).update(note=REDO_NOTE)
        written.note = REDO_NOTE
        return written


# --- Settlements ------------------------------------------------------------------------


@transaction.atomic
def settlement_record(
    *,
    sitting: Sitting,
    user: AbstractBaseUser,
    payer: Player,
    payee: Player,
    amount: int,
    expected_version: int | None = None,
) -> Settlement:
    """Record money handed over. ``expected_version`` is the ledger version the suggestion
    was computed from: two taps on one suggestion, or two phones, must not pay it twice, so
    under the row lock a changed ledger is a ``Conflict`` and nothing is written."""
    if payer.pk == payee.pk:
        raise LedgerError(_("Người trả và người nhận phải khác nhau."), "payee")
    if amount <= 0:
        raise LedgerError(_("Số tiền phải lớn hơn 0."), "amount")
    if amount > MAX_AMOUNT:
        raise LedgerError(
            _("Số tiền tối đa là %(max)s ₫ (13 chữ số, mức tối đa của mã VietQR).")
            % {"max": vnd(MAX_AMOUNT)},
            "amount",
        )
    locked = lock_sitting(sitting)
    refuse_if_frozen(locked)
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            _(
                "Sổ vừa thay đổi (có người ghi thêm) nên chưa ghi khoản này. "
                "Các gợi ý đã được tính lại: xem lại rồi bấm lần nữa."
            )
        )
    member_ids = set(locked.memberships.values_list("player_id", flat=True))
    if payer.pk not in member_ids or payee.pk not in member_ids:
        raise LedgerError(_("Cả hai người phải là thành viên của bàn."), "payer")
    if locked.settlements.count() >= MAX_SETTLEMENTS:
        raise LedgerError(
            _(
                "Bàn này đã có %(n)d khoản trả, số tối đa của một bàn (huỷ cũng tính). "
                "Hãy ghi tiếp ở một bàn mới."
            )
            % {"n": MAX_SETTLEMENTS}
        )
    settlement = Settlement.objects.create(
        sitting=locked, payer=payer, payee=payee, amount=amount, created_by=user
    )
    HistoryEntry.objects.create(
        sitting=locked,
        settlement=settlement,
        user=user,
        action=HistoryEntry.Action.SETTLED,
        after={"from": payer.name, "to": payee.name, "amount": amount},
    )
    return settlement


@transaction.atomic
def settlement_void(*, settlement: Settlement, user: AbstractBaseUser, reason: str) -> None:
    assert settlement.sitting is not None
    locked = lock_sitting(settlement.sitting)
    refuse_if_frozen(locked)
    current = Settlement.objects.get(pk=settlement.pk)
    if current.is_void:
        return
    current.is_void = True
    current.void_reason = (safe_text(reason, "reason") or SETTLEMENT_VOID_NOTE)[:200]
    current.save(update_fields=["is_void", "void_reason"])
    HistoryEntry.objects.create(
        sitting=locked,
        settlement=current,
        user=user,
        action=HistoryEntry.Action.SETTLEMENT_VOIDED,
        note=current.void_reason,
    )


# --- Reading the ledger -----------------------------------------------------------------


def game_totals(sitting: Sitting) -> dict[int, int]:
    """Net đồng per player id from the sitting's active games, in one aggregate query."""
    rows = (
        Seat.objects.filter(game__sitting=sitting, game__status=Game.Status.ACTIVE)
        .values("player_id")
        .annotate(total=Sum("net"))
    )
    return {row["player_id"]: row["total"] for row in rows}


def balances(
    sitting: Sitting,
    *,
    member_ids: Sequence[int] | None = None,
    totals: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """What each member is owed (+) or owes (−) now: games, then settlements paid.

    A caller that already holds the member ids or ``game_totals`` passes them in, so the
    sitting page does not ask the database twice.
    """
    if member_ids is None:
        member_ids = list(sitting.memberships.values_list("player_id", flat=True))
    result = dict.fromkeys(member_ids, 0)
    for player_id, total in (game_totals(sitting) if totals is None else totals).items():
        result[player_id] = result.get(player_id, 0) + total
    paid = (
        Settlement.objects.filter(sitting=sitting, is_void=False)
        .values("payer_id", "payee_id")
        .annotate(total=Sum("amount"))
    )
    for row in paid:
        result[row["payer_id"]] = result.get(row["payer_id"], 0) + row["total"]
        result[row["payee_id"]] = result.get(row["payee_id"], 0) - row["total"]
    return result


def sitting_share(*, sitting: Sitting, user: AbstractBaseUser, invitee: AbstractBaseUser) -> None:
    """Invite and accept at once, for tools acting for both people (see ``services_sharing``)."""
    from scoring import services_sharing

    services_sharing.sitting_share(sitting=sitting, user=user, invitee=invitee)
