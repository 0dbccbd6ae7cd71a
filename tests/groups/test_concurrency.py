"""Two phones tap "paid" on the same group suggestion at once: it is recorded once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scoring import services
from scoring.ledger.standing import GroupLedger, ledger_version
from scoring.models import Settlement
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_suggestion_paid_from_two_phones_is_recorded_once(owner):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises writers by itself")
    group = new_group(owner, "Cuối tuần")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi"])
    won(sitting, owner, "An", {"Bình": 5, "Chi": 7})
    ledger = GroupLedger.load(group)
    first = ledger.plan()[0]
    version = ledger_version(group)
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def tap() -> None:
        try:
            start.wait(10)
            services.group_settlement_record(
                group=group,
                user=owner,
                payer=first.payer,
                payee=first.payee,
                amount=first.amount,
                expected_version=version,
            )
            outcomes.append("paid")
        except services.Conflict:
            outcomes.append("conflict")
        except Exception as error:  # surfaced below
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["conflict", "conflict", "conflict", "paid"]
    assert Settlement.objects.filter(group=group).count() == 1
    assert group_player(group, "An") in (first.payee, first.payer)
