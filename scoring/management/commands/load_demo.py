"""Load a demo table so a fresh ``make run`` has something to look at. Safe to re-run."""

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from scoring import engine, services
from scoring.models import Sitting

USERNAME = "demo"
PASSWORD = "demo-tien-len"
SITTING = "Bàn demo — tối thứ Bảy"
PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
# Stable tokens: a re-run finds the games already recorded instead of adding them again.
NAMESPACE = uuid.UUID("6f1c1a52-2a39-4a43-9a2e-0c0c5e7d3b11")

GAMES: list[dict[str, Any]] = [
    {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "opening": True,
        "finish": ["Bình"],
        "hands": {"An": {"cards": 5, "heo": ["2H"]}, "Chi": {"cards": 8}, "Dũng": {"cards": 13}},
    },
    {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "finish": ["Chi"],
        "hands": {"An": {"cards": 3}, "Bình": {"cards": 7, "tq": 1}, "Dũng": {"cards": 2}},
        "chat": [
            {
                "steps": [
                    {"player": "An", "play": "heo", "cards": ["2D"]},
                    {"player": "Chi", "play": "3dt"},
                    {"player": "Dũng", "play": "tq"},
                ],
                "victim_out": False,
            }
        ],
    },
    {
        "players": ["Bình", "Chi", "Dũng", "Em"],
        "finish": ["Em"],
        "hands": {
            "Bình": {"cards": 4, "heo": ["2S", "2C"]},
            "Chi": {"cards": 9},
            "Dũng": {"cards": 1},
        },
    },
    {
        "players": ["An", "Chi", "Dũng", "Em"],
        "toi_trang": {"player": "An", "hand": "6_doi"},
    },
    {
        "players": ["An", "Chi", "Dũng", "Em"],
        "opening": True,
        "finish": ["Dũng"],
        "hands": {"An": {"cards": 6}, "Chi": {"cards": 11}, "Em": {"cards": 10}},
    },
]


PLACEMENT_SITTING = "Bàn demo — nhất nhì ba bét"
PLACEMENT_GAMES: list[dict[str, Any]] = [
    {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "opening": True,
        "finish": ["Bình", "An", "Dũng", "Chi"],
        "hands": {"Chi": {"cards": 2, "heo": ["2D", "2S"]}},
    },
    {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "finish": ["Chi", "Bình", "An", "Dũng"],
        "hands": {"An": {"cards": 13}, "Dũng": {"cards": 13}},
        "cong": ["An", "Dũng"],
    },
]


class Command(BaseCommand):
    help = "Create the demo scorekeeper and a demo sitting with a few games (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=USERNAME)
        if created or not user.check_password(PASSWORD):
            user.set_password(PASSWORD)
            user.save()
        sitting = Sitting.objects.filter(owner=user, name=SITTING).first()
        if sitting is None:
            sitting = services.sitting_open(
                owner=user,
                name=SITTING,
                date=timezone.localdate(),
                rules=engine.PRESETS["dem-la"],
                stake=5000,
                player_names=PLAYERS,
            )
        self._games(sitting, user, GAMES, "demo-game")
        placement = Sitting.objects.filter(owner=user, name=PLACEMENT_SITTING).first()
        if placement is None:
            placement = services.sitting_open(
                owner=user,
                name=PLACEMENT_SITTING,
                date=timezone.localdate(),
                rules=engine.PRESETS["nhat-nhi-ba-bet"],
                stake=10000,
                player_names=PLAYERS[:4],
            )
        self._games(placement, user, PLACEMENT_GAMES, "demo-placement")
        self.stdout.write(
            f"Demo: log in as “{USERNAME}” with password “{PASSWORD}” "
            f"and open “{SITTING}” (/s/{sitting.pk}/)."
        )

    def _games(self, sitting: Sitting, user: User, games: list[dict[str, Any]], key: str) -> None:
        for index, record in enumerate(games):
            services.game_record(
                sitting=sitting,
                user=user,
                record=record,
                token=uuid.uuid5(NAMESPACE, f"{key}-{index}"),
            )
