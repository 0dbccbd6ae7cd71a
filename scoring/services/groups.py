"""Writes of groups: create and rename, share by consent, group-wide settlements, closing a
period, moving a sitting between groups, merging a group's duplicate players.

Same rules as the sittings' services: keyword-only functions, each one transaction that locks
the group row first and moves its ``version`` on, and appends a ``GroupHistoryEntry`` rather
than overwriting anything. Each returns what it wrote together with its history entry. Bad
input raises ``InvalidInput`` (or ``Conflict`` when the ledger changed under the request) with
a message for the user, and writes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date as date_type

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.engine import readtext as engine_text
from scoring.ledger import live_cache
from scoring.ledger.standing import GroupLedger, last_close, ledger_version
from scoring.models import (
    PLAYER_COLUMNS,
    PLAYER_ROWS,
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    Invitation,
    Membership,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    Sitting,
)
from scoring.services.common import (
    Conflict,
    InvalidInput,
    account_named,
    bump,
    bump_group,
    check_amount,
    lock_sitting,
    refuse_if_frozen,
    refuse_if_settlement_closed,
    refuse_invitation,
    replayed_check,
    safe_text,
    write_once,
)
from scoring.services.players import player_merge
from scoring.services.totals import refresh_totals
from scoring.text.wording import SETTLEMENT_VOID_NOTE, void_note

MAX_GROUP_SETTLEMENTS = 10000


@dataclass(frozen=True)
class Written[T]:
    """What a group service wrote, and the history entry that records it."""

    value: T
    entry: GroupHistoryEntry


# --- Locking and history ----------------------------------------------------------------


def lock_group(group: Group, *, expected_version: str | None = None) -> Group:
    """Lock the group row for this transaction and move its version on (``_move_on``)."""
    locked = Group.objects.select_for_update().get(pk=group.pk)
    return _move_on(locked, group, expected_version=expected_version)


def _move_on(locked: Group, group: Group, *, expected_version: str | None = None) -> Group:
    """Move the version of a group locked by this transaction on (``group``, another instance
    of the row, reads it too).

    With ``expected_version`` (a ``ledger_version``), the ledger is compared under
    the lock, before the version moves: a changed ledger is a ``Conflict``, so two taps on one
    suggestion (or two phones) cannot both pass the check."""
    if expected_version is not None and ledger_version(locked) != expected_version:
        raise Conflict(
            _(
                "Sổ của nhóm vừa thay đổi (có người ghi thêm) nên chưa ghi khoản này. "
                "Các gợi ý đã được tính lại: xem lại rồi bấm lần nữa."
            )
        )
    bump_group(locked, group)
    return locked


def _history(
    group: Group,
    user: User | None,
    action: str,
    *,
    before: object = None,
    after: object = None,
    note: dict[str, str] | None = None,
    sitting: Sitting | None = None,
    settlement: Settlement | None = None,
    period: PeriodClose | None = None,
) -> GroupHistoryEntry:
    return GroupHistoryEntry.objects.create(
        group=group,
        user=user,
        action=action,
        before=before,
        after=after,
        **(note or {}),
        sitting=sitting,
        settlement=settlement,
        period=period,
    )


def _is_keeper(group: Group, user: User) -> bool:
    return group.owner_id == user.pk or group.scorekeepers.filter(pk=user.pk).exists()


def _clean_name(name: str) -> str:
    name = safe_text(name, "name")
    if not name:
        raise InvalidInput(_("Tên nhóm không được để trống."), "name")
    if len(name) > 80:
        raise InvalidInput(_("Tên nhóm dài tối đa 80 ký tự."), "name")
    return name


def _refuse_taken(owner_id: int, name: str, exclude: int | None = None) -> None:
    taken = Group.objects.filter(owner_id=owner_id, name__iexact=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise _name_taken(name)


def _name_taken(name: str) -> InvalidInput:
    return InvalidInput(_("Bạn đã có một nhóm tên “%(name)s”.") % {"name": name}, "name")


# --- Create and rename ------------------------------------------------------------------


@transaction.atomic(durable=True)
def group_create(*, owner: User, name: str) -> Written[Group]:
    name = _clean_name(name)
    _refuse_taken(owner.pk, name)
    try:
        with transaction.atomic():
            group = Group.objects.create(owner=owner, name=name)
    except IntegrityError:
        raise _name_taken(name) from None
    entry = _history(group, owner, GroupHistoryEntry.Action.CREATED, after={"name": name})
    return Written(group, entry)


@transaction.atomic(durable=True)
def group_rename(*, group: Group, user: User, name: str) -> Written[Group]:
    name = _clean_name(name)
    locked = lock_group(group)
    if locked.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ nhóm mới đổi được tên nhóm."), "name")
    _refuse_taken(locked.owner_id, name, exclude=locked.pk)
    before = locked.name
    locked.name = name
    locked.save(update_fields=["name"])
    group.name = name
    entry = _history(
        locked,
        user,
        GroupHistoryEntry.Action.RENAMED,
        before={"name": before},
        after={"name": name},
    )
    return Written(locked, entry)


# --- Sharing by consent (the invitation flow of a sitting's) --------------------


@transaction.atomic(durable=True)
def group_invite(*, group: Group, user: User, username: str) -> Written[Invitation]:
    """Invite ``username`` to keep score for the group; the same pending invitation whether
    or not the account exists (as for a sitting)."""
    username = username.strip()
    locked = lock_group(group)
    if locked.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ nhóm mới mời được người ghi cùng."), "username")
    if not username:
        raise InvalidInput(_("Hãy nhập tên đăng nhập."), "username")
    refuse_invitation(
        locked, username, _("Bạn là chủ nhóm này rồi."), _("%(u)s đã ghi sổ nhóm này.")
    )
    invitation = Invitation.objects.create(
        group=locked, username=username, invitee=account_named(username), invited_by=user
    )
    entry = _history(locked, user, GroupHistoryEntry.Action.SHARED, after={"scorekeeper": username})
    return Written(invitation, entry)


def _lock_pending(invitation: Invitation) -> tuple[Group, Invitation | None]:
    if invitation.group_id is None:
        raise InvalidInput(_("Lời mời này không phải lời mời vào nhóm."))
    group = lock_group(Group(pk=invitation.group_id))
    current = Invitation.objects.filter(pk=invitation.pk, status=Invitation.Status.PENDING).first()
    return group, current


#: What each answer to an invitation writes in the history, and who may give it: the invitee
#: accepts or declines, the owner takes back (``sharing`` answers a sitting's the same way).
ANSWERS = {
    Invitation.Status.ACCEPTED: (GroupHistoryEntry.Action.INVITE_ACCEPTED, "invitee"),
    Invitation.Status.DECLINED: (GroupHistoryEntry.Action.INVITE_DECLINED, "invitee"),
    Invitation.Status.WITHDRAWN: (GroupHistoryEntry.Action.INVITE_WITHDRAWN, "owner"),
}


def answer(invitation: Invitation, status: str) -> None:
    """Mark a pending invitation answered (the caller holds the lock)."""
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


# Not durable: an invitation's answer (services.sharing) runs it inside its own write.
@transaction.atomic
def group_answer(
    *, invitation: Invitation, user: User, status: Invitation.Status
) -> Written[Group] | None:
    """Answer an invitation to a group (``ANSWERS``); None when it is no longer pending or
    not ``user``'s to answer."""
    action, who = ANSWERS[status]
    group, current = _lock_pending(invitation)
    if current is None or user.pk != (group.owner_id if who == "owner" else current.invitee_id):
        return None
    answer(current, status)
    if status == Invitation.Status.ACCEPTED:
        group.scorekeepers.add(user)
    return Written(group, _history(group, user, action, after={"scorekeeper": current.username}))


