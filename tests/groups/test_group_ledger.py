"""The group ledger: balance = Σ sitting totals − settlements, the exact minimum settle-up,
statements, the chart series, and a query count that does not grow with the sittings."""

from __future__ import annotations

import datetime
import itertools
from collections import defaultdict

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ledger as sitting_ledger
from scoring import services
from scoring.ledger import balance_chart
from scoring.ledger.balance_chart import balance_series
from scoring.ledger.balances import METHODS, MIN, PLAYED
from scoring.ledger.group_export import export_dict
from scoring.ledger.group_live import group_for_live_token, history, live_view
from scoring.ledger.group_statements import OPENING, statement
from scoring.ledger.standing import GroupLedger, TooManyToMinimise, balances, ledger_version
from scoring.ledger.why import explain, pair_games
from scoring.models import Group, Player, Sitting
from tests.factories import atomic_in_test, four_weeks, group_player, open_in_group, won
from tests.hypothesis_counts import examples

NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Lan"]

pytestmark = pytest.mark.django_db

# A Monday safely in the past: a period can only be closed up to tomorrow.
DAY = datetime.date(2025, 11, 3)


def most_groups(amounts: list[int]) -> int:
    """Brute force over every subset: the most zero-sum groups the amounts split into."""
    n = len(amounts)
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        total = sum(amounts[i] for i in range(n) if mask >> i & 1)
        best[mask] = max(best[mask ^ 1 << i] for i in range(n) if mask >> i & 1) + (total == 0)
    return best[-1]


@st.composite
def sittings_plan(draw: st.DrawFn) -> list[dict]:
    """A few sittings, each with 2–4 of the names, some games and some settlements."""
    out = []
    for index in range(draw(st.integers(1, 4))):
        size = draw(st.integers(2, 4))
        names = draw(st.permutations(NAMES[:6]).map(lambda n, size=size: n[:size]))
        games = []
        for _ in range(draw(st.integers(0, 3))):
            winner = draw(st.sampled_from(names))
            cards = {n: draw(st.integers(1, 12)) for n in names if n != winner}
            games.append((winner, cards))
        settlements = [
            (payer, payee, draw(st.integers(1, 9)) * 1000)
            for payer, payee in draw(
                st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=2)
            )
            if payer != payee
        ]
        out.append(
            {
                "names": names,
                "games": games,
                "settlements": settlements,
                "day": DAY + datetime.timedelta(days=index),
            }
        )
    return out


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=sittings_plan(), group_wide=st.lists(st.integers(1, 9), max_size=2))
def test_group_balance_is_the_sum_of_sitting_totals_less_settlements(owner, plan, group_wide):
    with atomic_in_test():
        group = services.group_create(owner=owner, name="Thứ Hai").value
        expected: dict[int, int] = defaultdict(int)
        for spec in plan:
            sitting = open_in_group(group, owner, spec["names"], day=spec["day"])
            for winner, cards in spec["games"]:
                won(sitting, owner, winner, cards)
            for payer, payee, amount in spec["settlements"]:
                services.settlement_record(
                    sitting=sitting,
                    user=owner,
                    payer=group_player(group, payer),
                    payee=group_player(group, payee),
                    amount=amount,
                )
            for player_id, amount in sitting_ledger.balances(sitting).items():
                expected[player_id] += amount
        people = list(Player.objects.filter(group=group))
        for i, amount in enumerate(group_wide):
            payer, payee = people[i % len(people)], people[(i + 1) % len(people)]
            services.group_settlement_record(
                group=group, user=owner, payer=payer, payee=payee, amount=amount * 500
            )
            expected[payer.pk] += amount * 500
            expected[payee.pk] -= amount * 500
        got = balances(group)
        assert {pk: v for pk, v in got.items() if v} == {pk: v for pk, v in expected.items() if v}
        assert sum(got.values()) == 0
        ledger = GroupLedger.load(group)
        rows = {r.player.pk: r for r in ledger.rows()}
        for pk, row in rows.items():
            assert row.opening + row.games + row.settled == row.balance == got[pk]
            # The statement's last running balance is the group balance.
            lines = statement(group, ledger.by_id[pk], ledger=ledger)
            assert (lines[-1].running if lines else 0) == got[pk]
        transaction.set_rollback(True)


