"""A realistic evening with every kind of game and change, for tests that visit every page.

Sitting one (đếm lá with kết 3 bích) holds thối of heo and hàng, a chặt chồng, a cóng with
đền, a tới trắng, a kết 3 bích, a voided game, an edited game, an undo taken back with redo,
settlements (one voided), a live link, a co-scorekeeper and a changed member list; sitting two
(nhất nhì ba bét) a cóng and thối by place. Players are merged and one has a bank account.

Run as ``python -m tests.richdata <username> <password>`` against ``DATABASE_URL`` it builds
the same data in a server's database and prints its ids as JSON (the browser tests do).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import sys
from typing import Any

MEMBERS = ["An", "Bình", "Chi", "Dũng", "Em"]
# Everything a person typed: the pages may show it in any language.
TYPED = ["Tối thứ Bảy", "Nhất nhì cuối tuần", "Chia sai bài", "Luật nhà Bình", "Nguyễn Văn Bình"]


def _left(winner, players, **cards):
    """Cards each loser still held: 3 unless given."""
    return {p: {"cards": cards.get(p, 3)} for p in players if p != winner}


def build(owner, partner=None) -> dict[str, Any]:
    from scoring import engine, services
    from scoring.engine.samples import random_record
    from scoring.models import Player, SavedRuleSet
    from tests.factories import open_sitting, record

    four = MEMBERS[:4]
    with_em = ["An", "Bình", "Chi", "Em"]
    sitting = open_sitting(owner, name=TYPED[0], preset="dem-la-26", players=MEMBERS)
    games = {}
    games["thoi"] = record(
        sitting,
        owner,
        {
            "players": four,
            "finish": ["An"],
            "hands": {
                "Bình": {"cards": 5, "heo": ["2H"]},
                "Chi": {"cards": 8, "tq": 1},
                "Dũng": {"cards": 7, "3dt": 1, "heo": ["2S"]},
            },
        },
    )
    games["chat"] = record(
        sitting,
        owner,
        {
            "players": four,
            "finish": ["Chi"],
            "hands": {"An": {"cards": 2}, "Bình": {"cards": 4}, "Dũng": {"cards": 6}},
            "chat": [
                {
                    "steps": [
                        {"player": "Bình", "play": "doi_heo", "cards": ["2C", "2D"]},
                        {"player": "An", "play": "tq"},
                        {"player": "Dũng", "play": "4dt"},
                    ]
                },
                {
                    "steps": [
                        {"player": "An", "play": "heo", "cards": ["2H"]},
                        {"player": "Chi", "play": "3dt"},
                    ]
                },
            ],
        },
    )
    games["cong_den"] = record(
        sitting,
        owner,
        {
            "players": four,
            "finish": ["Dũng"],
            # Đền is considered when every loser is cóng ("cóng 3 nhà … xét đền bài").
            "cong": ["An", "Bình", "Chi"],
            "den": "An",
            "hands": {"An": {"cards": 13}, "Bình": {"cards": 13}, "Chi": {"cards": 13}},
        },
    )
    hand = sitting.rules["toi_trang_hands"][0]
    games["toi_trang"] = record(
        sitting,
        owner,
        {"players": ["Bình", "Chi", "Dũng", "Em"], "toi_trang": {"player": "Em", "hand": hand}},
    )
    games["ket"] = record(
        sitting,
        owner,
        {"players": four, "finish": ["An"], "ket_3_bich": True, "hands": _left("An", four)},
    )
    games["void"] = record(
        sitting, owner, {"players": four, "finish": ["Bình"], "hands": _left("Bình", four)}
    )
    services.game_void(game=games["void"], user=owner, reason=TYPED[2])
    games["edited"] = record(
        sitting, owner, {"players": four, "finish": ["Chi"], "hands": _left("Chi", four)}
    )
    services.game_edit(
        game=games["edited"],
        user=owner,
        record={"players": four, "finish": ["Chi"], "hands": _left("Chi", four, An=4)},
        expected_revision=1,
    )
    rng = random.Random(10)
    rules = engine.PRESETS["dem-la-26"]
    for _ in range(6):
        record(sitting, owner, random_record(rules, rng, tuple(four)))
    games["redone"] = record(
        sitting, owner, {"players": four, "finish": ["Dũng"], "hands": _left("Dũng", four)}
    )
    undone = services.sitting_undo(sitting=sitting, user=owner)
    assert undone is not None
    redo = services.sitting_redo(sitting=sitting, user=owner, undo_id=undone.undone_by.pk)
    games["undone"] = record(
        sitting,
        owner,
        {"players": with_em, "finish": ["An"], "hands": _left("An", with_em, Em=2)},
    )
    undo_entry = services.sitting_undo(sitting=sitting, user=owner)
    assert undo_entry is not None
    players = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    services.settlement_record(
        sitting=sitting, user=owner, payer=players["Bình"], payee=players["An"], amount=20000
    )
    wrong = services.settlement_record(
        sitting=sitting, user=owner, payer=players["Chi"], payee=players["An"], amount=5000
    )
    services.settlement_void(settlement=wrong, user=owner, reason="")
    services.settlement_record(
        sitting=sitting, user=owner, payer=players["Dũng"], payee=players["Chi"], amount=10000
    )
    token = services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    if partner is not None:
        services.sitting_share(sitting=sitting, user=owner, invitee=partner)
    services.player_set_bank(
        player=players["An"], bank_bin="970436", account="0123456789", holder="NGUYEN VAN AN"
    )

    placement = open_sitting(
        owner,
        name=TYPED[1],
        day=datetime.date(2026, 11, 29),
        preset="nhat-nhi-ba-bet",
        stake=10000,
        players=["An", "Bình", "Chi", "Giang"],
    )
    record(
        placement,
        owner,
        {
            "players": ["An", "Bình", "Chi", "Giang"],
            "finish": ["Bình", "An", "Giang", "Chi"],
            "cong": ["Chi"],
            "hands": {"Chi": {"cards": 13, "heo": ["2H"]}},
        },
    )
    record(
        placement,
        owner,
        {
            "players": ["An", "Bình", "Chi", "Giang"],
            "finish": ["Giang", "Chi", "An", "Bình"],
            "hands": {"Bình": {"cards": 4, "heo": ["2S", "2D"]}},
            "chat": [{"steps": [{"player": "An", "play": "tq"}, {"player": "Chi", "play": "4dt"}]}],
        },
    )
    services.sitting_set_members(
        sitting=placement, user=owner, player_names=["An", "Bình", "Chi", "Giang", "Hà"]
    )
    # A second spelling of a player, merged into the first (written in the merge note).
    duplicate = Player.objects.create(owner=owner, name="Giang B")
    services.player_merge(keep=players["Em"], duplicate=duplicate, user=owner)
    rule_set = SavedRuleSet.objects.create(
        owner=owner, name=TYPED[3], data=engine.ruleset_to_dict(engine.PRESETS["dem-la"])
    )
    return {
        "sitting": sitting.pk,
        "placement": placement.pk,
        "games": {kind: game.number for kind, game in games.items()},
        "settlement": wrong.pk,
        "players": {name: p.pk for name, p in players.items()},
        "live_token": token,
        "rule_set": rule_set.pk,
        "undo_entry": undo_entry.undone_by.pk,
        "redo_entry": redo.pk,
        "names": sorted(set(MEMBERS) | {"Giang", "Hà", "Giang B"}),
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    username, password = argv[0], argv[1]
    owner = users.filter(username=username).first() or users.create_user(
        username, password=password
    )
    partner = None
    if len(argv) > 2:
        partner = users.filter(username=argv[2]).first() or users.create_user(
            argv[2], password=password
        )
    print(json.dumps(build(owner, partner)))


if __name__ == "__main__":
    main(sys.argv[1:])
