"""The reads the group pages show, computed by the group ledger (not the views): the period
maths, the plan a settle-up offers, a suggestion's "why?", a player's statement and its
downloads."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.utils import timezone

from scoring import services
from scoring.ledger import home
from scoring.ledger.balances import BANKER, METHODS, MIN
from scoring.ledger.group_export import statement_csv, statement_json
from scoring.ledger.group_statements import OPENING, STATEMENT_COLUMNS, statement_summary
from scoring.ledger.periods import (
    NIGHT_ENDS_HOUR,
    Period,
    close_preview,
    load_period,
    period_key,
    period_range,
    period_sittings,
    sitting_counts,
    tonight,
)
from scoring.ledger.settleup import has_bank, recent_settlements
from scoring.ledger.standing import GroupLedger, closed_ids, last_close, plan_offered
from scoring.ledger.why import explain, explained
from scoring.text import csvfile
from tests.factories import four_weeks, group_player

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 11, 3)  # a Monday, safely in the past


# --- Periods ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "asked, key",
    [(None, "open"), ("", "open"), ("week", "week"), ("custom", "custom"), ("year", "open")],
)
def test_an_unknown_or_missing_period_is_the_open_one(asked, key):
    assert period_key(asked) == key


def test_each_period_has_its_days():
    thursday = datetime.date(2026, 3, 12)
    monday = datetime.date(2026, 3, 9)
    assert period_range("open", thursday) == (None, None)
    assert period_range("week", thursday) == (monday, None)
    assert period_range("week", monday) == (monday, None)
    assert period_range("month", thursday) == (datetime.date(2026, 3, 1), None)
    assert period_range("all", thursday) == (datetime.date.min, None)


def test_a_range_of_its_own_counts_from_the_first_day_when_it_has_none():
    a, b = datetime.date(2026, 1, 2), datetime.date(2026, 1, 9)
    today = datetime.date(2026, 3, 12)
    assert period_range("custom", today, (a, b)) == (a, b)
    assert period_range("custom", today, (None, b)) == (datetime.date.min, b)
    assert period_range("custom", today, (a, None)) == (a, None)
    # Not a range (the form refused it): every day.
    assert period_range("custom", today, None) == (datetime.date.min, None)


def test_a_period_goes_back_into_the_query_string():
    a, b = datetime.date(2026, 1, 2), datetime.date(2026, 1, 9)
    assert Period("custom", a, b).query() == {
        "period": "custom",
        "start": "2026-01-02",
        "end": "2026-01-09",
    }
    assert Period("custom", None, b).query() == {
        "period": "custom",
        "end": "2026-01-09",
    }
    assert Period("week", a, None).query() == {"period": "week"}


def test_the_open_period_starts_at_the_last_close_and_every_day_at_none(owner):
    group = four_weeks(owner, first=DAY)
    ledger, period = load_period(group, "open", None, None)
    assert period == Period("open", None, None) and ledger.start is None
    closes = DAY + datetime.timedelta(weeks=2)
    through = closes - datetime.timedelta(days=1)
    services.period_close(group=group, user=owner, through=through)
    ledger, period = load_period(group, "open", None, None)
    assert period == Period("open", closes, None, through)
    assert len(ledger.sittings) == 2 and any(ledger.opening.values())
    ledger, period = load_period(group, "all", datetime.date.min, None)
    assert period == Period("all", None, None) and len(ledger.sittings) == 4


# --- The plan a settle-up offers -------------------------------------------------------------


def test_the_plan_offered_is_the_one_asked_for(owner):
    group = four_weeks(owner, first=DAY)
    ledger = GroupLedger.load(group)
    for method in METHODS:
        banker = ledger.default_banker() if method == BANKER else None
        assert plan_offered(ledger, method, banker) == (
            ledger.plan(method, banker),
            False,
        )


def test_past_the_exact_limit_the_banker_plan_is_offered(owner):
    from scoring.engine.settle import MAX_EXACT_PEOPLE

    group = services.group_create(owner=owner, name="Đông người").value
    names = [f"Người {i:02d}" for i in range(MAX_EXACT_PEOPLE + 2)]
    for name in names:
        services.player_get_or_create(owner=owner, name=name, group=group)
    players = [group_player(group, name) for name in names]
    for payer, payee in zip(players[::2], players[1::2], strict=True):
        services.group_settlement_record(
            group=group, user=owner, payer=payer, payee=payee, amount=1000
        )
    ledger = GroupLedger.load(group)
    plan, too_many = plan_offered(ledger, MIN, None)
    assert too_many
    assert plan == ledger.plan(BANKER, ledger.default_banker())


# --- A suggestion's "why?" -------------------------------------------------------------------


def test_a_payment_is_explained_with_what_each_settlement_did(owner):
    group = four_weeks(owner, first=DAY)
    an, binh, chi = (group_player(group, n) for n in ("An", "Bình", "Chi"))
    services.group_settlement_record(group=group, user=owner, payer=binh, payee=an, amount=7000)
    services.group_settlement_record(group=group, user=owner, payer=chi, payee=binh, amount=2000)
    shown = explained(group, binh, an)
    why = explain(group, binh, an)
    assert (shown.payer, shown.payee, shown.amount, shown.clears) == (binh, an, 0, [])
    assert shown.why == why
    # Paying raises the payer's balance, receiving lowers it; the other side is not touched.
    effects = {(st.payer.name, st.payee.name): (p, q) for st, p, q in shown.paid}
    assert effects == {("Bình", "An"): (7000, -7000), ("Chi", "Bình"): (-2000, None)}


# --- A player's statement and its downloads --------------------------------------------------


def _statement(group, name, key="all", start=datetime.date.min, end=None):
    ledger, period = load_period(group, key, start, end)
    player = group_player(group, name)
    return statement_summary(group, player, ledger, period), ledger, period


def test_a_statement_has_its_opening_apart_and_its_totals(owner):
    group = four_weeks(owner, first=DAY)
    binh = group_player(group, "Bình")
    services.group_settlement_record(
        group=group, user=owner, payer=binh, payee=group_player(group, "An"), amount=4000,
        date=DAY + datetime.timedelta(weeks=3),
    )  # fmt: skip
    summary, ledger, _period = _statement(group, "Bình", "custom", DAY + datetime.timedelta(2))
    assert summary.start == DAY + datetime.timedelta(2)
    assert summary.opening == ledger.opening[binh.pk] < 0
    assert all(line.kind != OPENING for line in summary.lines)
    assert summary.games_total == ledger.games[binh.pk]
    assert summary.settled_total == 4000
    assert (
        summary.closing
        == ledger.balances[binh.pk]
        == (summary.opening + summary.games_total + summary.settled_total)
    )
    rows = summary.download_rows()
    assert rows[0]["kind"] == "opening" and rows[0]["amount"] == rows[0]["balance"] < 0
    assert [r["kind"] for r in rows[1:]] == ["sitting", "sitting", "sitting", "settlement"]
    assert rows[-1]["balance"] == summary.closing


def test_a_statement_of_every_day_has_no_opening_row(owner):
    group = four_weeks(owner, first=DAY)
    summary, _ledger, period = _statement(group, "An")
    assert period.start is None and summary.opening == 0
    assert [r["kind"] for r in summary.download_rows()] == ["sitting"] * 4
    empty = _statement(group, "An", "custom", DAY + datetime.timedelta(days=100))[0]
    assert empty.lines == [] and empty.closing == empty.opening != 0


def test_the_statement_downloads_hold_the_same_rows(owner):
    group = four_weeks(owner, first=DAY)
    summary, _ledger, period = _statement(group, "Chi", "custom", DAY + datetime.timedelta(1))
    text = statement_csv(summary)
    assert text.startswith(csvfile.BOM)
    table = list(csv.reader(io.StringIO(text.removeprefix(csvfile.BOM))))
    assert table[0] == list(STATEMENT_COLUMNS)
    rows = summary.download_rows()
    assert [line[-1] for line in table[1:]] == [str(r["balance"]) for r in rows]
    body = statement_json(group, summary, period)
    assert body["lines"] == rows and body["player"] == "Chi" and body["end"] is None
    assert (body["opening"], body["closing"]) == (summary.opening, summary.closing)
    assert body["start"] == (DAY + datetime.timedelta(1)).isoformat()


# --- The group's page and its settle-up ------------------------------------------------------


def test_the_sittings_of_a_period_newest_first(owner):
    group = four_weeks(owner, first=DAY)
    every = period_sittings(group, Period("all", None, None), limit=100)
    assert [s.date for s in every] == [DAY + datetime.timedelta(weeks=w) for w in (3, 2, 1, 0)]
    start, end = DAY + datetime.timedelta(1), DAY + datetime.timedelta(14)
    middle = Period("custom", start, end)
    assert period_sittings(group, middle, limit=100) == every[1:3]
    assert period_sittings(group, middle, limit=1) == every[1:2]


def _at(day: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


def test_tonight_is_todays_newest_sitting_or_last_nights_until_the_morning(owner):
    group = four_weeks(owner, first=DAY)
    last = DAY + datetime.timedelta(weeks=3)
    newest = period_sittings(group, Period("all", None, None), limit=1)
    assert tonight(group, _at(last, 19, 35)) == newest[0]
    # An evening past midnight is still last night's.
    assert tonight(group, _at(last + datetime.timedelta(1), 2, 30)) == newest[0]
    assert tonight(group, _at(last + datetime.timedelta(1), NIGHT_ENDS_HOUR - 1, 59)) == newest[0]
    # The next evening is not: at 19:35 yesterday's table is not tonight's.
    assert tonight(group, _at(last + datetime.timedelta(1), NIGHT_ENDS_HOUR)) is None
    assert tonight(group, _at(last + datetime.timedelta(1), 19, 35)) is None
    assert tonight(group, _at(last + datetime.timedelta(2), 2, 30)) is None


def test_the_home_page_lists_yesterdays_tables_as_tonights_only_past_midnight(owner):
    group = four_weeks(owner, first=DAY)
    last = DAY + datetime.timedelta(weeks=3)
    newest = period_sittings(group, Period("all", None, None), limit=1)
    assert home.tonight(owner, now=_at(last + datetime.timedelta(1), 1)) == newest
    assert home.tonight(owner, now=_at(last + datetime.timedelta(1), 19, 35)) == []


def test_group_payments_inside_a_closed_period_are_named(owner):
    group = four_weeks(owner, first=DAY)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    early = services.group_settlement_record(
        group=group, user=owner, payer=binh, payee=an, amount=1000, date=DAY
    ).value
    late = services.group_settlement_record(
        group=group, user=owner, payer=binh, payee=an, amount=2000,
        date=DAY + datetime.timedelta(weeks=3),
    ).value  # fmt: skip
    recent = recent_settlements(group, limit=50)
    assert recent == [late, early]
    assert recent_settlements(group, limit=1) == [late]
    assert closed_ids(recent, None) == set()
    services.period_close(group=group, user=owner, through=DAY + datetime.timedelta(days=6))
    assert closed_ids(recent, last_close(group)) == {early.pk}


def test_a_payee_can_be_paid_by_code_with_a_known_bank_and_an_account(owner):
    from scoring.text.vietqr import BANKS

    group = four_weeks(owner, first=DAY)
    an = group_player(group, "An")
    assert not has_bank(an)
    an.bank_bin, an.bank_account = BANKS[0].bin, "0123456789"
    assert has_bank(an)
    an.bank_bin = "000000"
    assert not has_bank(an)


# --- The group list and closing a period ----------------------------------------------------


def test_each_group_counts_its_own_sittings(owner):
    month = four_weeks(owner, first=DAY)
    empty = services.group_create(owner=owner, name="Trống").value
    assert sitting_counts([month, empty]) == {month.pk: 4}


def test_a_close_preview_carries_the_balances_and_freezes_the_sittings_before_it(owner):
    group = four_weeks(owner, first=DAY)
    day = DAY + datetime.timedelta(weeks=2)
    preview = close_preview(group, day - datetime.timedelta(1))
    # What each player stood at over the two nights before the day is what is carried.
    carried = {player.name: amount for player, amount in preview.carried}
    before = GroupLedger.load(group, start=datetime.date.min, end=day - datetime.timedelta(1))
    assert carried == {p.name: before.balances.get(p.pk, 0) for p in before.players}
    assert sum(carried.values()) == 0 and any(carried.values())
    assert preview.frozen == 2
    assert preview.closed is None
