"""The group's balance table shows "Các bàn" beside "Còn lại" only when they can differ:
once something was paid or carried in. Before that the two columns would repeat each other."""

from __future__ import annotations

import re

import pytest

from tests.factories import FOUR, new_group, open_in_group, settle, won

pytestmark = pytest.mark.django_db


def _headers(html: str) -> list[str]:
    table = html.split('class="group-balances"', 1)[1].split("</thead>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<th.*?</th>", table)]


def test_one_money_column_until_something_is_paid(owner_client, owner):
    group = new_group(owner, "Thứ bảy")
    sitting = open_in_group(group, owner, FOUR)
    won(sitting, owner, FOUR[0], {name: 3 for name in FOUR[1:]})
    html = owner_client.get(f"/groups/{group.pk}/").content.decode()
    assert _headers(html) == ["Người chơi", "Còn lại"]
    assert "“Còn lại” là tổng của các bàn" in html
    assert _headers(owner_client.get(f"/groups/{group.pk}/settle/").content.decode()) == [
        "Người chơi",
        "Còn lại",
    ]

    settle(sitting, owner, FOUR[1], FOUR[0], 5000)
    html = owner_client.get(f"/groups/{group.pk}/").content.decode()
    assert _headers(html) == ["Người chơi", "Các bàn", "Còn lại"]
    assert "là tổng của các bàn" not in html
