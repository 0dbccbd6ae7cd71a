"""A group's pages read what they show, not the group's whole history.

The same group is read at 3 sittings and again at 30 (each page's list made short, so 30 is
well past it): the group page, its settle-up, a player's statement and the stats of every
day. Counting queries would not tell (an aggregate over every seat is one query), so a probe
counts the ROWS each query hands back: none from the games, seats and payments, and about as
many at 30 sittings as at 3.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.urls import reverse

from scoring import services
from scoring.ledger import balance_chart, settleup
from scoring.ledger.balance_chart import balance_series
from scoring.ledger.standing import GroupLedger
from scoring.views import groups as group_views
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db

HISTORY = ("scoring_game", "scoring_seat", "scoring_payment")
# Rows a page reads some of (its latest lines, sums by week…), never one per sitting of the
# group: a sitting's stored totals and the settlements.
BOUNDED = ("scoring_sittingtotal", "scoring_settlement")
NAMES = ["An", "Bình", "Chi", "Dũng"]
MONDAY = datetime.date(2024, 1, 1)


class RowProbe:
    """Rows fetched, by the tables the query that fetched them names."""

    def __init__(self) -> None:
        self.rows: Counter[str] = Counter()
        self.total = 0
        self._sql: dict[int, str] = {}

    def wrap(self, execute, sql, params, many, context):  # connection.execute_wrapper's shape
        self._sql[id(context["cursor"])] = sql
        return execute(sql, params, many, context)

    def fetched(self, cursor: CursorWrapper, rows: int) -> None:
        sql = self._sql.get(id(cursor), "")
        self.total += rows
        for table in HISTORY + BOUNDED:
            if f'"{table}"' in sql:
                self.rows[table] += rows


@contextmanager
def probe(monkeypatch) -> Iterator[RowProbe]:
    found = RowProbe()

    def counted(name):
        def fetch(self, *args):
            rows = getattr(self.cursor, name)(*args)
            found.fetched(self, 0 if rows is None else (1 if name == "fetchone" else len(rows)))
            return rows

        return fetch

    for name in ("fetchone", "fetchmany", "fetchall"):
        monkeypatch.setattr(CursorWrapper, name, counted(name), raising=False)
    with connection.execute_wrapper(found.wrap):
        yield found
    for name in ("fetchone", "fetchmany", "fetchall"):
        monkeypatch.delattr(CursorWrapper, name, raising=False)


@pytest.fixture
def short_pages(monkeypatch):
    """Lists of five, so 30 sittings are six times a page."""
    monkeypatch.setattr(group_views, "SITTINGS_SHOWN", 5)
    monkeypatch.setattr(group_views, "LINES_SHOWN", 5)
    monkeypatch.setattr(balance_chart, "CHART_POINTS", 5)
    monkeypatch.setattr(settleup, "PAID_SHARED", 5)
    monkeypatch.setattr(settleup, "RECENT_SHOWN", 5)


def _add_weeks(group, owner, start: int, stop: int, *, every: int = 3) -> None:
    for week in range(start, stop):
        day = MONDAY + datetime.timedelta(weeks=week)
        sitting = open_in_group(group, owner, NAMES, day=day, name=f"Tối {week + 1}")
        won(
            sitting,
            owner,
            NAMES[week % 4],
            {n: 2 + week % 5 for n in NAMES if n != NAMES[week % 4]},
        )
        if week % every == 0:
            services.settlement_record(
                sitting=sitting, user=owner, payer=group_player(group, NAMES[(week + 1) % 4]),
                payee=group_player(group, NAMES[week % 4]), amount=1000,
            )  # fmt: skip


def _pages(group, player) -> dict[str, str]:
    return {
        "group": reverse("group", args=[group.pk]),
        "settle": reverse("group_settle", args=[group.pk]),
        "played": reverse("group_settle", args=[group.pk]) + "?method=played",
        "statement": reverse("group_statement", args=[group.pk, player.pk]),
        "stats": reverse("group_stats", args=[group.pk]) + "?period=all",
    }


def _read(client, monkeypatch, url: str) -> RowProbe:
    cache.clear()  # cold: nothing kept from an earlier read
    with probe(monkeypatch) as found:
        response = client.get(url)
    assert response.status_code == 200, url
    return found


def test_pages_read_about_the_same_rows_at_3_and_30_sittings(
    owner, owner_client, monkeypatch, short_pages
):
    group = new_group(owner, "Thứ Hai")
    _add_weeks(group, owner, 0, 3)
    an = group_player(group, "An")
    small = {name: _read(owner_client, monkeypatch, url) for name, url in _pages(group, an).items()}
    _add_weeks(group, owner, 3, 30)
    large = {name: _read(owner_client, monkeypatch, url) for name, url in _pages(group, an).items()}
    for name in small:
        assert not any(large[name].rows[table] for table in HISTORY), (name, large[name].rows)
        # A page showing every sitting would fetch 27 sittings × 4 players more rows.
        assert large[name].total <= small[name].total + 20, (
            name,
            small[name].total,
            large[name].total,
        )
    # What the pages show of the older sittings is a link to them.
    page = owner_client.get(reverse("group", args=[group.pk])).content.decode()
    assert "Xem các bàn cũ hơn" in page and "30 bàn trong kỳ" in page
    statement = owner_client.get(reverse("group_statement", args=[group.pk, an.pk]))
    assert "Xem các dòng cũ hơn" in statement.content.decode()


def test_pages_read_some_stored_totals_and_settlements_not_all(
    owner, owner_client, monkeypatch, short_pages
):
    """A settlement every sitting: at 40 sittings the pages read their latest few payments
    and sums of the stored totals, not a row per sitting (40 settlements, 160 totals)."""
    group = new_group(owner, "Thứ Năm")
    _add_weeks(group, owner, 0, 3, every=1)
    an = group_player(group, "An")
    small = {name: _read(owner_client, monkeypatch, url) for name, url in _pages(group, an).items()}
    _add_weeks(group, owner, 3, 40, every=1)
    large = {name: _read(owner_client, monkeypatch, url) for name, url in _pages(group, an).items()}
    for name in small:
        for table in BOUNDED:
            # Lists of five: at most a few lists' worth more than at 3 sittings.
            assert large[name].rows[table] <= small[name].rows[table] + 20, (
                name,
                table,
                small[name].rows,
                large[name].rows,
            )
    settle = owner_client.get(reverse("group_settle", args=[group.pk]))
    shared = settle.context["page"].share_text
    assert len(settle.context["page"].paid) == 5 and "5 khoản trả gần nhất" in shared
    assert shared.count(" → ") == 5 + len(settle.context["page"].suggestions)


def test_the_probe_sees_a_page_that_reads_every_sitting(owner, owner_client, monkeypatch):
    """The probe itself: a read of every seat of the group is counted, row by row."""
    group = new_group(owner, "Thứ Ba")
    _add_weeks(group, owner, 0, 3)
    from scoring.models import Seat

    with probe(monkeypatch) as found:
        seats = list(Seat.objects.filter(game__sitting__group=group))
    assert found.rows["scoring_seat"] == len(seats) == 12


@pytest.mark.parametrize("points", [2, 3, 100])
def test_the_balance_chart_ends_at_the_balances_however_it_sums(owner, monkeypatch, points):
    """By sitting, by week or by month, quarter or year: each series starts from the opening
    balance and its last point is the player's balance, settlements of the group included."""
    monkeypatch.setattr(balance_chart, "CHART_POINTS", points)
    group = new_group(owner, "Thứ Tư")
    _add_weeks(group, owner, 0, 4)
    services.group_settlement_record(
        group=group, user=owner, payer=group_player(group, "Chi"),
        payee=group_player(group, "An"), amount=3000, date=MONDAY + datetime.timedelta(days=2),
    )  # fmt: skip
    _add_weeks(group, owner, 4, 6)
    ledger = GroupLedger.load(group, start=datetime.date.min)
    labels, series = balance_series(ledger)
    assert len(labels) <= max(points, 6) and all(len(v) == len(labels) for v in series.values())
    by_name = {p.name: ledger.balances[p.pk] for p in ledger.players}
    assert {name: values[-1] for name, values in series.items()} == by_name
    if points < 6:  # summed: fewer points than sittings
        assert len(labels) < 6
    only_an, mine = balance_series(ledger, [group_player(group, "An").pk])
    assert list(mine) == ["An"] and only_an == labels
