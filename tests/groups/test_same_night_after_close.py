"""A table opened the same night after the books were closed through tonight belongs to the
new, open period on every page that reads a period: its stats, the group page, a player's
statement and balance chart, the live leaderboard, the settle-up and the what-if. The closed
period leaves it out. Every one of them asks ``models.sittings_in_period``, the rule the close
itself uses (``PeriodClose.covers_sitting``)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.ledger import stats
from scoring.ledger.balance_chart import balance_series
from scoring.ledger.standing import GroupLedger, settlement_closed
from scoring.models import PeriodClose, Sitting, settlements_in_period, sittings_in_period
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_then_played(owner):
    """Last week's table and tonight's, the books closed through tonight's, then a second
    table tonight with one game in it (Dũng, who never played before, wins it)."""
    today = timezone.localdate()
    group = new_group(owner, "Hội thứ Năm")
    last_week = open_in_group(
        group, owner, ["An", "Bình", "Chi"], day=today - datetime.timedelta(7), name="Tuần trước"
    )
    won(last_week, owner, "An", {"Bình": 3, "Chi": 2})
    tonight = open_in_group(group, owner, ["An", "Bình", "Chi"], day=today, name="Tối nay")
    won(tonight, owner, "Bình", {"An": 4, "Chi": 1})
    services.period_close(group=group, user=owner, through=today, sitting=tonight)
    later = open_in_group(group, owner, ["Dũng", "An"], day=today, name="Bàn sau chốt")
    won(later, owner, "Dũng", {"An": 6})
    services.group_live_link(group=group, user=owner, action="enable")
    services.group_live_leaderboard(group=group, user=owner, show=True)
    group.refresh_from_db()
    return group, tonight, later


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_rule_puts_the_later_table_in_the_open_period_and_tonights_in_the_closed(
    closed_then_played,
):
    group, tonight, later = closed_then_played
    close = PeriodClose.objects.get(group=group)
    assert close.closes_through == later.date == tonight.date
    open_ids = set(
        Sitting.objects.filter(sittings_in_period(None, None, close), group=group).values_list(
            "pk", flat=True
        )
    )
    assert open_ids == {later.pk}
    closed = Sitting.objects.filter(close.sittings_covered(), group=group)
    assert later not in closed and tonight in closed
    # The Python rule and the SQL one agree sitting by sitting.
    for sitting in group.sittings.all():
        assert close.covers_sitting(sitting.date, sitting.pk) == (sitting.pk not in open_ids)


def test_the_open_periods_stats_page_counts_the_later_table(owner, closed_then_played):
    group, _tonight, later = closed_then_played
    page = _client(owner).get(f"/groups/{group.pk}/stats/")
    assert page.status_code == 200
    lines = {s.player.name: (s.games, s.net) for s in page.context["lines"]}
    # Only the later table's game: Dũng took 6 000 from An (đếm lá, 1 000 a card).
    assert lines == {
        "Dũng": (1, 6000 * later.stake // 1000),
        "An": (1, -6000 * later.stake // 1000),
    }
    dung = group_player(group, "Dũng")
    games = _client(owner).get(f"/groups/{group.pk}/stats/{dung.pk}/games/")
    assert games.status_code == 200
    assert [g.sitting_id for g in games.context["games"]] == [later.pk]
    # The closed period's games are not in the open period's stats.
    assert "Chi" not in lines


def test_the_group_page_lists_the_later_table_in_the_open_period_only(owner, closed_then_played):
    group, tonight, later = closed_then_played
    page = _client(owner).get(f"/groups/{group.pk}/")
    assert [s.pk for s in page.context["page"].sittings] == [later.pk]
    assert [s.pk for s in page.context["page"].closed_last_day] == [tonight.pk]
    assert "Bàn sau chốt" not in page.text.split("Đã khoá:")[1].split("</div>")[0]
    labels, series = balance_series(GroupLedger.load(group))
    assert len(labels) == 1 and series["Dũng"] == [6 * later.stake]


def test_the_statement_lists_the_later_table(owner, closed_then_played):
    group, _tonight, later = closed_then_played
    dung, an = group_player(group, "Dũng"), group_player(group, "An")
    client = _client(owner)
    page = client.get(f"/groups/{group.pk}/players/{dung.pk}/")
    assert page.status_code == 200
    summary = page.context["page"].summary
    assert [line.sitting_id for line in summary.lines] == [later.pk]
    assert summary.opening == 0 and summary.closing == 6 * later.stake
    statement = client.get(f"/groups/{group.pk}/players/{an.pk}/").context["page"].summary
    assert [line.sitting_id for line in statement.lines] == [later.pk]
    # An's opening is what the close carried; the later game comes on top of it.
    carried = GroupLedger.load(group).opening[an.pk]
    assert statement.opening == carried
    assert statement.closing == carried - 6 * later.stake


def test_the_live_leaderboard_counts_the_later_table(closed_then_played):
    group, _tonight, _later = closed_then_played
    page = Client().get(f"/gl/{group.live_token}/")
    assert page.status_code == 200
    section = page.text.split('id="live-leaderboard"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r"<bdi>([^<]+)</bdi></td><td class=\"num\">(\d+/\d+)</td>", section)
    assert rows == [("Dũng", "1/1"), ("An", "0/1")]


def test_the_settle_up_and_the_what_if_count_the_later_table(owner, closed_then_played):
    group, _tonight, later = closed_then_played
    dung, an = group_player(group, "Dũng"), group_player(group, "An")
    paid = services.group_settlement_record(
        group=group, user=owner, payer=an, payee=dung, amount=1000, date=later.date
    ).value
    client = _client(owner)
    settle = client.get(f"/groups/{group.pk}/settle/")
    assert settle.status_code == 200
    balances = {row.player.name: row.balance for row in settle.context["page"].rows}
    assert balances["Dũng"] == 6 * later.stake - 1000
    assert [s.pk for s in settle.context["page"].paid] == [paid.pk]
    what_if = client.get(f"/groups/{group.pk}/what-if/")
    offered = [value for value, _label in what_if.context["form"].fields["sitting"].choices]
    assert str(later.pk) in [str(v) for v in offered]
    assert all(str(v) != str(_tonight.pk) for v in offered)


def test_the_settlement_rule_follows_the_close_for_group_payments(owner, closed_then_played):
    group, tonight, later = closed_then_played
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    close = PeriodClose.objects.get(group=group)
    after = services.group_settlement_record(
        group=group, user=owner, payer=an, payee=binh, amount=2000, date=later.date
    ).value
    inside = set(
        group.settlements.filter(settlements_in_period(None, None, close)).values_list(
            "pk", flat=True
        )
    )
    assert inside == {after.pk}
    assert not settlement_closed(close, after)
    assert stats.group_story(group, cut=close).lines[0].player.name == "Dũng"
    assert tonight.pk not in {s.sitting_id for s in GroupLedger.load(group).sittings}


def test_the_statement_dates_the_carried_balance_before_the_later_table(owner, closed_then_played):
    """The opening is dated the close's last day, so it comes before a table opened that same
    day after the close (it was dated the day after, above a table dated before it)."""
    from scoring.ledger.group_statements import OPENING, statement

    group, _tonight, later = closed_then_played
    an = group_player(group, "An")
    rows = statement(group, an, ledger=GroupLedger.load(group))
    assert [r.kind for r in rows][:2] == [OPENING, "sitting"]
    assert rows[0].date == later.date and rows[1].sitting_id == later.pk
    assert [r.date for r in rows] == sorted(r.date for r in rows)
    download = _client(owner).get(f"/groups/{group.pk}/players/{an.pk}/statement.csv")
    assert download.status_code == 200
    first = download.content.decode("utf-8-sig").splitlines()[1]
    assert later.date.isoformat() in first and "opening" in first