def group_accept(*, invitation: Invitation, user: User) -> Written[Group] | None:
    """The invitee says yes."""
    return group_answer(invitation=invitation, user=user, status=Invitation.Status.ACCEPTED)


def group_decline(*, invitation: Invitation, user: User) -> Written[Group] | None:
    return group_answer(invitation=invitation, user=user, status=Invitation.Status.DECLINED)


def group_withdraw(*, invitation: Invitation, user: User) -> Written[Group] | None:
    """The owner takes back an invitation nobody has answered yet."""
    return group_answer(invitation=invitation, user=user, status=Invitation.Status.WITHDRAWN)


@transaction.atomic(durable=True)
def group_keeper_remove(*, group: Group, user: User, keeper: User) -> Written[Group] | None:
    """The owner takes a scorekeeper off the group (``user`` is the owner)."""
    locked = lock_group(group)
    if locked.owner_id != user.pk or not locked.scorekeepers.filter(pk=keeper.pk).exists():
        return None
    locked.scorekeepers.remove(keeper)
    entry = _history(
        locked, user, GroupHistoryEntry.Action.KEEPER_REMOVED,
        after={"scorekeeper": keeper.get_username()},
    )  # fmt: skip
    return Written(locked, entry)


@transaction.atomic(durable=True)
def group_keeper_leave(*, group: Group, user: User) -> Written[Group] | None:
    locked = lock_group(group)
    if not locked.scorekeepers.filter(pk=user.pk).exists():
        return None
    locked.scorekeepers.remove(user)
    entry = _history(
        locked,
        user,
        GroupHistoryEntry.Action.KEEPER_LEFT,
        after={"scorekeeper": user.get_username()},
    )
    return Written(locked, entry)


