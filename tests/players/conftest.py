from datetime import date

import pytest

from tests.factories import CHOPPED, FIRST, open_sitting, record


@pytest.fixture
def night(owner):
    """Two sittings: An plays both, Bình only the first."""
    first = open_sitting(
        owner, name="Tối thứ Bảy", day=date(2025, 3, 1), players=["An", "Bình", "Chi", "Dũng"]
    )
    record(first, owner, FIRST)
    record(first, owner, CHOPPED)
    second = open_sitting(
        owner, name="Chủ nhật", day=date(2025, 3, 2), players=["An", "Chi", "Dũng", "Em"]
    )
    record(second, owner, {**FIRST, "players": ["An", "Chi", "Dũng", "Em"], "finish": ["Em"]})
    return first, second
