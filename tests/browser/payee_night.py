"""Seed and read back a night whose payments wait for "đã nhận", for the payee's-link browser
test, in a process of its own (the server under test runs on a database the test process is
not connected to).

    DATABASE_URL=… python -m tests.browser.payee_night seed
    DATABASE_URL=… python -m tests.browser.payee_night status <settlement id>

``seed`` opens, in the group "Thứ Bảy", tonight's sitting of four with a few games, records
Anh Hai → Bé Năm 30 000 ₫ as paid (not yet confirmed), saves everyone's bank account and
turns on Bé Năm's own link. Prints one line of JSON.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import uuid

PLAYERS = ["Anh Hai", "Bé Năm", "Chú Tư", "Dì Sáu"]
GAMES = [("Bé Năm", 3, 6, 9), ("Chú Tư", 2, 5, 13), ("Bé Năm", 4, 1, 7)]


def seed(username: str, password: str) -> dict[str, object]:
    from django.contrib.auth import get_user_model

    from scoring import engine, services
    from scoring.models import Player

    users = get_user_model().objects
    owner = users.filter(username=username).first() or users.create_user(
        username, password=password
    )
    group = services.group_create(owner=owner, name="Thứ Bảy").value
    sitting = services.sitting_open(
        owner=owner, name="Tối nay", date=datetime.date.today(), rules=engine.PRESETS["dem-la"],
        stake=5000, player_names=PLAYERS, group=group,
    )  # fmt: skip
    for winner, *cards in GAMES:
        losers = [p for p in PLAYERS if p != winner]
        record = {
            "players": PLAYERS,
            "finish": [winner],
            "hands": {n: {"cards": c} for n, c in zip(losers, cards, strict=True)},
        }
        services.game_record(sitting=sitting, user=owner, record=record, token=uuid.uuid4())
    players = {p.name: p for p in Player.objects.filter(group=group)}
    for number, name in enumerate(PLAYERS):
        services.player_set_bank(
            player=players[name], bank_bin="970436", account=f"01234567{number}", holder=name
        )
    paid = services.settlement_record(
        sitting=sitting, user=owner, payer=players["Anh Hai"], payee=players["Bé Năm"],
        amount=30000,
    )  # fmt: skip
    token = services.player_link(player=players["Bé Năm"], user=owner, action="enable")
    return {
        "group": group.pk,
        "sitting": sitting.pk,
        "settlement": paid.pk,
        "payee": players["Bé Năm"].pk,
        "token": token,
    }


def status(settlement_id: int) -> dict[str, object]:
    from scoring.models import Settlement

    s = Settlement.objects.get(pk=settlement_id)
    return {
        "confirmed": s.confirmed_at is not None,
        "by_payee": s.confirmed_by_payee,
        "history": list(s.history.order_by("id").values_list("action", flat=True)),
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from tests.reliability.realserver import PASSWORD, SCOREKEEPER

    result = seed(SCOREKEEPER, PASSWORD) if argv[0] == "seed" else status(int(argv[1]))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
