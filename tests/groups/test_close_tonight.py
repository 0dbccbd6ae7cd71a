"""Closing tonight's books: a period closes *through* a sitting or a day, inclusive, and a
table opened after the close (the same day included) opens in the new period."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.ledger.periods import close_preview
from scoring.ledger.standing import GroupLedger, close_covering, closed_ids
from scoring.models import PeriodClose
from scoring.services import Conflict, InvalidInput
from tests.factories import group_player, new_group, open_in_group, won

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(owner):
    """A group that played last week and tonight."""
    today = timezone.localdate()
    group = new_group(owner, "Hội thứ Năm")
    last_week = open_in_group(
        group, owner, ["An", "Bình", "Chi"], day=today - datetime.timedelta(7), name="Tuần trước"
    )
    won(last_week, owner, "An", {"Bình": 3, "Chi": 2})
    tonight = open_in_group(group, owner, ["An", "Bình", "Chi"], day=today, name="Tối nay")
    won(tonight, owner, "Bình", {"An": 4, "Chi": 1})
    return group, last_week, tonight


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_form_offers_tonights_sitting_and_what_it_locks_and_carries(owner, night):
    group, _last_week, tonight = night
    page = _client(owner).get(f"/groups/{group.pk}/close/")
    assert page.status_code == 200
    assert "Chốt sổ đến hết tối nay (bàn Tối nay)" in page.text
    assert f'name="sitting" value="{tonight.pk}"' in page.text
    assert "Sẽ khoá 2 bàn" in page.text and "Tuần trước" in page.text
    # The carried balances are the whole night's: nothing is left in the open period.
    whole = GroupLedger.load(group)
    preview = close_preview(group, tonight.date, tonight)
    assert {p.pk: a for p, a in preview.carried} == {
        p.pk: whole.balances.get(p.pk, 0) for p in whole.players
    }


def test_the_close_as_offered_locks_tonight_and_a_later_table_tonight_takes_games(owner, night):
    group, _last_week, tonight = night
    client = _client(owner)
    done = client.post(f"/groups/{group.pk}/close/", {"sitting": tonight.pk}, follow=True)
    assert done.status_code == 200
    close = PeriodClose.objects.get(group=group)
    assert close.closes_through == tonight.date and close.through_sitting_id == tonight.pk
    today = timezone.localdate().strftime("%d/%m/%Y")
    assert f"đã chốt sổ đến hết ngày {today}" in done.text
    assert f"Sau lần chốt sổ đến hết ngày {today}." in done.text
    assert "Từ " not in done.text.split('id="period-line"')[1].split("</p>")[0]
    # Locked: never "playing"; listed under the close instead.
    assert "Đang chơi" not in done.text
    assert "Đã khoá:" in done.text and "Tối nay" in done.text.split("Đã khoá:")[1]
    with pytest.raises(Conflict):
        won(tonight, owner, "An", {"Bình": 1, "Chi": 1})
    # Another table tonight, after the close: the new period, and it takes games.
    later = open_in_group(group, owner, ["An", "Bình"], day=tonight.date, name="Bàn hai")
    won(later, owner, "An", {"Bình": 2})
    ledger = GroupLedger.load(group)
    assert [s.sitting_id for s in ledger.sittings] == [later.pk]
    assert ledger.games[group_player(group, "An").pk] > 0
    page = client.get(f"/groups/{group.pk}/")
    assert "Đang chơi: Bàn hai" in page.text
    # It can be closed in turn, the same day.
    services.period_close(group=group, user=owner, through=later.date, sitting=later)
    assert close_covering(later) is not None


def test_a_table_opened_on_a_closed_day_through_the_form_is_in_the_new_period(owner, night):
    group, _last_week, tonight = night
    services.period_close(group=group, user=owner, through=tonight.date)
    with pytest.raises(InvalidInput):  # the day before stays closed
        open_in_group(group, owner, ["An", "Bình"], day=tonight.date - datetime.timedelta(1))
    later = open_in_group(group, owner, ["An", "Bình"], day=tonight.date)
    assert close_covering(later) is None
    assert close_covering(tonight) is not None


def test_closing_through_the_same_point_twice_is_refused_and_the_future_too(owner, night):
    group, _last_week, tonight = night
    services.period_close(group=group, user=owner, through=tonight.date, sitting=tonight)
    with pytest.raises(InvalidInput):
        services.period_close(group=group, user=owner, through=tonight.date)
    with pytest.raises(InvalidInput):
        services.period_close(group=group, user=owner, through=tonight.date + datetime.timedelta(1))
    other = new_group(owner, "Nhóm khác")
    with pytest.raises(InvalidInput):
        services.period_close(group=other, user=owner, through=tonight.date, sitting=tonight)


def test_a_group_payment_recorded_after_the_close_the_same_day_is_in_the_new_period(owner, night):
    group, _last_week, tonight = night
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    before = services.group_settlement_record(
        group=group, user=owner, payer=an, payee=binh, amount=1000, date=tonight.date
    ).value
    close = services.period_close(group=group, user=owner, through=tonight.date).value
    after = services.group_settlement_record(
        group=group, user=owner, payer=an, payee=binh, amount=2000, date=tonight.date
    ).value
    assert closed_ids([before, after], close) == {before.pk}
    with pytest.raises(Conflict, match="đã chốt"):
        services.group_settlement_void(settlement=before, user=owner)
    services.group_settlement_void(settlement=after, user=owner)


def test_undoing_the_close_reopens_tonight(owner, night):
    group, _last_week, tonight = night
    services.period_close(group=group, user=owner, through=tonight.date, sitting=tonight)
    services.period_close_undo(group=group, user=owner)
    won(tonight, owner, "An", {"Bình": 1, "Chi": 1})
    page = _client(owner).get(f"/groups/{group.pk}/")
    assert "Đang chơi: Tối nay" in page.text


def test_the_close_page_says_so_in_english(owner, night):
    group, _last_week, _tonight = night
    client = _client(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/groups/{group.pk}/close/")
    assert "Close the books through tonight (Tối nay)" in page.text
    assert "Locks 2 tables" in page.text
