"""Seed, change and read back the end of a night for ``test_end_of_night``, in a process of
its own (the server under test runs on a database the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.end_night seed
    DATABASE_URL=… python -m tests.browser.end_night record <sitting id>
    DATABASE_URL=… python -m tests.browser.end_night state <group id>
    DATABASE_URL=… python -m tests.browser.end_night tamper <sitting id>

``seed`` is ``pay_night``'s night (the group "Thứ Sáu", tonight's sitting of four with three
games, an older closed one). ``record`` records one more game at a sitting; ``state`` reads
the group's closes and sittings; ``tamper`` changes a payment's amount behind the ledger's
back, as a hand-edited database would. Each prints one line of JSON.
"""

from __future__ import annotations

import json
import os
import sys
import uuid


def record(sitting_id: int) -> dict[str, object]:
    from scoring import services
    from scoring.models import Sitting

    sitting = Sitting.objects.get(pk=sitting_id)
    owner = sitting.owner
    names = [m.player.name for m in sitting.memberships.select_related("player")]
    game, _created = services.game_record(
        sitting=sitting,
        user=owner,
        record={
            "players": names[:2],
            "finish": [names[0]],
            "hands": {names[1]: {"cards": 5}},
        },
        token=uuid.uuid4(),
    )
    return {"number": game.number}


def state(group_id: int) -> dict[str, object]:
    from scoring.ledger.standing import close_covering
    from scoring.models import Group, PeriodClose

    group = Group.objects.get(pk=group_id)
    closes = PeriodClose.objects.filter(group=group, undone_at=None).order_by("id")
    return {
        "closes": [[c.closes_through.isoformat(), c.through_sitting_id] for c in closes],
        "sittings": {
            s.name: {
                "id": s.pk,
                "locked": close_covering(s) is not None,
                "games": s.games.count(),
                "players": [
                    m.player.name
                    for m in s.memberships.select_related("player").order_by("position")
                ],
                "stake": s.stake,
            }
            for s in group.sittings.all()
        },
    }


def tamper(sitting_id: int) -> dict[str, object]:
    """Changes the amount of one of the sitting's own payments behind the ledger's back. A
    table of a group pays the group's settle-up, so one of its own is recorded first when it
    has none (a payment typed at the table before the table joined the group, say)."""
    from django.db import connection

    from scoring import services
    from scoring.models import Settlement, Sitting

    sitting = Sitting.objects.get(pk=sitting_id)
    paid = Settlement.objects.filter(sitting=sitting, is_void=False).order_by("id").first()
    if paid is None:
        payer, payee = [m.player for m in sitting.memberships.select_related("player")][:2]
        paid = services.settlement_record(
            sitting=sitting, user=sitting.owner, payer=payer, payee=payee, amount=1000
        )
    table = connection.ops.quote_name(Settlement._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET amount = amount + 1000 WHERE id = %s", [paid.pk])
    return {"settlement": paid.pk}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.browser import pay_night
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    if argv[0] == "seed":
        result = pay_night.seed(SCOREKEEPER, PASSWORD)
    elif argv[0] == "record":
        result = record(int(argv[1]))
    elif argv[0] == "state":
        result = state(int(argv[1]))
    else:
        result = tamper(int(argv[1]))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
