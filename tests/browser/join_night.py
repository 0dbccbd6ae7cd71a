"""Seed and read back a night for the "Mời cả bàn" browser test, in a process of its own (the
server under test runs on a database the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.join_night seed
    DATABASE_URL=… python -m tests.browser.join_night status <settlement id>

``seed`` is the payee's night (``tests.browser.payee_night``: four players, a few games,
Anh Hai → Bé Năm 30 000 ₫ recorded as paid, not confirmed) with nobody's own link on: the
players get theirs by scanning the table's code. Prints one line of JSON.
"""

from __future__ import annotations

import json
import os
import sys


def seed(username: str, password: str) -> dict[str, object]:
    from scoring import services
    from scoring.models import Player
    from tests.browser import payee_night

    seeded = payee_night.seed(username, password)
    payee = Player.objects.get(pk=seeded["payee"])
    services.player_link(player=payee, user=payee.owner, action="revoke")
    return {k: v for k, v in seeded.items() if k != "token"}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.browser import payee_night
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    result = seed(SCOREKEEPER, PASSWORD) if argv[0] == "seed" else payee_night.status(int(argv[1]))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