def group_share(*, group: Group, user: User, invitee: User) -> None:
    """Invite and accept in one step, for tools acting for both people (tests, demo data)."""
    written = group_invite(group=group, user=user, username=invitee.get_username())
    group_accept(invitation=written.value, user=invitee)


# --- The live link ----------------------------------------------------------------------


@transaction.atomic(durable=True)
def group_live_leaderboard(*, group: Group, user: User, show: bool) -> bool:
    """The owner decides whether the group's live link also shows the open period's
    leaderboard. When the choice changes: the group's version moves (open live pages refresh)
    and the history says so; asking for what is already set writes nothing. Whether it
    changed."""
    current = Group.objects.select_for_update().get(pk=group.pk)
    if current.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ nhóm mới đổi được liên kết xem."))
    if current.live_leaderboard == show:
        return False
    locked = _move_on(current, group)
    locked.live_leaderboard = show
    locked.save(update_fields=["live_leaderboard"])
    group.live_leaderboard = show
    _history(
        locked, user, GroupHistoryEntry.Action.LIVE,
        before={"leaderboard": not show}, after={"leaderboard": show},
    )  # fmt: skip
    return True


# --- Group-wide settlements -------------------------------------------------------------


def group_settlement_record(
    *,
    group: Group,
    user: User,
    payer: Player,
    payee: Player,
    amount: int,
    date: date_type | None = None,
    expected_version: str | None = None,
    token: uuid.UUID | None = None,
) -> Written[Settlement]:
    """Record money handed over for the group as a whole (spanning sittings).

    ``expected_version`` is the ``ledger_version`` the suggestion was computed
    from: two taps on one suggestion, or two phones, must not pay it twice, so a changed
    ledger is a ``Conflict`` and nothing is written. ``token`` names the tap: sent again it
    is answered with what it already wrote (looked up under the group's lock, before the
    version is compared, since that first send is what moved the version on)."""
    if payer.pk == payee.pk:
        raise InvalidInput(_("Người trả và người nhận phải khác nhau."), "payee")
    check_amount(amount)
    day = date or timezone.localdate()

    def find() -> Written[Settlement] | None:
        found = Settlement.objects.filter(submission_token=token).first() if token else None
        if found is None:
            return None
        entry = GroupHistoryEntry.objects.filter(settlement=found).order_by("id").first()
        if found.group_id != group.pk or entry is None:
            raise Conflict(
                _("Khoản trả này đã được ghi rồi (có lẽ do bấm hai lần). Hãy tải lại trang để xem.")
            )
        replayed_check(found, payer=payer, payee=payee, amount=amount)
        return Written(found, entry)

    def write() -> tuple[Written[Settlement], bool]:
        locked = Group.objects.select_for_update().get(pk=group.pk)
        existing = find()
        if existing is not None:
            return existing, False
        _move_on(locked, group, expected_version=expected_version)
        members = set(
            Player.objects.unmerged().filter(group=locked, pk__in=[payer.pk, payee.pk])
            .values_list("pk", flat=True)
        )  # fmt: skip
        if members != {payer.pk, payee.pk}:
            raise InvalidInput(_("Cả hai người phải là người chơi của nhóm."), "payer")
        refuse_if_settlement_closed(locked, day, None)
        if Settlement.objects.filter(group=locked).count() >= MAX_GROUP_SETTLEMENTS:
            raise InvalidInput(
                _("Nhóm này đã có %(n)d khoản trả chung, số tối đa của một nhóm.")
                % {"n": MAX_GROUP_SETTLEMENTS}
            )
        settlement = Settlement.objects.create(
            group=locked, date=day, payer=payer, payee=payee, amount=amount, created_by=user,
            submission_token=token,
        )  # fmt: skip
        entry = _history(
            locked, user, GroupHistoryEntry.Action.SETTLED, settlement=settlement,
            after={"from": payer.name, "to": payee.name, "amount": amount, "date": day.isoformat()},
        )  # fmt: skip
        return Written(settlement, entry), True

    written, _created = write_once(write, find)  # a replay is checked where it is found
    return written


