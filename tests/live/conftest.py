from datetime import date

import pytest

from tests.factories import FIRST, live_link, open_sitting, record


@pytest.fixture
def sitting(owner):
    return open_sitting(owner, day=date(2025, 3, 1))


@pytest.fixture
def live_sitting(sitting, owner):
    live_link(sitting, owner)
    record(sitting, owner, FIRST)
    sitting.refresh_from_db()
    return sitting
