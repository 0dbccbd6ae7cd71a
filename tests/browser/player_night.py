"""Seed and read back a night for the player's-page browser test, in a process of its own (the
server under test runs on a database the test process is not connected to).

    DATABASE_URL=… python -m tests.browser.player_night seed
    DATABASE_URL=… python -m tests.browser.player_night figures <player id>

``seed`` is the payee's night (``tests.browser.payee_night``: four players, three games,
Anh Hai → Bé Năm 30 000 ₫ recorded as paid, not confirmed, Bé Năm's own link on).
``figures`` reads what the player's page should show: the player's net tonight (every game
of the seed is tonight's) and their balance in the group's open period. Each prints one line
of JSON.
"""

from __future__ import annotations

import json
import os
import sys


def figures(player_id: int) -> dict[str, int]:
    """Read apart from the page's own model: tonight from the seats of tonight's games, the
    balance from the group's ledger."""
    from django.db.models import Sum

    from scoring.ledger.standing import GroupLedger
    from scoring.models import Player, Seat

    player = Player.objects.select_related("group").get(pk=player_id)
    tonight = Seat.objects.counted().filter(player=player).aggregate(total=Sum("net"))["total"]
    balance = GroupLedger.load(player.group).balances[player.pk]
    return {"tonight": tonight or 0, "balance": balance}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.browser import payee_night
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    seeded = argv[0] == "seed"
    result = payee_night.seed(SCOREKEEPER, PASSWORD) if seeded else figures(int(argv[1]))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