@st.composite
def group_balances(draw: st.DrawFn) -> dict[str, int]:
    size = draw(st.integers(2, 8))
    names = NAMES[:size]
    amounts = draw(st.lists(st.integers(-6, 6).map(lambda a: a * 1000), min_size=size - 1,
                            max_size=size - 1))  # fmt: skip
    return dict(zip(names, [*amounts, -sum(amounts)], strict=True))


def _make_balances(group: Group, owner, wanted: dict[str, int]) -> None:
    """Group-wide settlements that leave exactly ``wanted`` (a chain through the names)."""
    names = list(wanted)
    for name in names:
        services.player_get_or_create(owner=owner, name=name, group=group)
    carry = 0
    for a, b in itertools.pairwise(names):
        carry += wanted[a]
        # a's balance must end at wanted[a]: a settlement a→b of x moves a up by x.
        if carry > 0:
            services.group_settlement_record(
                group=group,
                user=owner,
                payer=group_player(group, a),
                payee=group_player(group, b),
                amount=carry,
            )
        elif carry < 0:
            services.group_settlement_record(
                group=group,
                user=owner,
                payer=group_player(group, b),
                payee=group_player(group, a),
                amount=-carry,
            )


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(wanted=group_balances())
def test_group_settle_up_uses_the_brute_force_minimum(owner, wanted):
    with atomic_in_test():
        group = services.group_create(owner=owner, name="Cuối tháng").value
        _make_balances(group, owner, wanted)
        ledger = GroupLedger.load(group)
        assert ledger.by_name == wanted
        plan = ledger.plan(MIN)
        amounts = [a for a in wanted.values() if a]
        assert len(plan) == len(amounts) - (most_groups(amounts) if amounts else 0)
        after = dict(wanted)
        for s in plan:
            after[s.payer.name] += s.amount
            after[s.payee.name] -= s.amount
        assert not any(after.values())
        if plan:
            # One tap on "paid": the rest of the plan stays as it was.
            first = plan[0]
            services.group_settlement_record(
                group=group,
                user=owner,
                payer=first.payer,
                payee=first.payee,
                amount=first.amount,
                expected_version=ledger_version(group),
            )
            again = GroupLedger.load(group).plan(MIN)
            assert [(s.payer, s.payee, s.amount) for s in again] == [
                (s.payer, s.payee, s.amount) for s in plan[1:]
            ]
        transaction.set_rollback(True)


def test_as_played_and_banker_plans_clear_the_group(owner):
    group = four_weeks(owner, first=DAY)
    ledger = GroupLedger.load(group)
    banker = ledger.default_banker()
    for method in METHODS:
        after = dict(ledger.by_name)
        for s in ledger.plan(method, banker):
            after[s.payer.name] += s.amount
            after[s.payee.name] -= s.amount
        assert not any(after.values()), method


def test_a_suggestion_is_explained_down_to_sittings_and_games(owner):
    group = four_weeks(owner, first=DAY)
    ledger = GroupLedger.load(group)
    suggestion = ledger.plan()[0]
    why = explain(group, suggestion.payer, suggestion.payee, ledger=ledger)
    assert why.payer_balance == ledger.balances[suggestion.payer.pk] < 0
    assert sum(line.payer_total for line in why.sittings) == why.payer_balance
    assert len(why.sittings) == 4
    # Each sitting's games between the two are read when the line is opened (pair_games):
    # they add up to the line's stored figure.
    for line in why.sittings:
        sitting = Sitting.objects.get(pk=line.sitting_id)
        opened = pair_games(sitting, suggestion.payer, suggestion.payee, 10)
        assert line.between == sum(g.amount for g in opened.games)
        assert line.met == bool(opened.games) and opened.count == len(opened.games)
        assert all(g.revision == 1 and g.number in (1, 2) for g in opened.games)


def test_the_chart_series_ends_at_each_balance(owner):
    group = four_weeks(owner, first=DAY)
    ledger = GroupLedger.load(group)
    labels, series = balance_series(ledger)
    assert len(labels) == 4
    assert {name: values[-1] for name, values in series.items()} == ledger.by_name


