"""Seed a month of a group for the browser test, in a process of its own (the server under
test runs on a database file the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.group_month

Four weekly sittings of the group "Thứ Bảy", ending a week ago, a few games each; Chi has a
bank account (so payments to Chi show a VietQR code). Prints one line of JSON.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import uuid

PLAYERS = ["An", "Bình", "Chi", "Dũng"]
# Who wins each game of each sitting, and the cards the others are left with.
NIGHTS = [
    [("An", 3, 6, 9), ("Chi", 2, 5, 13)],
    [("Bình", 4, 4, 7), ("Chi", 1, 8, 2), ("Dũng", 5, 3, 10)],
    [("Chi", 6, 2, 3), ("An", 7, 9, 1)],
    [("Dũng", 2, 11, 4), ("Chi", 3, 3, 5)],
]


def seed(username: str, password: str) -> dict[str, object]:
    from django.contrib.auth import get_user_model

    from scoring import engine, services
    from scoring.models import Player

    users = get_user_model().objects
    owner = users.filter(username=username).first() or users.create_user(
        username, password=password
    )
    group = services.group_create(owner=owner, name="Thứ Bảy").value
    today = datetime.date.today()
    sittings = []
    for week, games in enumerate(NIGHTS):
        day = today - datetime.timedelta(days=7 * (len(NIGHTS) - week))
        sitting = services.sitting_open(
            owner=owner,
            name=f"Tối {day:%d/%m}",
            date=day,
            rules=engine.PRESETS["dem-la"],
            stake=5000,
            player_names=PLAYERS,
            group=group,
        )
        for winner, *cards in games:
            losers = [p for p in PLAYERS if p != winner]
            record = {
                "players": PLAYERS,
                "finish": [winner],
                "hands": {name: {"cards": n} for name, n in zip(losers, cards, strict=True)},
            }
            services.game_record(sitting=sitting, user=owner, record=record, token=uuid.uuid4())
        sittings.append({"id": sitting.pk, "name": sitting.name, "date": day.isoformat()})
    Player.objects.filter(group=group, name="Chi").update(
        bank_bin="970436", bank_account="0071000123456", bank_holder="TRAN THI CHI"
    )
    return {"group": group.pk, "sittings": sittings}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    print(json.dumps(seed(SCOREKEEPER, PASSWORD), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
