"""A group write locks the group's row once: a second ``SELECT … FOR UPDATE`` of a row the
transaction already holds is a statement for nothing (and, written apart from the first,
a place for the two to drift)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Group
from tests.factories import first_out, group_player, new_group, open_in_group, record

pytestmark = pytest.mark.django_db


def _row_reads(statements: list[dict[str, str]]) -> list[str]:
    """The reads of the group's whole row (the lock; the ledger's version reads one column)."""
    table = connection.ops.quote_name(Group._meta.db_table)
    whole = f"{table}.{connection.ops.quote_name('live_leaderboard')}"
    return [
        q["sql"] for q in statements if q["sql"].lstrip().startswith("SELECT") and whole in q["sql"]
    ]


def test_it_locks_the_group_once_to_record_a_group_payment(owner):
    group = new_group(owner, "Thứ Bảy")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"])
    record(sitting, owner, first_out("An", Bình=3, Chi=5, Dũng=7))
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    with CaptureQueriesContext(connection) as ctx:
        services.group_settlement_record(
            group=group, user=owner, payer=binh, payee=an, amount=1000, token=uuid.uuid4()
        )
    assert len(_row_reads(ctx.captured_queries)) == 1, _row_reads(ctx.captured_queries)


def test_it_locks_the_group_once_to_show_the_live_leaderboard(owner):
    group = new_group(owner, "Thứ Bảy")
    with CaptureQueriesContext(connection) as ctx:
        assert services.group_live_leaderboard(group=group, user=owner, show=True)
    assert len(_row_reads(ctx.captured_queries)) == 1, _row_reads(ctx.captured_queries)
    assert Group.objects.get(pk=group.pk).live_leaderboard
