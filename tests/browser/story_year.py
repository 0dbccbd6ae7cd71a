"""Seed a year of a group for the story browser test, in a process of its own (the server
under test runs on a database file the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.story_year

Six weekly đếm lá sittings of the group "Thứ Bảy" ending a week ago, with cóng, thối and a
chặt chain among the games. Prints one line of JSON.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import uuid

PLAYERS = ["An", "Bình", "Chi", "Dũng"]
CHOP = [{"steps": [{"player": "An", "play": "heo", "cards": ["2D"]},
                   {"player": "Chi", "play": "3dt"}], "victim_out": False}]  # fmt: skip
# Each night: (winner, cards of the others in seat order, extras)
NIGHTS = [
    [("An", {"Bình": 3, "Chi": 6, "Dũng": 9}), ("Chi", {"An": 2, "Bình": 5, "Dũng": 13})],
    [("An", {"Bình": 4, "Chi": 4, "Dũng": 7}), ("Bình", {"An": 1, "Chi": 8, "Dũng": 2})],
    [("An", {"Bình": 6, "Chi": 2, "Dũng": 3})],
    [("Dũng", {"An": 11, "Bình": 2, "Chi": 4}), ("Chi", {"An": 3, "Bình": 3, "Dũng": 5})],
    [("Chi", {"An": 7, "Bình": 9, "Dũng": 1}), ("Chi", {"An": 5, "Bình": 3, "Dũng": 8})],
    [("Bình", {"An": 12, "Chi": 2, "Dũng": 6})],
]


def seed(username: str, password: str) -> dict[str, object]:
    from django.contrib.auth import get_user_model

    from scoring import engine, services

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
            stake=1000,
            player_names=PLAYERS,
            group=group,
        )
        for number, (winner, cards) in enumerate(games):
            record = {
                "players": PLAYERS,
                "finish": [winner],
                "hands": {name: {"cards": n} for name, n in cards.items()},
            }
            if cards.get("Dũng") == 13:
                record["cong"] = ["Dũng"]
            if week == 0 and number == 1:
                record["chat"] = CHOP
            services.game_record(sitting=sitting, user=owner, record=record, token=uuid.uuid4())
        sittings.append({"id": sitting.pk, "name": sitting.name, "date": day.isoformat()})
    return {"group": group.pk, "sittings": sittings}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    print(json.dumps(seed(SCOREKEEPER, PASSWORD), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
