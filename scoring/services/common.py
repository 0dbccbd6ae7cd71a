"""What every writer shares: the two errors a service raises, the sitting locks, the closed
periods' freeze, the account an invitation names, the text check.

A write locks the sitting rows it changes first (``SELECT … FOR UPDATE`` on PostgreSQL;
SQLite's immediate transactions serialise writers anyway) and moves their ``version`` on only
when it changes something, so live pages and the board's ETag see every change and nothing
else. ``lock_sitting`` does both at once for writes that always change something; a write that
may turn out to be a no-op locks with ``lock_sitting_row`` and calls ``bump`` once it knows.

Before the sitting row, a write to one sitting holds its group's row shared
(``lock_group_shared``): closing a period locks that row for itself, so a close waits for the
writes in flight and carries them, and a write that comes during a close waits for it and is
then refused by the freeze. Locks are always taken group first, then sitting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date as date_type
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.transaction import TransactionManagementError
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.engine import readtext as engine_text
from scoring.engine.limits import MAX_AMOUNT
from scoring.ledger import live_cache
from scoring.models import Game, Group, Invitation, PeriodClose, Player, Settlement, Sitting
from scoring.text.money import group
from scoring.text.typed import engine_language
from tienlen_site.plumbing import waits


class Conflict(Exception):
    """The request collides with what is already stored; nothing was written."""

    def __init__(self, message: str, *, game: Game | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game = game


class InvalidInput(Exception):
    """A request that makes no sense (a sitting's players, an amount, a bank account…);
    nothing was written. ``message`` is shown to the user, next to ``field`` when a form has
    one of that name."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


# --- Locks ------------------------------------------------------------------------------


def lock_sitting_row(sitting: Sitting) -> Sitting:
    """Lock the sitting row for this transaction, leaving its version as it is; its group's
    row first, shared (``lock_group_shared``)."""
    if connection.vendor != "postgresql":
        return Sitting.objects.select_for_update().get(pk=sitting.pk)
    if not connection.in_atomic_block:
        # The savepoint below would otherwise be a transaction of its own, its locks gone
        # as soon as this returns.
        raise TransactionManagementError("lock_sitting_row needs the write's transaction")
    while True:
        try:
            with transaction.atomic():
                return _lock_group_then_sitting(sitting)
        except _Moved:
            # Moved to another group while this waited for the old one. Waiting for the new
            # group with the sitting locked could deadlock with the next move, so both locks
            # go (rolling back to the savepoint lets them go) and it starts again.
            continue


def in_locked_sitting[T](sitting: Sitting, write: Callable[[Sitting], T]) -> T:
    """Run ``write`` in a transaction with the sitting row locked (``lock_sitting_row``), and
    return what it returns.

    Outside any transaction, the transaction is the write's own, so a sitting found moved
    to another group is let go by rolling the whole of it back (nothing was written yet)
    and starting again: the locks need no savepoint around them, two statements fewer on
    PostgreSQL. Inside one, ``lock_sitting_row``'s savepoint does that."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        with transaction.atomic():
            return write(lock_sitting_row(sitting))
    while True:
        try:
            with transaction.atomic():
                locked = _lock_group_then_sitting(sitting)
                return write(locked)
        except _Moved:
            continue  # as in lock_sitting_row: both locks gone, start again


def _lock_group_then_sitting(sitting: Sitting) -> Sitting:
    """PostgreSQL: the group's row shared, then the sitting's; ``_Moved`` when the sitting
    is no longer in the group locked, the caller then rolls back what holds the locks.
    First a place in the sitting's queue (``waits.TAKE_A_PLACE``): a third write waiting for
    one sitting is told to send again rather than hold a worker. Both in one statement: the
    place is taken first, and with none free the group's row is not even waited for."""
    with connection.cursor() as cursor:
        cursor.execute(
            _queue_and_share_sql(), [waits.PLACES - 1, waits.SITTING_ROW, sitting.pk, sitting.pk]
        )
        place, group_id = cursor.fetchone() or (None, None)
    if place is None:
        raise waits.busy(waits.SITTING_ROW, sitting.pk)
    locked = Sitting.objects.select_for_update().get(pk=sitting.pk)
    if locked.group_id != group_id:
        raise _Moved
    return locked


class _Moved(Exception):
    pass


def lock_group_shared(*, group: int | None = None, sitting: int | None = None) -> int | None:
    """Hold a group's row (``group``, or the group of ``sitting``) for this transaction, shared
    with the other writers of the group, so a period close (``services.period_close`` locks
    the row ``FOR UPDATE``) and the writes it freezes run one after the other. Returns the
    group's id, or None where there is nothing to lock.

    ``FOR SHARE`` rather than ``FOR UPDATE``: two tables of one group still save at the same
    time. Django's ``select_for_update`` has no shared mode, hence the SQL. On SQLite each
    write transaction holds the whole database already (``BEGIN IMMEDIATE``)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(_share_sql(group is None), [sitting if group is None else group])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def _queue_and_share_sql() -> str:
    """A place in the sitting's queue (``waits.TAKE_A_PLACE``), then its group's row shared
    (``_share_sql``), only once the place is held: always one row, (place or NULL, group id or
    NULL)."""
    return (
        f"WITH place AS MATERIALIZED ({waits.TAKE_A_PLACE}),"
        f" shared AS ({_share_sql(True, 'AND EXISTS (SELECT 1 FROM place) ')})"
        " SELECT (SELECT place FROM place), (SELECT id FROM shared)"
    )


def _share_sql(by_sitting: bool, also: str = "") -> str:
    quote = connection.ops.quote_name
    group_id = "%s"
    if by_sitting:
        group_id = f"SELECT group_id FROM {quote(Sitting._meta.db_table)} WHERE id = %s"
    return f"SELECT id FROM {quote(Group._meta.db_table)} WHERE id = ({group_id}) {also}FOR SHARE"


def bump(sittings: Sequence[Sitting], *, final: bool = False) -> None:
    """Move the version of locked sittings on: something in them changed.

    ``final``: the rows were read under this transaction's lock and nothing else in it
    changes them (their version, their live link); their objects then read the new version,
    and the live cache is told it after the commit without reading the rows again."""
    Sitting.objects.filter(pk__in=[s.pk for s in sittings]).update(version=F("version") + 1)
    if final:
        for sitting in sittings:
            sitting.version += 1
    live_cache.publish(sittings, known=final)


def bump_group(locked: Group, *copies: Group) -> None:
    """Move the version of a locked group on: something in its book changed. ``copies`` are
    other instances of the same row that should read the new version too."""
    Group.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    locked.version += 1
    for copy in copies:
        copy.version = locked.version


def lock_sitting(sitting: Sitting) -> Sitting:
    """Lock the sitting row for this transaction and move its version on."""
    locked = lock_sitting_row(sitting)
    bump([locked])
    return locked


def lock_sittings(sitting_ids: Iterable[int]) -> list[Sitting]:
    """Lock several sittings and move their versions on."""
    # Always in primary-key order, so two writes touching the same sittings cannot deadlock.
    ids = sorted(set(sitting_ids))
    locked = list(Sitting.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    bump(locked)
    return locked


# --- Closed periods ---------------------------------------------------------------------


def refuse_if_frozen(sitting: Sitting) -> None:
    """A sitting inside a closed period of its group (dated before the close's last day, or
    on it and opened before the close) takes no more changes to its money
    (``services.period_close``; reopening the period lifts it). One query. A sitting not
    opened yet (no id) on the close's last day would open after it, in the new period.

    Only under the group's row lock (``lock_sitting_row``, or ``lock_group_shared`` for a
    sitting not yet written) is the answer still true when the write commits."""
    close = _closes_for(sitting.group_id, sitting.date).first()
    if close is not None:
        refuse_if_closed(sitting, close.closes_through, close.through_sitting_id)


def _closes_for(group: Any, day: Any) -> QuerySet[PeriodClose]:
    """The standing closes of ``group`` that may cover a sitting dated ``day``, the one that
    decides first (either may be an ``OuterRef``)."""
    return PeriodClose.objects.filter(
        group_id=group, undone_at__isnull=True, closes_through__gte=day
    ).order_by("-closes_through", "-id")


def frozen_columns() -> dict[str, Subquery]:
    """``refuse_if_frozen``'s read as two columns of a query of sittings, for a write that
    reads more of the locked sitting in one statement: ``close_through`` and ``close_upto``,
    the deciding close's last day and last sitting (None without one), for
    ``refuse_if_closed``."""
    closes = _closes_for(OuterRef("group_id"), OuterRef("date"))
    return {
        "close_through": Subquery(closes.values("closes_through")[:1]),
        "close_upto": Subquery(closes.values("through_sitting_id")[:1]),
    }


def refuse_if_closed(
    sitting: Sitting, closes_through: date_type | None, through_sitting_id: int | None
) -> None:
    """``Conflict`` when the close read (its last day and last sitting; ``closes_through``
    None: there is none) covers the sitting, as ``refuse_if_frozen`` decides."""
    if closes_through is None:
        return
    close = PeriodClose(closes_through=closes_through, through_sitting_id=through_sitting_id)
    if close.covers_sitting(sitting.date, sitting.pk):
        raise Conflict(frozen_message(closes_through))


def refuse_if_settlement_closed(
    in_group: Group, day: date_type, created_at: datetime | None
) -> None:
    """``Conflict`` when a group-wide settlement dated ``day`` (recorded at ``created_at``;
    None: not yet, so after any close) is inside the group's closed period, the same rule
    and words as a sitting's (``refuse_if_frozen``). One query."""
    close = PeriodClose.objects.standing().filter(group=in_group).first()
    if close is not None and close.covers_settlement(day, created_at):
        raise Conflict(frozen_message(close.closes_through))


