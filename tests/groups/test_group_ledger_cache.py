"""The group ledger reads each sitting's stored totals, and keeps each player's first games of
it in the cache: every write is seen through them.

After each kind of write, what a load answers with the kept parts is compared with what it
answers with nothing kept (the cache cleared: what the database says now)."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.ledger.balances import MIN
from scoring.ledger.group_statements import sitting_games, statement
from scoring.ledger.standing import GroupLedger
from scoring.models import Sitting
from tests.factories import (
    atomic_in_test,
    first_out,
    group_player,
    new_group,
    open_in_group,
    record,
    won,
)

# Parts are kept once the transaction that read them commits: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)

DAY = datetime.date(2025, 11, 3)  # a Monday, safely in the past


def _summary(group, **period):
    ledger = GroupLedger.load(group, **period)
    return {
        "balances": ledger.balances,
        "opening": ledger.opening,
        "games": ledger.games,
        "settled": ledger.settled,
        "sittings": [(s.sitting_id, s.date, s.totals, s.played) for s in ledger.sittings],
        "plan": [(p.payer.pk, p.payee.pk, p.amount) for p in ledger.plan(MIN)],
        "statements": {
            p.name: [
                (row.kind, row.amount, row.running, row.game_count)
                for row in statement(group, p, ledger=ledger)
            ]
            for p in ledger.players
        },
        # What each statement line's "Từng ván" opens, read as a page reads it: the
        # sitting freshly, then its games.
        "sitting_games": {
            (p.name, sitting.name, first): sitting_games(group, p, sitting, first)
            for sitting in Sitting.objects.filter(group=group)
            for p in ledger.players
            for first in (1, 2)
        },
    }


def _fresh(group, **period):
    """The same, with nothing kept."""
    cache.clear()
    return _summary(group, **period)


def _seen(group):
    """A kept load answers as a fresh one, the open period and every day alike."""
    for period in ({}, {"start": datetime.date.min}):
        kept = _summary(group, **period)
        assert kept == _fresh(group, **period), period
        assert _summary(group, **period) == kept  # and again, every part kept


@pytest.fixture
def nights(owner):
    group = new_group(owner, "Thứ Sáu")
    first = open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"], day=DAY, name="Tối 1")
    won(first, owner, "An", {"Bình": 3, "Chi": 5, "Dũng": 7})
    second = open_in_group(
        group, owner, ["An", "Bình", "Chi", "Em"], day=DAY + datetime.timedelta(7), name="Tối 2"
    )
    won(second, owner, "Chi", {"An": 2, "Bình": 9, "Em": 1})
    return group, first, second


def test_what_a_transaction_read_is_kept_only_if_it_commits(owner, nights):
    group, first, _second = nights
    cache.clear()
    with atomic_in_test():
        record(first, owner, first_out("An", Bình=9, Chi=9, Dũng=9))
        inside = _summary(group)
        transaction.set_rollback(True)
    # The next write takes the version the rolled-back one had.
    record(first, owner, first_out("Bình", An=1, Chi=1, Dũng=1))
    assert _summary(group) == _fresh(group) != inside


def test_a_load_reads_no_game_cold_or_warm(owner, nights):
    """The totals are stored per sitting (``SittingTotal``): a load adds them up, the same
    few queries with the cache cleared or not, and never reads a seat or a payment."""
    group, _first, _second = nights
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        GroupLedger.load(group)
    with CaptureQueriesContext(connection) as warm:
        GroupLedger.load(group)
    assert len(warm) == len(cold) == 4
    for q in cold.captured_queries + warm.captured_queries:
        assert "scoring_seat" not in q["sql"] and "scoring_payment" not in q["sql"], q["sql"]


def test_every_write_is_seen_through_the_kept_totals(owner, nights):
    group, first, second = nights
    _seen(group)
    # A game.
    record(second, owner, first_out("An", Bình=9, Chi=9, Em=9))
    _seen(group)
    # An edit.
    game = first.games.get(number=1)
    services.game_edit(game=game, user=owner, record=first_out("Chi", An=1, Bình=1, Dũng=1),
                       expected_revision=game.revision)  # fmt: skip
    _seen(group)
    # A void, and the undo of the next game.
    services.game_void(game=second.games.get(number=1), user=owner, reason="ghi nhầm")
    _seen(group)
    services.sitting_undo(sitting=second, user=owner)
    _seen(group)
    # A sitting's settlement and a group-wide one.
    services.settlement_record(
        sitting=first, user=owner, payer=group_player(group, "Bình"),
        payee=group_player(group, "Chi"), amount=3000,
    )  # fmt: skip
    _seen(group)
    services.group_settlement_record(
        group=group, user=owner, payer=group_player(group, "Dũng"),
        payee=group_player(group, "Chi"), amount=2000, date=DAY + datetime.timedelta(3),
    )  # fmt: skip
    _seen(group)
    # A close, and its undo.
    services.period_close(group=group, user=owner, through=DAY + datetime.timedelta(4))
    _seen(group)
    services.period_close_undo(group=group, user=owner)
    _seen(group)


def test_a_merge_is_seen_through_the_kept_totals(owner, nights):
    group, _first, _second = nights
    before = _summary(group)
    services.group_player_merge(
        group=group, keep=group_player(group, "Dũng"), duplicate=group_player(group, "Em"),
        user=owner,
    )  # fmt: skip
    _seen(group)
    dung = group_player(group, "Dũng").pk
    assert _summary(group)["balances"][dung] != before["balances"][dung]
    assert dung in _summary(group)["sittings"][1][2]  # the second night is Dũng's now


def test_a_moved_sitting_is_seen_through_the_kept_totals(owner, nights):
    group, first, second = nights
    other = new_group(owner, "Chủ nhật")
    _seen(group)
    _summary(other)
    services.sitting_move(sitting=second, to_group=other, user=owner)
    _seen(group)
    _seen(other)
    assert [s[0] for s in _summary(group)["sittings"]] == [first.pk]