@transaction.atomic(durable=True)
def group_settlement_void(
    *, settlement: Settlement, user: User, reason: str = ""
) -> Written[Settlement] | None:
    """Void a group-wide settlement (it stays, marked void). None when it already was."""
    if settlement.group_id is None:
        raise InvalidInput(_("Khoản này thuộc một bàn: huỷ nó ở trang của bàn."))
    locked = lock_group(Group(pk=settlement.group_id))
    current = Settlement.objects.select_related("payer", "payee").get(pk=settlement.pk)
    if current.is_void:
        return None
    assert current.date is not None
    refuse_if_settlement_closed(locked, current.date, current.created_at)
    current.is_void = True
    current.void_reason = (safe_text(reason, "reason") or SETTLEMENT_VOID_NOTE)[:200]
    current.save(update_fields=["is_void", "void_reason"])
    entry = _history(
        locked, user, GroupHistoryEntry.Action.SETTLEMENT_VOIDED, settlement=current,
        before={"from": current.payer.name, "to": current.payee.name, "amount": current.amount},
        note=void_note(current.void_reason),
    )  # fmt: skip
    return Written(current, entry)


# --- Periods ----------------------------------------------------------------------------


@transaction.atomic(durable=True)
def period_close(
    *, group: Group, user: User, through: date_type, sitting: Sitting | None = None
) -> Written[PeriodClose]:
    """Close the period through the end of ``through`` (inclusive): everything dated up to
    it is settled and frozen, and the next period opens with each balance carried. With
    ``sitting`` (a sitting of the group dated ``through``), that day is closed through that
    sitting; without, through its last sitting as it stands. Either way a table opened on
    that day afterwards opens in the new period. No amount changes and nothing is deleted.

    The group's row lock waits for every write in flight to its sittings (each holds the row
    shared, ``services.lock_group_shared``) and holds off new ones until this commits; they
    then find the period closed. So what is carried is what the ledger's opening will be."""
    locked = lock_group(group)
    if sitting is not None:
        if sitting.group_id != locked.pk:
            raise InvalidInput(_("Bàn này không thuộc nhóm này."), "sitting")
        through = sitting.date
        last_id: int | None = sitting.pk
    else:
        last_id = (
            Sitting.objects.filter(group=locked, date=through)
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
        )
    if through > timezone.localdate():
        raise InvalidInput(_("Không chốt sổ cho những ngày chưa tới."), "through")
    last = last_close(locked)
    if last is not None and (through, last_id or 0) <= (
        last.closes_through,
        last.through_sitting_id or 0,
    ):
        raise InvalidInput(
            _("Kỳ trước đã chốt đến hết ngày %(d)s: không còn gì mới để chốt đến đó.")
            % {"d": date_format(last.closes_through, "SHORT_DATE_FORMAT")},
            "through",
        )
    close = PeriodClose.objects.create(
        group=locked, closes_through=through, through_sitting_id=last_id, created_by=user
    )
    _frozen_changed(locked, close)
    carried = GroupLedger.load(locked).opening
    names = dict(Player.objects.filter(group=locked).values_list("pk", "name"))
    entry = _history(
        locked, user, GroupHistoryEntry.Action.PERIOD_CLOSED, period=close,
        after={
            "closes_through": through.isoformat(),
            "carried": {names[pk]: amount for pk, amount in sorted(carried.items()) if amount},
        },
    )  # fmt: skip
    return Written(close, entry)


