"""A period closes while scorekeepers write to its sittings.

Each write either lands before the close, and the close carries it, or comes after it and is
refused: nothing lands in a closed period, and what the close carried (its history entry) is
always the ledger's opening. On PostgreSQL, where writers really run side by side; SQLite's
immediate transactions let one writer in at a time, so there is no race to lose there.
"""

from __future__ import annotations

import datetime
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.db.transaction import TransactionManagementError

from scoring import services
from scoring.ledger.standing import GroupLedger, balances, close_covering
from scoring.models import Game, Group, GroupHistoryEntry, Settlement, Sitting
from scoring.services.common import lock_sitting_row
from tests.factories import DAY, atomic_in_test, first_out, new_group, open_in_group, resent, won

pytestmark = pytest.mark.django_db(transaction=True)

CUT = DAY + datetime.timedelta(days=1)  # the close, through DAY, freezes the table dated DAY
WAIT = 20.0  # seconds a test waits for another thread before calling it stuck


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises writers by itself")


@dataclass
class Table:
    group: Group
    owner: User
    sitting: Sitting
    played: Game  # active
    voided: Game
    settlement: Settlement


@pytest.fixture
def table(owner: User) -> Table:
    group = new_group(owner, "Cuối tuần")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"], day=DAY)
    played = won(sitting, owner, "An", {"Bình": 5, "Chi": 7})
    voided = won(sitting, owner, "Bình", {"An": 3, "Chi": 2})
    services.game_void(game=voided, user=owner, reason="ghi nhầm")
    players = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    settlement = services.settlement_record(
        sitting=sitting, user=owner, payer=players["Bình"], payee=players["An"], amount=1000
    )
    return Table(group, owner, sitting, played, voided, settlement)


# --- The writes a close must not miss -----------------------------------------------------


def _save(t: Table) -> object:
    record = first_out("Chi", An=4, Bình=9)
    return services.game_record(sitting=t.sitting, user=t.owner, record=record, token=uuid.uuid4())


def _edit(t: Table) -> object:
    game = Game.objects.get(pk=t.played.pk)
    record = first_out("An", Bình=11, Chi=2)
    return services.game_edit(
        game=game, user=t.owner, record=record, expected_revision=game.revision
    )


def _void(t: Table) -> object:
    return services.game_void(game=t.played, user=t.owner, reason="sai người thắng")


def _restore(t: Table) -> object:
    return services.game_restore(game=t.voided, user=t.owner)


def _settle(t: Table) -> object:
    players = {m.player.name: m.player for m in t.sitting.memberships.select_related("player")}
    return services.settlement_record(
        sitting=t.sitting, user=t.owner, payer=players["Chi"], payee=players["An"], amount=2000
    )


def _settlement_void(t: Table) -> object:
    return services.settlement_void(settlement=t.settlement, user=t.owner, reason="chưa trả")


def _members(t: Table) -> object:
    return services.sitting_set_members(
        sitting=t.sitting, user=t.owner, player_names=["An", "Bình", "Chi", "Dũng"]
    )


def _open(t: Table) -> object:
    """A table dated inside the closed period (the day before the close's last day)."""
    day = DAY - datetime.timedelta(days=1)
    return open_in_group(t.group, t.owner, ["An", "Bình"], day=day, name="Bàn muộn")


MONEY_WRITES: dict[str, Callable[[Table], object]] = {
    "save": _save,
    "edit": _edit,
    "void": _void,
    "restore": _restore,
    "settle": _settle,
    "settlement-void": _settlement_void,
}
EVERY_WRITE = {**MONEY_WRITES, "members": _members, "open": _open}


def _close(t: Table) -> object:
    return services.period_close(group=t.group, user=t.owner, through=DAY)


# --- Two transactions, one held open while the other runs ----------------------------------