def frozen_message(closes_through: date_type) -> str:
    """The one answer to a write inside a closed period, a table's or a group payment's."""
    return _(
        "Sổ của nhóm đã chốt đến hết ngày %(d)s: những gì trong kỳ đã chốt không thêm, không "
        "sửa được nữa. Muốn sửa, hãy huỷ chốt sổ ở trang của nhóm."
    ) % {"d": date_format(closes_through, "SHORT_DATE_FORMAT")}


# --- Submissions sent twice ------------------------------------------------------------


def write_once[T](
    write: Callable[[], tuple[T, bool]],
    find: Callable[[], T | None],
    *,
    own_transaction: bool = False,
) -> tuple[T, bool]:
    """Run ``write`` in a transaction: it returns what the submission's token already made, or
    what it makes now, and whether it made it. Two sends of one submission can race past its
    check; the one that then loses the token's unique constraint answers with what the other
    made (``find``), and writes nothing. ``own_transaction``: ``write`` opens the transaction
    itself (``in_locked_sitting``)."""
    try:
        if own_transaction:
            return write()
        with transaction.atomic():
            return write()
    except IntegrityError:
        existing = find()
        if existing is None:
            raise
        return existing, False


# --- Payments handed over ------------------------------------------------------------


def check_amount(amount: int) -> None:
    """An amount handed over: more than nothing, and no more than a VietQR code can carry."""
    if amount <= 0:
        raise InvalidInput(_("Số tiền phải lớn hơn 0."), "amount")
    if amount > MAX_AMOUNT:
        raise InvalidInput(
            _("Số tiền tối đa là %(max)s ₫ (13 chữ số, mức tối đa của mã VietQR).")
            % {"max": group(MAX_AMOUNT)},
            "amount",
        )


