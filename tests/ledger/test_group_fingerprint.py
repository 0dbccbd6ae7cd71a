"""A group's fingerprint covers what moves money or names who gets it: each of these, changed
behind the site's back, gives another fingerprint; a close's carried balances are checked
against the sittings it closed."""

from __future__ import annotations

import datetime

import pytest

from scoring import services
from scoring.engine import chain
from scoring.ledger import verify
from scoring.models import GroupHistoryEntry, Player, Sitting
from tests.factories import four_weeks, group_player, won

pytestmark = pytest.mark.django_db

FIRST = datetime.date(2026, 11, 2)


@pytest.fixture
def group(owner):
    group = four_weeks(owner, first=FIRST)
    services.period_close(group=group, user=owner, through=FIRST + datetime.timedelta(weeks=1))
    return group


def test_the_shown_fingerprint_is_the_checks(group):
    verdict = verify.verify_group(group)
    assert verdict.ok and verdict.fingerprint == verify.fingerprint_of(group)
    # Not the group's own head any more: that is one of the parts.
    assert verdict.fingerprint != verify.fingerprint_of_head(group)


def test_a_moved_date_changes_it(group):
    before = verify.fingerprint_of(group)
    sitting = Sitting.objects.filter(group=group).order_by("-date").first()
    Sitting.objects.filter(pk=sitting.pk).update(date=FIRST - datetime.timedelta(days=1))
    assert verify.fingerprint_of(group) != before


def test_a_removed_sitting_changes_it(group):
    before = verify.fingerprint_of(group)
    sitting = Sitting.objects.filter(group=group).order_by("-date").first()
    Sitting.objects.filter(pk=sitting.pk).update(group=services.group_create(
        owner=group.owner, name="Khác").value)  # fmt: skip
    assert verify.fingerprint_of(group) != before


def test_a_bank_account_changes_it(group):
    before = verify.fingerprint_of(group)
    Player.objects.filter(pk=group_player(group, "An").pk).update(bank_account="999")
    assert verify.fingerprint_of(group) != before


def test_an_added_player_changes_it(group, owner):
    before = verify.fingerprint_of(group)
    Player.objects.create(owner=owner, group=group, name="Người lạ")
    assert verify.fingerprint_of(group) != before


def test_a_game_changes_it(group, owner):
    before = verify.fingerprint_of(group)
    open_night = Sitting.objects.filter(group=group).order_by("-date").first()
    won(open_night, owner, "Bình", {"An": 1, "Chi": 1, "Dũng": 1})
    assert verify.fingerprint_of(group) != before


def test_a_carry_that_is_not_the_sittings_sum_is_found(group):
    entry = GroupHistoryEntry.objects.get(group=group, action="period_closed")
    carried = dict(entry.after["carried"])
    carried["An"] += 1000
    GroupHistoryEntry.objects.filter(pk=entry.pk).update(after={**entry.after, "carried": carried})
    # Its hashes made again, as someone with the database would: the chain agrees.
    chain.rechain(GroupHistoryEntry, group.pk)
    verdict = verify.verify_group(group)
    assert verdict.mismatch is not None
    assert "Chốt sổ số 1" in verdict.mismatch.message and "An" in verdict.mismatch.message