def _frozen_changed(group: Group, close: PeriodClose) -> None:
    """The sittings a close covers change from open to frozen (or back): their versions move
    on, so their pages and live links show it on the next poll. No write to them is in
    flight: each holds the group's row shared, and the caller holds it for update."""
    covered = close.sittings_covered()
    bump(list(Sitting.objects.filter(covered, group=group).only("pk", "live_token")))


@transaction.atomic(durable=True)
def period_close_undo(*, group: Group, user: User) -> Written[PeriodClose] | None:
    """Reopen the latest closed period (the close stays, marked undone). None if none."""
    locked = lock_group(group)
    close = last_close(locked)
    if close is None:
        return None
    close.undone_at = timezone.now()
    close.undone_by_id = user.pk
    close.save(update_fields=["undone_at", "undone_by"])
    _frozen_changed(locked, close)
    entry = _history(
        locked, user, GroupHistoryEntry.Action.PERIOD_REOPENED, period=close,
        before={"closes_through": close.closes_through.isoformat()},
    )  # fmt: skip
    return Written(close, entry)


# --- Moving a sitting between two groups of one owner -----------------------------------


def _sitting_players(sitting: Sitting) -> list[Player]:
    """Everyone the sitting's rows name: members, seats, payments (any revision),
    settlements."""
    ids = {
        pk
        for model, column, via in PLAYER_ROWS
        for pk in model._default_manager.filter(**{via: sitting}).values_list(column, flat=True)
    }
    return list(Player.objects.filter(pk__in=ids).order_by("name", "id"))


def _repoint(sitting: Sitting, old: Player, new: Player) -> None:
    """This sitting's rows naming ``old`` name ``new`` (same name: records need no change)."""
    for model, column, via in PLAYER_COLUMNS:
        model._default_manager.filter(**{via: sitting, column: old}).update(**{column: new})


def _used_elsewhere(player: Player, sitting: Sitting) -> bool:
    others = ~Q(sitting=sitting)
    return (
        Membership.objects.filter(others, player=player).exists()
        or Seat.objects.filter(~Q(game__sitting=sitting), player=player).exists()
        or Settlement.objects.filter(Q(payer=player) | Q(payee=player))
        .exclude(sitting=sitting)
        .exists()
    )


