from datetime import date

import pytest

from scoring import engine, services

from .builders import FIRST, record


@pytest.fixture
def sitting(owner):
    return services.sitting_open(
        owner=owner,
        name="Tối thứ Bảy",
        date=date(2025, 3, 1),
        rules=engine.PRESETS["dem-la"],
        stake=5000,
        player_names=["An", "Bình", "Chi", "Dũng"],
    )


@pytest.fixture
def live_sitting(sitting, owner):
    services.live_link_enable(sitting=sitting, user=owner)
    record(sitting, owner, FIRST)
    sitting.refresh_from_db()
    return sitting
