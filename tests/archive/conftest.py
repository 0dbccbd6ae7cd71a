"""A rich group to archive: the rich evening and its second sitting (tests/richdata.py), and
everything a group adds: a group-wide settlement confirmed by the payee's own link, a
sitting's settlement confirmed and taken back, a period closed, reopened and closed again, a
sitting moved in from another group, merged players, a rename and the live leaderboard."""

from __future__ import annotations

import datetime
import uuid

import pytest

from scoring import services
from scoring.models import Group, Settlement, Sitting
from tests import richdata
from tests.factories import FIRST, group_player, new_group, open_sitting, record


@pytest.fixture
def partner(django_user_model):
    return django_user_model.objects.create_user("ban_ghi", password="mat-khau-dai-123")


@pytest.fixture
def rich_group(owner, partner) -> Group:
    ids = richdata.build(owner, partner)
    group = Sitting.objects.get(pk=ids["sitting"]).group
    services.group_rename(group=group, user=owner, name="Hội Thứ Bảy")
    group.refresh_from_db()
    payer, payee = group_player(group, "An"), group_player(group, "Bình")
    paid = services.group_settlement_record(
        group=group, user=owner, payer=payer, payee=payee, amount=15000,
        date=datetime.date(2026, 11, 28), token=uuid.uuid4(),
    ).value  # fmt: skip
    services.settlement_confirm(settlement=paid, user=None, by_payee=True)
    sitting_paid = Settlement.objects.filter(sitting_id=ids["sitting"], is_void=False).first()
    assert sitting_paid is not None
    services.settlement_confirm(settlement=sitting_paid, user=owner)
    services.settlement_unconfirm(settlement=sitting_paid, user=owner)
    services.settlement_confirm(settlement=sitting_paid, user=partner)
    other = new_group(owner, "Nhóm tạm")
    moved = open_sitting(owner, group=other, name="Bàn dời sang", day=datetime.date(2026, 12, 1))
    record(moved, owner, FIRST)
    services.sitting_move(sitting=moved, to_group=group, user=owner)
    services.period_close(group=group, user=owner, before=datetime.date(2026, 11, 29))
    services.period_close_undo(group=group, user=owner)
    services.period_close(group=group, user=owner, before=datetime.date(2026, 11, 29))
    services.group_live_leaderboard(group=group, user=owner, show=True)
    group.refresh_from_db()
    return group
