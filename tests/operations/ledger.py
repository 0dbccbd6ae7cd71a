"""A ledger for the backup tests, built in a process of its own against ``DATABASE_URL``.

    DATABASE_URL=… python -m tests.operations.ledger build       # prints its ids as JSON
    DATABASE_URL=… python -m tests.operations.ledger save STOP   # records games until STOP exists

``build`` makes the evening of ``tests.richdata`` (edits, voids, an undo taken back, settlements,
one voided) and a group of four weekly sittings with group-wide settlements (one voided),
confirmations (one taken back), and periods (one closed, reopened and closed again). ``save``
is the scorekeeper who keeps recording while a backup is taken: one game at a time through
the service, each with its payments in its own transaction; it prints how many it saved.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

FIRST_WEEK = datetime.date(2026, 11, 2)


def build() -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from scoring import services
    from tests import factories, richdata

    users = get_user_model().objects
    owner = users.create_user("chu_so", password="mat-khau-that-dai-2026")
    partner = users.create_user("ban_ghi", password="mat-khau-that-dai-2026")
    evening = richdata.build(owner, partner)

    group = factories.four_weeks(owner, first=FIRST_WEEK, name="Nhóm tối thứ Hai")
    an, binh, chi = (factories.group_player(group, n) for n in ("An", "Bình", "Chi"))
    week = group.sittings.order_by("date").first()
    assert week is not None
    paid = factories.settle(week, owner, "Bình", "An", 3000)
    services.settlement_confirm(settlement=paid, user=owner)
    services.settlement_confirm(settlement=factories.settle(week, owner, "Dũng", "Chi", 2000),
                                user=None, by_payee=True)  # fmt: skip
    services.settlement_unconfirm(settlement=paid, user=owner)
    services.settlement_confirm(settlement=paid, user=owner)
    whole = services.group_settlement_record(
        group=group, user=owner, payer=binh, payee=chi, amount=4000
    ).value
    services.settlement_confirm(settlement=whole, user=owner)
    wrong = services.group_settlement_record(
        group=group, user=owner, payer=chi, payee=an, amount=1000
    ).value
    services.group_settlement_void(settlement=wrong, user=owner, reason="ghi nhầm")
    services.period_close(group=group, user=owner, before=FIRST_WEEK + datetime.timedelta(8))
    services.period_close_undo(group=group, user=owner)
    services.period_close(group=group, user=owner, before=FIRST_WEEK + datetime.timedelta(15))
    last = group.sittings.order_by("-date").first()
    assert last is not None
    game = factories.won(last, owner, "Dũng", {"An": 4, "Bình": 2})
    services.game_edit(
        game=game,
        user=owner,
        record={"players": ["Dũng", "An", "Bình"], "finish": ["Dũng"],
                "hands": {"An": {"cards": 5}, "Bình": {"cards": 2}}},
        expected_revision=1,
    )  # fmt: skip
    voided = factories.won(last, owner, "An", {"Chi": 6})
    services.game_void(game=voided, user=owner, reason="chia sai")
    return {"sitting": evening["sitting"], "group": group.pk}


def save(stop: Path) -> int:
    """Record games on a new sitting until ``stop`` exists; how many."""
    from django.contrib.auth import get_user_model

    from tests import factories

    owner = get_user_model().objects.create_user("thu_ky_dem", password="mat-khau-that-dai-2026")
    sitting = factories.open_sitting(owner, name="Ghi liên tục")
    Path(f"{stop}.sitting").write_text(str(sitting.pk))
    saved = 0
    while not stop.exists():
        factories.record(sitting, owner, factories.ROUND[saved % 4], token=uuid.uuid4())
        saved += 1
        Path(f"{stop}.count").write_text(str(saved))
        time.sleep(0.01)
    return saved


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    import django

    django.setup()
    if argv[0] == "build":
        print(json.dumps(build()))
    else:
        print(json.dumps({"saved": save(Path(argv[1]))}))


if __name__ == "__main__":
    main(sys.argv[1:])