def test_a_date_range_carries_the_opening_balance(owner):
    group = four_weeks(owner, first=DAY)
    whole = GroupLedger.load(group)
    later = GroupLedger.load(group, start=DAY + datetime.timedelta(weeks=2))
    assert len(later.sittings) == 2
    assert later.balances == whole.balances
    assert any(later.opening.values())
    an = group_player(group, "An")
    lines = statement(group, an, ledger=later)
    assert lines[0].kind == OPENING and lines[0].amount == later.opening[an.pk]
    assert lines[-1].running == whole.balances[an.pk]
    first_half = GroupLedger.load(group, end=DAY + datetime.timedelta(weeks=1))
    assert len(first_half.sittings) == 2
    assert first_half.balances == later.opening


def _queries(group: Group) -> int:
    with CaptureQueriesContext(connection) as ctx:
        ledger = GroupLedger.load(group)
        suggestions = ledger.plan(MIN)
        ledger.plan(PLAYED)
        balance_series(ledger)
        first = ledger.players[0]
        statement(group, first, ledger=ledger)
        if suggestions:
            explain(group, suggestions[0].payer, suggestions[0].payee, ledger=ledger)
        ledger_version(group)
    return len(ctx.captured_queries)


def test_the_query_count_does_not_grow_with_the_sittings(owner, monkeypatch):
    from tests.factories import bulk_games

    # Past ``CHART_POINTS`` sittings the chart sums by week (two queries of its own, instead of
    # reading the sittings): both sizes past it, so like is compared with like.
    monkeypatch.setattr(balance_chart, "CHART_POINTS", 4)

    group = services.group_create(owner=owner, name="Đông").value
    counts = {}
    made = 0
    for target in (5, 50):
        while made < target:
            sitting = open_in_group(
                group, owner, ["An", "Bình", "Chi", "Dũng"], day=DAY + datetime.timedelta(days=made)
            )
            bulk_games(sitting, owner, 3)
            made += 1
        services.group_settlement_record(
            group=group,
            user=owner,
            payer=group_player(group, "Bình"),
            payee=group_player(group, "An"),
            amount=1000,
            date=DAY + datetime.timedelta(days=made),
        )
        counts[target] = _queries(group)
    assert Sitting.objects.filter(group=group).count() == 50
    assert counts[5] == counts[50]


def test_the_live_view_shows_balances_the_open_sitting_and_the_plan(owner):
    group = four_weeks(owner, first=DAY)
    services.group_live_link(group=group, user=owner, action="enable")
    token = Group.objects.get(pk=group.pk).live_token
    assert group_for_live_token(token) == group
    last_day = DAY + datetime.timedelta(weeks=3)
    evening = timezone.make_aware(datetime.datetime.combine(last_day, datetime.time(20)))
    live = live_view(group, now=evening)
    assert live.open_sitting is not None and live.open_sitting.date == last_day
    assert live.suggestions == GroupLedger.load(group).plan()
    assert live_view(group, now=evening + datetime.timedelta(1)).open_sitting is None
    services.group_live_link(group=group, user=owner, action="revoke")
    assert group_for_live_token(token) is None
    actions = [e.action for e in history(group)]
    assert actions[:2] == ["live", "live"] and actions[-1] == "created"


def test_past_the_exact_limit_the_group_is_offered_the_bankers_plan(owner):
    from scoring.engine.settle import MAX_EXACT_PEOPLE

    group = services.group_create(owner=owner, name="Đông người").value
    size = MAX_EXACT_PEOPLE + 2
    wanted = {f"Người {i:02d}": (i - size // 2) * 1000 for i in range(size - 1)}
    wanted[f"Người {size - 1:02d}"] = -sum(wanted.values())
    _make_balances(group, owner, wanted)
    ledger = GroupLedger.load(group)
    assert not ledger.can_minimise
    with pytest.raises(TooManyToMinimise, match="Hãy thanh toán qua"):
        ledger.plan(MIN)
    after = dict(ledger.by_name)
    for s in ledger.suggested():
        after[s.payer.name] += s.amount
        after[s.payee.name] -= s.amount
    assert not any(after.values())
    assert export_dict(group)["settle_up"]