@dataclass
class Outcome:
    value: object = None
    error: BaseException | None = None

    @property
    def refused(self) -> bool:
        return isinstance(self.error, services.Conflict | services.InvalidInput)


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def _waits_for_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def _held_open_while(
    first: Callable[[], object], second: Callable[[], object]
) -> tuple[Outcome, Outcome]:
    """Run ``first`` in a transaction that stays open until ``second`` (started meanwhile, in
    its own transaction) has finished or waits for a lock; then commit ``first``."""
    one, two = Outcome(), Outcome()
    first_done, second_pid, second_done, commit = (threading.Event() for _ in range(4))
    pid: list[int] = []

    def hold() -> None:
        try:
            # The first write's own transaction, held open past its end: as Django's TestCase
            # marks its blocks, so the durable service runs inside it.
            with atomic_in_test():
                one.value = first()
                first_done.set()
                assert commit.wait(WAIT), "never told to commit"
        except BaseException as error:  # surfaced by the caller
            one.error = error
        finally:
            first_done.set()
            connections.close_all()

    def race() -> None:
        try:
            pid.append(_backend_pid())
            second_pid.set()
            two.value = second()
        except BaseException as error:  # surfaced by the caller
            two.error = error
        finally:
            second_pid.set()
            second_done.set()
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert first_done.wait(WAIT)
    racer = threading.Thread(target=race)
    racer.start()
    assert second_pid.wait(WAIT)
    deadline = time.monotonic() + WAIT
    while not second_done.is_set() and not (pid and _waits_for_a_lock(pid[0])):
        assert time.monotonic() < deadline, "the second transaction neither ran nor waited"
        time.sleep(0.01)
    commit.set()
    holder.join(WAIT)
    racer.join(WAIT)
    assert not holder.is_alive() and not racer.is_alive()
    return one, two


def _carried_matches_the_ledger(t: Table) -> None:
    entry = GroupHistoryEntry.objects.get(
        group=t.group, action=GroupHistoryEntry.Action.PERIOD_CLOSED
    )
    ledger = GroupLedger.load(Group.objects.get(pk=t.group.pk))
    names = {p.pk: p.name for p in ledger.players}
    opening = {names[pk]: amount for pk, amount in ledger.opening.items() if amount}
    assert entry.after["carried"] == opening


def _balances(t: Table) -> dict[int, int]:
    return balances(Group.objects.get(pk=t.group.pk), start=datetime.date.min)


@pytest.mark.parametrize("write", MONEY_WRITES)
def test_it_carries_a_write_that_was_in_flight_when_the_close_began(table, write):
    before = _balances(table)
    written, closed = _held_open_while(lambda: MONEY_WRITES[write](table), lambda: _close(table))
    assert written.error is None and closed.error is None
    assert _balances(table) != before  # the write landed…
    _carried_matches_the_ledger(table)  # …and the close carried it


@pytest.mark.parametrize("write", EVERY_WRITE)
def test_it_refuses_a_write_that_arrives_while_the_close_is_in_flight(table, write):
    sittings = Sitting.objects.filter(group=table.group)
    # The close itself moves the version of each sitting it freezes, once.
    frozen = {pk for pk, day in sittings.values_list("id", "date") if day < CUT}
    before = (
        _balances(table),
        [(pk, v + (pk in frozen)) for pk, v in sittings.values_list("id", "version")],
    )
    closed, written = _held_open_while(lambda: _close(table), lambda: EVERY_WRITE[write](table))
    assert closed.error is None
    assert written.refused, written.error or written.value
    # Nothing landed in the closed period: no amount, no other version, no sitting moved.
    assert (_balances(table), list(sittings.values_list("id", "version"))) == before
    _carried_matches_the_ledger(table)


