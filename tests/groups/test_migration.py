"""The data migration: every existing player and sitting moves into its owner's default group,
and every total is what it was (built with the historical models at 0006, then migrated)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

from tests.migrations import migrate_to

BEFORE = [("scoring", "0006_payment_reason_choices")]
AFTER = [("scoring", "0009_groups_required")]


def _totals(apps) -> dict[int, dict[int, int]]:
    Seat = apps.get_model("scoring", "Seat")
    Settlement = apps.get_model("scoring", "Settlement")
    out: dict[int, dict[int, int]] = {}
    rows = (
        Seat.objects.filter(game__status="active")
        .values("game__sitting_id", "player_id")
        .annotate(total=Sum("net"))
    )
    for row in rows:
        out.setdefault(row["game__sitting_id"], {})[row["player_id"]] = row["total"]
    for s in Settlement.objects.filter(is_void=False):
        box = out.setdefault(s.sitting_id, {})
        box[s.payer_id] = box.get(s.payer_id, 0) + s.amount
        box[s.payee_id] = box.get(s.payee_id, 0) - s.amount
    return out


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_every_player_and_sitting_lands_in_its_owners_default_group():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Player = old.get_model("scoring", "Player")
    Sitting = old.get_model("scoring", "Sitting")
    Membership = old.get_model("scoring", "Membership")
    Game = old.get_model("scoring", "Game")
    Seat = old.get_model("scoring", "Seat")
    Payment = old.get_model("scoring", "Payment")
    Settlement = old.get_model("scoring", "Settlement")
    Invitation = old.get_model("scoring", "Invitation")

    users = [User.objects.create(username=name) for name in ("lan", "minh", "khong_ban")]
    for u_index, user in enumerate(users[:2]):
        people = [Player.objects.create(owner=user, name=n) for n in ("An", "Bình", "Chi", "Dũng")]
        # Same names under two owners: they stay two people, one per default group.
        Player.objects.create(owner=user, name="Cũ", merged_into=people[0])
        for s_index in range(3):
            sitting = Sitting.objects.create(
                owner=user, name=f"Bàn {s_index}", date=f"2026-10-{s_index + 1:02d}",
                rules={"name": "dem-la"}, rules_label="Đếm lá", stake=1000,
            )  # fmt: skip
            for position, p in enumerate(people):
                Membership.objects.create(sitting=sitting, player=p, position=position)
            for number in range(1, 6):
                status = "void" if number == 5 else "active"
                g = Game.objects.create(
                    sitting=sitting, number=number, record={}, status=status, revision=1
                )
                winner, losers = people[number % 4], [p for p in people if p != people[number % 4]]
                amounts = [(number + s_index + u_index + i) * 1000 for i in range(3)]
                Seat.objects.create(game=g, player=winner, position=0, net=sum(amounts))
                for i, (loser, amount) in enumerate(zip(losers, amounts, strict=True)):
                    Seat.objects.create(game=g, player=loser, position=i + 1, net=-amount)
                    Payment.objects.create(
                        game=g, revision=1, payer=loser, payee=winner, amount=amount,
                        reason="cards", detail="",
                    )  # fmt: skip
            Settlement.objects.create(sitting=sitting, payer=people[1], payee=people[0], amount=700)
            Settlement.objects.create(
                sitting=sitting, payer=people[2], payee=people[3], amount=300, is_void=True
            )
            Invitation.objects.create(sitting=sitting, username="khong_ban", invitee=users[2])
    before = _totals(old)
    counts = {
        "players": Player.objects.count(),
        "sittings": Sitting.objects.count(),
        "settlements": Settlement.objects.count(),
        "payments": Payment.objects.count(),
    }

    new = migrate_to(AFTER)
    Group = new.get_model("scoring", "Group")
    Player = new.get_model("scoring", "Player")
    Sitting = new.get_model("scoring", "Sitting")
    Settlement = new.get_model("scoring", "Settlement")
    Payment = new.get_model("scoring", "Payment")

    assert Group.objects.count() == 2  # the user with nothing gets no group
    for user_id in (users[0].pk, users[1].pk):
        group = Group.objects.get(owner_id=user_id)
        assert group.is_default and group.name.startswith("Nhóm của ")
        assert set(Player.objects.filter(owner_id=user_id).values_list("group_id", flat=True)) == {
            group.pk
        }
        assert set(Sitting.objects.filter(owner_id=user_id).values_list("group_id", flat=True)) == {
            group.pk
        }
    assert not Player.objects.filter(group__isnull=True).exists()
    assert _totals(new) == before
    assert counts == {
        "players": Player.objects.count(),
        "sittings": Sitting.objects.count(),
        "settlements": Settlement.objects.count(),
        "payments": Payment.objects.count(),
    }
    assert not Settlement.objects.filter(group__isnull=False).exists()
    # Back to the latest state for the tests that follow.
    migrate_to(_latest())


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_a_close_before_a_day_becomes_a_close_through_the_day_before_and_back():
    old = migrate_to([("scoring", "0014_group_live_leaderboard")])
    User = old.get_model("auth", "User")
    Group = old.get_model("scoring", "Group")
    Sitting = old.get_model("scoring", "Sitting")
    PeriodClose = old.get_model("scoring", "PeriodClose")
    user = User.objects.create(username="lan")
    group = Group.objects.create(owner=user, name="Hội")
    day = datetime.date(2026, 12, 3)
    made = [
        Sitting.objects.create(
            owner=user,
            group=group,
            name=f"Bàn {n}",
            date=day,
            rules={},
            rules_label="x",
            stake=1000,
        )
        for n in range(2)
    ]
    PeriodClose.objects.create(group=group, closes_before=day + datetime.timedelta(1))
    PeriodClose.objects.create(group=group, closes_before=day - datetime.timedelta(5))

    new = migrate_to([("scoring", "0018_period_closes_through")])
    closes = list(new.get_model("scoring", "PeriodClose").objects.order_by("pk"))
    assert [c.closes_through for c in closes] == [day, day - datetime.timedelta(6)]
    # Every sitting of the last day stays inside the close, as it was.
    assert [c.through_sitting_id for c in closes] == [made[1].pk, None]

    back = migrate_to([("scoring", "0014_group_live_leaderboard")])
    closes = list(back.get_model("scoring", "PeriodClose").objects.order_by("pk"))
    assert [c.closes_before for c in closes] == [
        day + datetime.timedelta(1),
        day - datetime.timedelta(5),
    ]
    migrate_to(_latest())