@transaction.atomic(durable=True)
def sitting_move(*, sitting: Sitting, to_group: Group, user: User) -> Written[Sitting]:
    """Move a sitting (games, payments, its own settlements) into another group of the same
    owner. Each of its players becomes the target group's player of the same name (created
    there if missing); a name that only looks like a target player's (the same skeleton:
    case, marks, look-alike letters) is ambiguous and refused, as is a sitting inside a closed
    period of either group."""
    source = Group.objects.get(pk=sitting.group_id)
    if source.pk == to_group.pk:
        raise InvalidInput(_("Bàn này đã ở trong nhóm “%(g)s”.") % {"g": to_group.name}, "group")
    # Both groups locked in primary-key order, so two moves cannot deadlock.
    first, second = sorted([source, to_group], key=lambda g: g.pk)
    locked = {g.pk: lock_group(g) for g in (first, second)}
    source, target = locked[source.pk], locked[to_group.pk]
    if source.owner_id != target.owner_id:
        raise InvalidInput(_("Chỉ chuyển được bàn giữa hai nhóm của cùng một chủ."), "group")
    if source.owner_id != user.pk:
        raise InvalidInput(_("Chỉ chủ nhóm mới chuyển được bàn."), "group")
    current = lock_sitting(sitting)
    for g in (source, target):  # inside a closed period of either group: it stays
        refuse_if_frozen(Sitting(pk=current.pk, group=g, date=current.date))
    players = _sitting_players(current)
    in_target = list(Player.objects.unmerged().filter(group=target))
    exact = {p.name: p for p in in_target}
    loose: dict[str, list[Player]] = {}
    for p in in_target:
        loose.setdefault(engine_text.skeleton(p.name), []).append(p)
    plan: list[tuple[Player, Player | None]] = []
    for player in players:
        match = exact.get(player.name)
        if match is None:
            near = loose.get(engine_text.skeleton(player.name), [])
            if near:
                raise InvalidInput(
                    _(
                        "Nhóm “%(g)s” có người chơi “%(other)s”, gần giống “%(name)s” của bàn "
                        "này: không rõ có phải một người không. Hãy đổi tên hoặc gộp trước "
                        "rồi chuyển lại."
                    )
                    % {"g": target.name, "other": near[0].name, "name": player.name},
                    "group",
                )
        plan.append((player, match))
    moved: dict[str, str] = {}
    for player, match in plan:
        if match is not None:
            _repoint(current, player, match)
            moved[player.name] = "merged"
        elif _used_elsewhere(player, current):
            copy = Player.objects.create(
                owner_id=target.owner_id,
                group=target,
                name=player.name,
                bank_bin=player.bank_bin,
                bank_account=player.bank_account,
                bank_holder=player.bank_holder,
            )
            _repoint(current, player, copy)
            moved[player.name] = "copied"
        else:
            Player.objects.filter(pk=player.pk).update(group=target)
            moved[player.name] = "moved"
    Sitting.objects.filter(pk=current.pk).update(group=target)
    refresh_totals([current.pk])  # its rows name the target group's players now
    sitting.group = target
    HistoryEntry.objects.create(
        sitting=current,
        user=user,
        action=HistoryEntry.Action.MOVED,
        before={"group": source.name},
        after={"group": target.name, "players": moved},
        note_code="moved",
        note_params={"src": source.name, "dst": target.name},
    )
    _history(
        source, user, GroupHistoryEntry.Action.SITTING_OUT, sitting=current,
        after={"sitting": current.name, "to": target.name},
    )  # fmt: skip
    entry = _history(
        target, user, GroupHistoryEntry.Action.SITTING_IN, sitting=current,
        after={"sitting": current.name, "from": source.name, "players": moved},
    )  # fmt: skip
    live_cache.publish([current])
    current.group = target
    return Written(current, entry)


# --- Merging a group's duplicate players ------------------------------------------------


@transaction.atomic(durable=True)
def group_player_merge(
    *, group: Group, keep: Player, duplicate: Player, user: User
) -> Written[Player]:
    """Fold ``duplicate`` into ``keep``, two records of one person in the group (as
    ``services.player_merge``; refused for two people who played together)."""
    locked = lock_group(group)
    if not _is_keeper(locked, user):
        raise InvalidInput(_("Bạn không ghi sổ cho nhóm này."))
    if keep.group_id != locked.pk or duplicate.group_id != locked.pk:
        raise InvalidInput(_("Chỉ gộp được người chơi của cùng một nhóm."))
    kept = player_merge(keep=keep, duplicate=duplicate, user=user)
    entry = _history(
        locked, user, GroupHistoryEntry.Action.PLAYERS_MERGED,
        before={"players": [keep.name, duplicate.name]}, after={"player": kept.name},
    )  # fmt: skip
    return Written(kept, entry)