def test_a_table_opened_on_the_closes_day_while_it_is_in_flight_opens_after_it(table):
    """The same night, after the close: it waits for the close, then opens in the new period
    and takes games; what the close carried is not touched."""
    closed, opened = _held_open_while(
        lambda: _close(table),
        lambda: open_in_group(table.group, table.owner, ["An", "Bình"], day=DAY, name="Bàn hai"),
    )
    assert closed.error is None and opened.error is None
    later = opened.value
    assert isinstance(later, Sitting)
    assert close_covering(later) is None
    assert close_covering(table.sitting) is not None
    won(later, table.owner, "An", {"Bình": 3})
    _carried_matches_the_ledger(table)


@pytest.mark.parametrize("write", ["save", "void"])
def test_it_lets_a_write_waiting_for_a_reopening_land_once_the_period_is_open(table, write):
    _close(table)
    before = _balances(table)
    reopened, written = _held_open_while(
        lambda: services.period_close_undo(group=table.group, user=table.owner),
        lambda: MONEY_WRITES[write](table),
    )
    assert reopened.error is None and written.error is None
    assert _balances(table) != before


def test_it_follows_a_sitting_moved_while_a_write_waited_for_it(table):
    other = new_group(table.owner, "Chủ nhật")
    moved, written = _held_open_while(
        lambda: services.sitting_move(sitting=table.sitting, to_group=other, user=table.owner),
        lambda: _save(table),
    )
    assert moved.error is None and written.error is None
    assert Sitting.objects.get(pk=table.sitting.pk).group_id == other.pk
    assert table.sitting.games.count() == 3


def test_it_will_not_lock_a_sitting_outside_the_write_transaction(table):
    # Its savepoint would be a transaction of its own, the locks gone as soon as it returned.
    with pytest.raises(TransactionManagementError):
        lock_sitting_row(table.sitting)


# --- Many at once ------------------------------------------------------------------------


ROUNDS = 4


def test_it_keeps_the_carried_balances_exact_under_a_close_racing_many_writes(owner):
    for round_ in range(ROUNDS):
        table = _race_round(owner, f"Vòng {round_}")
        _carried_matches_the_ledger(table)


def _race_round(owner: User, name: str) -> Table:
    """Five threads save, edit, void and restore, and settle, three times each, while a sixth
    closes the period; all six start together."""
    group = new_group(owner, name)
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"], day=DAY)
    games = [won(sitting, owner, "An", {"Bình": 2 + n, "Chi": 3}) for n in range(4)]
    players = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    table = Table(group, owner, sitting, games[0], games[1], Settlement())
    start = threading.Barrier(6)
    errors: list[BaseException] = []
    closed: list[object] = []

    def run(work: Callable[[], Any], times: int = 3) -> None:
        try:
            start.wait(WAIT)
            for _ in range(times):
                resent(work)  # five writers on one sitting: the queue's third is sent again
        except (services.Conflict, services.InvalidInput):
            pass  # came after the close: refused, nothing written
        except BaseException as error:  # surfaced below
            errors.append(error)
        finally:
            connections.close_all()

    def edit() -> None:
        fresh = Game.objects.get(pk=games[3].pk)
        rec = first_out("An", Bình=1 + fresh.revision % 12, Chi=3)
        services.game_edit(game=fresh, user=owner, record=rec, expected_revision=fresh.revision)

    def void_and_restore() -> None:
        resent(services.game_void, game=games[2], user=owner, reason="thử")
        resent(services.game_restore, game=games[2], user=owner)

    def settle() -> None:
        services.settlement_record(
            sitting=sitting, user=owner, payer=players["Bình"], payee=players["An"], amount=7
        )

    threads = [
        threading.Thread(target=run, args=(lambda: _save(table),)),
        threading.Thread(target=run, args=(lambda: _save(table),)),
        threading.Thread(target=run, args=(edit,)),
        threading.Thread(target=run, args=(void_and_restore,)),
        threading.Thread(target=run, args=(settle,)),
        threading.Thread(target=run, args=(lambda: closed.append(_close(table)), 1)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert len(closed) == 1
    return table
