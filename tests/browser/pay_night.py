"""Seed and read back a night to settle for the pay-up browser tests, in a process of its own
(the server under test runs on a database the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.pay_night seed
    DATABASE_URL=… python -m tests.browser.pay_night count <sitting id>
    DATABASE_URL=… python -m tests.browser.pay_night group-count <group id>

``seed`` opens, in the group "Thứ Sáu", tonight's sitting of four with a few games (several
payments to suggest) and a sitting ten days ago whose period is closed. Prints one line of
JSON.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import uuid

PLAYERS = ["Anh Hai", "Bé Năm", "Chú Tư", "Dì Sáu"]
GAMES = [("Bé Năm", 3, 6, 9), ("Chú Tư", 2, 5, 13), ("Bé Năm", 4, 1, 7)]


def _sitting(owner, group, day: datetime.date, name: str):  # type: ignore[no-untyped-def]
    from scoring import engine, services

    sitting = services.sitting_open(
        owner=owner,
        name=name,
        date=day,
        rules=engine.PRESETS["dem-la"],
        stake=5000,
        player_names=PLAYERS,
        group=group,
    )
    for winner, *cards in GAMES:
        losers = [p for p in PLAYERS if p != winner]
        record = {
            "players": PLAYERS,
            "finish": [winner],
            "hands": {n: {"cards": c} for n, c in zip(losers, cards, strict=True)},
        }
        services.game_record(sitting=sitting, user=owner, record=record, token=uuid.uuid4())
    return sitting


def seed(username: str, password: str) -> dict[str, object]:
    from django.contrib.auth import get_user_model

    from scoring import services

    users = get_user_model().objects
    owner = users.filter(username=username).first() or users.create_user(
        username, password=password
    )
    group = services.group_create(owner=owner, name="Thứ Sáu").value
    today = datetime.date.today()
    old = _sitting(owner, group, today - datetime.timedelta(days=10), "Tối đã chốt")
    services.period_close(group=group, user=owner, through=today - datetime.timedelta(days=6))
    tonight = _sitting(owner, group, today, "Tối nay")
    return {"group": group.pk, "tonight": tonight.pk, "frozen": old.pk}


def count(sitting_id: int) -> dict[str, object]:
    """The payments recorded from a sitting's settle-up: its own, or (a table of a group
    settles the group's open period) the group's dated its night."""
    from django.db.models import Q

    from scoring.models import Settlement, Sitting

    sitting = Sitting.objects.get(pk=sitting_id)
    rows = Settlement.objects.filter(
        Q(sitting=sitting) | Q(group_id=sitting.group_id, date=sitting.date)
    ).order_by("id")
    return {
        "all": rows.count(),
        "standing": [[s.payer.name, s.payee.name, s.amount] for s in rows if not s.is_void],
    }


def group_count(group_id: int) -> dict[str, object]:
    from scoring.models import Settlement

    rows = Settlement.objects.filter(group_id=group_id).order_by("id")
    return {
        "all": rows.count(),
        "standing": [[s.payer.name, s.payee.name, s.amount] for s in rows if not s.is_void],
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    if argv[0] == "seed":
        result = seed(SCOREKEEPER, PASSWORD)
    elif argv[0] == "count":
        result = count(int(argv[1]))
    else:
        result = group_count(int(argv[1]))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