def replayed_check(settlement: Settlement, *, payer: Player, payee: Player, amount: int) -> None:
    """A token seen before must come back with the same payment it made."""
    if (settlement.payer_id, settlement.payee_id, settlement.amount) != (
        payer.pk,
        payee.pk,
        amount,
    ):
        raise Conflict(
            _("Khoản trả này đã được ghi rồi (có lẽ do bấm hai lần). Hãy tải lại trang để xem.")
        )


# --- Accounts ---------------------------------------------------------------------------


def account_named(username: str) -> User | None:
    """The account with this username; a different case only when it names exactly one
    (an invitation to a sitting or to a group)."""
    users = User.objects
    exact = users.filter(username=username).first()
    if exact is not None:
        return exact
    loose = list(users.filter(username__iexact=username)[:2])
    return loose[0] if len(loose) == 1 else None


# --- Text -------------------------------------------------------------------------------


def safe_text(value: str, field: str) -> str:
    """``value`` as stored (NFC, single spaces), or ``InvalidInput`` when it holds a character
    that would make it display wrongly (see ``engine.readtext``): the forms and the import check
    first, this is the last line."""
    problem = engine_text.text_problem(value, field)
    if problem is not None:
        raise InvalidInput(problem.message(engine_language()), field)
    return engine_text.normalise(value)


def refuse_invitation(target: Sitting | Group, username: str, owner: str, keeper: str) -> None:
    """Refuse inviting someone already in: the owner (``owner`` says so), a scorekeeper
    (``keeper``, with ``%(u)s``) or a username with a pending invitation. Each refusal
    concerns people the owner already sees, so none tells whether an account exists; except
    one: a username that only looks like an account's (``аlice`` with a Cyrillic а beside
    ``alice``) is refused naming that account, as the sign-up page names it, since such an
    invitation could only ever reach a look-alike, never the person meant."""
    problem = engine_text.text_problem(username, "username")
    if problem is not None:
        raise InvalidInput(problem.message(engine_language()), "username")
    if username == target.owner.get_username():
        raise InvalidInput(owner, "username")
    if target.scorekeepers.filter(username=username).exists():
        raise InvalidInput(keeper % {"u": username}, "username")
    if target.invitations.filter(username=username, status=Invitation.Status.PENDING).exists():
        raise InvalidInput(_("Đã mời %(u)s rồi, đang chờ trả lời.") % {"u": username}, "username")
    if account_named(username) is None:
        key = engine_text.skeleton(username)
        for taken in User.objects.values_list("username", flat=True).iterator():
            if engine_text.skeleton(taken) == key:
                raise InvalidInput(
                    _(
                        "“%(u)s” trông giống tên đăng nhập “%(other)s”; hãy ghi đúng tên đăng "
                        "nhập của người muốn mời."
                    )
                    % {"u": username, "other": taken},
                    "username",
                )
