"""Group writes: each returns what it wrote with its history entry; refusals write nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from scoring import access, services
from scoring import ledger as sitting_ledger
from scoring.ledger.standing import GroupLedger, balances, close_covering, ledger_version
from scoring.models import (
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    Invitation,
    PeriodClose,
    Player,
    Settlement,
)
from scoring.services import Conflict, InvalidInput
from tests.factories import group_player, open_in_group, won

pytestmark = pytest.mark.django_db

# A Monday safely in the past: a period can only be closed up to tomorrow.
DAY = datetime.date(2025, 11, 3)


@pytest.fixture
def group(owner):
    return services.group_create(owner=owner, name="Thứ Bảy").value


@pytest.fixture
def keeper(db):
    return get_user_model().objects.create_user("ghi_cung", password="mat-khau-dai-123")


def _played(group, owner, day=DAY):
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"], day=day)
    won(sitting, owner, "An", {"Bình": 4, "Chi": 6})
    return sitting


# --- Create, rename --------------------------------------------------------------------


def test_create_writes_the_group_and_its_history(owner):
    written = services.group_create(owner=owner, name="  Nhóm   bạn ")
    assert written.value.name == "Nhóm bạn"
    assert written.entry.action == GroupHistoryEntry.Action.CREATED
    assert written.entry.group == written.value


def test_a_name_is_refused_twice_for_one_owner(owner, group):
    with pytest.raises(InvalidInput) as error:
        services.group_create(owner=owner, name="thứ bảy")
    assert error.value.field == "name"
    with pytest.raises(InvalidInput):
        services.group_create(owner=owner, name="   ")


def test_only_the_owner_renames(owner, group, keeper):
    services.group_share(group=group, user=owner, invitee=keeper)
    with pytest.raises(InvalidInput):
        services.group_rename(group=group, user=keeper, name="Khác")
    written = services.group_rename(group=group, user=owner, name="Chủ nhật")
    assert Group.objects.get(pk=group.pk).name == "Chủ nhật"
    assert written.entry.before == {"name": "Thứ Bảy"}


def test_every_write_moves_the_version_on(owner, group):
    before = Group.objects.get(pk=group.pk).version
    services.group_rename(group=group, user=owner, name="Mới")
    assert Group.objects.get(pk=group.pk).version == before + 1


# --- Default group, players per group ---------------------------------------------------


def test_a_sitting_opened_without_a_group_goes_to_the_default_group(owner):
    from tests.factories import open_sitting

    sitting = open_sitting(owner)
    default = Group.objects.get(owner=owner, is_default=True)
    assert sitting.group == default
    assert default.name == "Nhóm của chu_ban"
    assert set(Player.objects.values_list("group_id", flat=True)) == {default.pk}


def test_player_names_are_unique_per_group_not_per_owner(owner, group):
    other = services.group_create(owner=owner, name="Chủ nhật").value
    open_in_group(group, owner, ["An", "Bình"])
    open_in_group(other, owner, ["An", "Bình"])
    open_in_group(group, owner, ["An", "Chi"])
    assert Player.objects.filter(name="An").count() == 2
    assert Player.objects.filter(group=group).count() == 3


def test_a_group_scorekeeper_opens_sittings_with_the_groups_players(owner, group, keeper):
    _played(group, owner)
    with pytest.raises(InvalidInput):
        open_in_group(group, keeper, ["An", "Bình"])
    services.group_share(group=group, user=owner, invitee=keeper)
    sitting = open_in_group(group, keeper, ["An", "Bình"])
    assert {m.player.group_id for m in sitting.memberships.all()} == {group.pk}
    assert Player.objects.filter(group=group).count() == 3


# --- Sharing by consent -----------------------------------------------------------------


def test_an_invitation_makes_a_scorekeeper_only_when_accepted(owner, group, keeper):
    sitting = _played(group, owner)
    invited = services.group_invite(group=group, user=owner, username="ghi_cung")
    assert invited.value.group == group and invited.value.sitting is None
    assert not access.groups_for(keeper).exists()
    accepted = services.group_accept(invitation=invited.value, user=keeper)
    assert accepted is not None
    assert accepted.entry.action == GroupHistoryEntry.Action.INVITE_ACCEPTED
    assert access.get_group_for_user(keeper, group.pk) == group
    # The group's sittings and players are the scorekeeper's to see.
    assert access.get_sitting_for_user(keeper, sitting.pk) == sitting
    assert set(access.players_for(keeper)) == set(Player.objects.filter(group=group))


def test_invitation_refusals(owner, group, keeper):
    with pytest.raises(InvalidInput):
        services.group_invite(group=group, user=owner, username="chu_ban")
    services.group_invite(group=group, user=owner, username="ghi_cung")
    with pytest.raises(InvalidInput):
        services.group_invite(group=group, user=owner, username="ghi_cung")
    with pytest.raises(InvalidInput):
        services.group_invite(group=group, user=keeper, username="ai_do")


def test_someone_else_cannot_accept_and_a_withdrawn_invitation_is_dead(
    owner, group, keeper, stranger
):
    invitation = services.group_invite(group=group, user=owner, username="ghi_cung").value
    assert services.group_accept(invitation=invitation, user=stranger) is None
    assert services.group_withdraw(invitation=invitation, user=owner) is not None
    assert services.group_accept(invitation=invitation, user=keeper) is None
    assert Invitation.objects.get().status == Invitation.Status.WITHDRAWN
    assert not group.scorekeepers.exists()


def test_strangers_and_sitting_only_keepers_see_no_group(owner, group, keeper, stranger):
    sitting = _played(group, owner)
    services.sitting_share(sitting=sitting, user=owner, invitee=keeper)
    for user in (stranger, keeper):
        with pytest.raises(Exception) as error:
            access.get_group_for_user(user, group.pk)
        assert error.typename == "Http404"
        assert not access.players_for(user).exclude(sittings=sitting).exists()


# --- Group-wide settlements -------------------------------------------------------------


def test_a_group_settlement_counts_and_can_be_voided(owner, group):
    _played(group, owner)
    before = balances(group)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    written = services.group_settlement_record(
        group=group, user=owner, payer=binh, payee=an, amount=2000
    )
    assert written.value.group == group and written.value.sitting is None
    assert written.entry.settlement == written.value
    after = balances(group)
    assert after[binh.pk] == before[binh.pk] + 2000 and after[an.pk] == before[an.pk] - 2000
    voided = services.group_settlement_void(settlement=written.value, user=owner)
    assert voided is not None and voided.value.is_void
    assert balances(group) == before
    assert services.group_settlement_void(settlement=written.value, user=owner) is None


def test_group_settlement_refusals(owner, group, stranger):
    _played(group, owner)
    other = services.group_create(owner=owner, name="Khác").value
    outsider = services.player_get_or_create(owner=owner, name="Lạ", group=other)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    for payer, payee, amount in [(an, an, 10), (an, binh, 0), (an, binh, -5), (an, outsider, 10)]:
        with pytest.raises(InvalidInput):
            services.group_settlement_record(
                group=group, user=owner, payer=payer, payee=payee, amount=amount
            )
    stale = ledger_version(group)
    won(group.sittings.get(), owner, "Bình", {"An": 2, "Chi": 3})
    with pytest.raises(Conflict):
        services.group_settlement_record(
            group=group, user=owner, payer=an, payee=binh, amount=100, expected_version=stale
        )
    assert not Settlement.objects.exists()


def test_a_per_sitting_settlement_counts_in_the_group_too(owner, group):
    sitting = _played(group, owner)
    before = balances(group)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    services.settlement_record(sitting=sitting, user=owner, payer=binh, payee=an, amount=500)
    after = balances(group)
    assert after[binh.pk] - before[binh.pk] == 500


# --- Periods ----------------------------------------------------------------------------


def test_closing_a_period_changes_no_total_and_is_undoable(owner, group):
    for week in range(3):
        _played(group, owner, day=DAY + datetime.timedelta(weeks=week))
    whole = GroupLedger.load(group)
    cut = DAY + datetime.timedelta(weeks=2)
    written = services.period_close(
        group=group, user=owner, through=cut - datetime.timedelta(days=1)
    )
    assert written.entry.action == GroupHistoryEntry.Action.PERIOD_CLOSED
    closed = GroupLedger.load(group)
    assert closed.start == cut and len(closed.sittings) == 1
    assert closed.balances == whole.balances
    assert closed.opening == GroupLedger.load(group, end=cut - datetime.timedelta(1)).balances
    assert written.entry.after["carried"]
    # Frozen: nothing new dated inside the closed period.
    with pytest.raises(Conflict, match="đã chốt"):
        services.group_settlement_record(
            group=group,
            user=owner,
            payer=group_player(group, "An"),
            payee=group_player(group, "Chi"),
            amount=100,
            date=DAY,
        )
    with pytest.raises(InvalidInput):
        services.period_close(group=group, user=owner, through=cut - datetime.timedelta(days=1))
    undone = services.period_close_undo(group=group, user=owner)
    assert undone is not None and undone.value.undone_at is not None
    assert PeriodClose.objects.count() == 1  # nothing deleted
    reopened = GroupLedger.load(group)
    assert reopened.start is None and reopened.balances == whole.balances
    assert len(reopened.sittings) == 3
    assert services.period_close_undo(group=group, user=owner) is None


# --- Moving a sitting -------------------------------------------------------------------


def test_moving_a_sitting_takes_its_players_by_name_and_keeps_every_total(owner, group):
    other = services.group_create(owner=owner, name="Chủ nhật").value
    stay = _played(group, owner)
    moving = open_in_group(group, owner, ["An", "Bình", "Dũng"], day=DAY + datetime.timedelta(1))
    won(moving, owner, "Dũng", {"An": 5, "Bình": 8})
    open_in_group(other, owner, ["An", "Giang"])
    totals = sitting_ledger.balances(moving)
    names = {p.pk: p.name for p in Player.objects.all()}
    written = services.sitting_move(sitting=moving, to_group=other, user=owner)
    moving.refresh_from_db()
    assert moving.group == other
    assert written.entry.action == GroupHistoryEntry.Action.SITTING_IN
    assert HistoryEntry.objects.filter(sitting=moving, action=HistoryEntry.Action.MOVED).exists()
    moved = {
        names.get(pk, Player.objects.get(pk=pk).name): v
        for pk, v in sitting_ledger.balances(moving).items()
    }
    assert moved == {names[pk]: v for pk, v in totals.items()}
    # Every player of the moved sitting is now one of the target group's.
    assert {m.player.group_id for m in moving.memberships.select_related("player")} == {other.pk}
    # Dũng played only there, so the record itself moved; An merged into the target's An;
    # Bình still plays in the first group, so the target got a Bình of its own.
    assert Player.objects.filter(name="An").count() == 2
    assert Player.objects.get(name="Dũng").group == other
    assert Player.objects.filter(name="Bình").count() == 2
    assert sitting_ledger.balances(stay) == sitting_ledger.balances(
        Group.objects.get(pk=group.pk).sittings.get()
    )
    assert sum(balances(other).values()) == 0
    assert sum(balances(group).values()) == 0


def test_moving_is_refused_when_a_name_is_ambiguous(owner, group):
    other = services.group_create(owner=owner, name="Chủ nhật").value
    moving = _played(group, owner)
    open_in_group(other, owner, ["an", "Giang"])
    with pytest.raises(InvalidInput) as error:
        services.sitting_move(sitting=moving, to_group=other, user=owner)
    assert "an" in error.value.message
    assert Group.objects.get(pk=group.pk).sittings.count() == 1


def test_moving_is_refused_between_owners(owner, group, stranger):
    theirs = services.group_create(owner=stranger, name="Của họ").value
    moving = _played(group, owner)
    with pytest.raises(InvalidInput):
        services.sitting_move(sitting=moving, to_group=theirs, user=owner)
    with pytest.raises(InvalidInput):
        services.sitting_move(sitting=moving, to_group=group, user=owner)


# --- Merging players --------------------------------------------------------------------


def test_merging_two_records_of_one_person_in_a_group(owner, group):
    first = open_in_group(group, owner, ["An", "Bình", "Chi"])
    won(first, owner, "An", {"Bình": 4, "Chi": 6})
    second = open_in_group(group, owner, ["A. An", "Bình"], day=DAY + datetime.timedelta(1))
    won(second, owner, "A. An", {"Bình": 3})
    before = balances(group)
    keep, dup = group_player(group, "An"), group_player(group, "A. An")
    written = services.group_player_merge(group=group, keep=keep, duplicate=dup, user=owner)
    assert written.value == keep
    after = balances(group)
    assert after[keep.pk] == before[keep.pk] + before[dup.pk]
    other = services.group_create(owner=owner, name="Khác").value
    stray = services.player_get_or_create(owner=owner, name="Lạ", group=other)
    with pytest.raises(InvalidInput):
        services.group_player_merge(group=group, keep=keep, duplicate=stray, user=owner)


def test_the_sitting_invitation_flow_answers_group_invitations_too(owner, group, keeper):
    invitation = services.group_invite(group=group, user=owner, username="ghi_cung").value
    assert services.pending_for(keeper) == [invitation]
    assert services.invitation_accept(invitation=invitation, user=keeper)
    assert list(group.scorekeepers.all()) == [keeper]
    assert not services.invitation_decline(invitation=invitation, user=keeper)


def test_a_closed_period_freezes_its_sittings_until_reopened(owner, group, tmp_path):
    sitting = _played(group, owner)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    services.period_close(group=group, user=owner, through=DAY)
    first = sitting.games.get()
    with pytest.raises(Conflict):
        won(sitting, owner, "Bình", {"An": 2, "Chi": 3})
    with pytest.raises(Conflict):
        services.game_void(game=first, user=owner, reason="sai")
    with pytest.raises(Conflict):
        services.settlement_record(sitting=sitting, user=owner, payer=binh, payee=an, amount=10)
    with pytest.raises(InvalidInput) as error:
        open_in_group(group, owner, ["An", "Bình"], day=DAY - datetime.timedelta(1))
    assert error.value.field == "date"
    # A sitting opened after the close is not frozen, even dated on the close's last day;
    # nor is any after the close is undone.
    later = open_in_group(group, owner, ["An", "Bình"], day=DAY)
    won(later, owner, "Bình", {"An": 2})
    assert close_covering(later) is None
    assert close_covering(sitting) is not None
    open_in_group(group, owner, ["An", "Bình"], day=DAY + datetime.timedelta(1))
    services.period_close_undo(group=group, user=owner)
    services.game_void(game=first, user=owner, reason="sai")


def test_a_group_settlement_follows_a_merge_and_two_who_paid_each_other_stay_apart(owner, group):
    first = open_in_group(group, owner, ["An", "Bình"])
    won(first, owner, "An", {"Bình": 4})
    services.player_get_or_create(owner=owner, name="Chi", group=group)
    services.player_get_or_create(owner=owner, name="C.", group=group)
    an, chi, dup = group_player(group, "An"), group_player(group, "Chi"), group_player(group, "C.")
    services.group_settlement_record(group=group, user=owner, payer=dup, payee=an, amount=7)
    before = balances(group)
    services.group_player_merge(group=group, keep=chi, duplicate=dup, user=owner)
    assert balances(group)[chi.pk] == before[chi.pk] + before[dup.pk]
    services.group_settlement_record(group=group, user=owner, payer=chi, payee=an, amount=3)
    with pytest.raises(InvalidInput):
        services.group_player_merge(group=group, keep=an, duplicate=chi, user=owner)


def test_a_form_sent_twice_opens_one_sitting_in_the_group(owner, group):
    import uuid

    from scoring import engine

    token = uuid.uuid4()
    fields = {
        "token": token,
        "owner": owner,
        "name": "Tối thứ Ba",
        "date": DAY,
        "rules": engine.PRESETS["dem-la"],
        "stake": 1000,
        "player_names": ["An", "Bình"],
    }
    sitting, created = services.sitting_open_once(**fields, group=group)
    assert created and sitting.group == group
    again, created = services.sitting_open_once(**fields, group=group)
    assert again == sitting and not created
    other = services.group_create(owner=owner, name="Khác").value
    with pytest.raises(Conflict):
        services.sitting_open_once(**fields, group=other)
