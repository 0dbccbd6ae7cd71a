"""The table's story adds up: on random groups (random schemes, games, edits, voids and
settlements), every stat and every head-to-head flow is the sum it claims over the stored
seats and payments, for the whole group and for any range of days; a closed period moves
nothing; and re-pricing agrees with the engine scoring the same records directly."""

from __future__ import annotations

import datetime
import random
from collections import defaultdict

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import engine, services
from scoring.engine.samples import random_record
from scoring.ledger import stats
from scoring.ledger.reprice import reprice_group, reprice_sitting
from scoring.models import Game, Payment, Player, Seat
from tests.factories import atomic_in_test, new_group, open_sitting, record
from tests.hypothesis_counts import examples

pytestmark = pytest.mark.django_db

FOUR = ("An", "Bình", "Chi", "Dũng")
DAY = datetime.date(2025, 3, 3)
STAKE = 2000  # even: the ½ values of "cuoc" are whole đồng

PRESETS = sorted(engine.PRESETS)


@st.composite
def group_plan(draw: st.DrawFn) -> list[dict]:
    """1–3 sittings, each under a random preset, a few random games (seeded records valid for
    that preset), some voided, some edited, maybe a settlement."""
    out = []
    for index in range(draw(st.integers(1, 3))):
        out.append(
            {
                "preset": draw(st.sampled_from(PRESETS)),
                "seed": draw(st.integers(0, 10**6)),
                "games": draw(st.integers(1, 5)),
                "void": draw(st.sets(st.integers(0, 4), max_size=2)),
                "edit": draw(st.sets(st.integers(0, 4), max_size=1)),
                "settle": draw(st.booleans()),
                "day": DAY + datetime.timedelta(days=3 * index),
            }
        )
    return out


def build(owner, plan):
    group = new_group(owner, "Ngẫu nhiên")
    sittings = []
    for spec in plan:
        rules = engine.PRESETS[spec["preset"]]
        sitting = open_sitting(
            owner, preset=spec["preset"], stake=STAKE, day=spec["day"], group=group
        )
        rng = random.Random(spec["seed"])
        games = [
            record(sitting, owner, random_record(rules, rng, FOUR)) for _ in range(spec["games"])
        ]
        for i in spec["edit"]:
            if i < len(games):
                services.game_edit(
                    game=games[i],
                    user=owner,
                    record=random_record(rules, rng, FOUR),
                    expected_revision=games[i].revision,
                )
        for i in spec["void"]:
            if i < len(games):
                services.game_void(game=Game.objects.get(pk=games[i].pk), user=owner, reason="x")
        if spec["settle"]:
            members = list(sitting.members.order_by("name"))
            services.settlement_record(
                sitting=sitting, user=owner, payer=members[0], payee=members[1], amount=1000
            )
        sittings.append(sitting)
    return group, sittings


def expected_from_rows(group, start=None, end=None):
    """The stats recomputed row by row in Python from the stored seats and payments."""
    seats = Seat.objects.filter(game__sitting__group=group, game__status="active")
    payments = Payment.objects.filter(game__sitting__group=group, game__status="active")
    if start:
        seats = seats.filter(game__sitting__date__gte=start)
        payments = payments.filter(game__sitting__date__gte=start)
    if end:
        seats = seats.filter(game__sitting__date__lte=end)
        payments = payments.filter(game__sitting__date__lte=end)
    current = [p for p in payments.select_related("game") if p.revision == p.game.revision]
    games, net, first, cong = (defaultdict(int) for _ in range(4))
    for seat in seats:
        games[seat.player_id] += 1
        first[seat.player_id] += seat.place == 1
        cong[seat.player_id] += seat.is_cong
    received, paid = defaultdict(int), defaultdict(int)
    pair = defaultdict(int)
    toi_trang = defaultdict(set)
    chat_made, chat_suffered = defaultdict(int), defaultdict(int)
    for p in current:
        received[p.payee_id] += p.amount
        paid[p.payer_id] += p.amount
        pair[p.payer_id, p.payee_id] += p.amount
        if p.reason == "toi_trang":
            toi_trang[p.payee_id].add(p.game_id)
        if p.reason == "chat":
            chat_made[p.payee_id] += 1
            chat_suffered[p.payer_id] += 1
    for pk in games:
        net[pk] = received[pk] - paid[pk]
    return {
        "games": dict(games),
        "net": dict(net),
        "wins": {pk: first[pk] + len(toi_trang[pk]) for pk in games},
        "cong": {pk: cong[pk] for pk in games},
        "toi_trang": {pk: len(toi_trang[pk]) for pk in games},
        "chat_made": {pk: chat_made[pk] for pk in games},
        "chat_suffered": {pk: chat_suffered[pk] for pk in games},
        "pair": dict(pair),
    }


def check(group, start=None, end=None):
    want = expected_from_rows(group, start, end)
    lines = {s.player.pk: s for s in stats.group_stats(group, start=start, end=end)}
    assert set(lines) == set(want["games"])
    for pk, s in lines.items():
        assert s.games == want["games"][pk]
        assert s.net == want["net"][pk]
        assert s.wins == want["wins"][pk]
        assert s.cong == want["cong"][pk]
        assert s.toi_trang == want["toi_trang"][pk]
        assert (s.chat_made, s.chat_suffered) == (
            want["chat_made"][pk],
            want["chat_suffered"][pk],
        )
    assert sum(s.net for s in lines.values()) == 0
    flows = stats.flows(group, start=start, end=end)
    # One flow per pair, positive, the net of what moved between the two.
    pairs = [frozenset((f.payer.pk, f.payee.pk)) for f in flows]
    assert len(pairs) == len(set(pairs))
    for f in flows:
        a, b = f.payer.pk, f.payee.pk
        assert f.amount > 0
        assert f.amount == want["pair"].get((a, b), 0) - want["pair"].get((b, a), 0)
    # Each player's inflows minus outflows are their net.
    through = defaultdict(int)
    for f in flows:
        through[f.payee.pk] += f.amount
        through[f.payer.pk] -= f.amount
    for pk, s in lines.items():
        assert through[pk] == s.net


SLOW = settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SLOW
@given(plan=group_plan(), cut=st.integers(0, 8), span=st.integers(0, 8))
def test_stats_and_flows_are_the_sums_of_the_stored_payments(owner, plan, cut, span):
    with atomic_in_test():
        group, _sittings = build(owner, plan)
        check(group)
        start = DAY + datetime.timedelta(days=cut)
        check(group, start=start, end=start + datetime.timedelta(days=span))
        # The export carries the same numbers, by name.
        exported = stats.export_stats(group)
        lines = {s.player.name: s for s in stats.group_stats(group)}
        assert set(exported["players"]) == set(lines)
        for name, row in exported["players"].items():
            s = lines[name]
            assert row == {
                "games": s.games,
                "wins": s.wins,
                "net": s.net,
                "cong": s.cong,
                "toi_trang": s.toi_trang,
            }
        inflow = defaultdict(int)
        for f in exported["flows"]:
            inflow[f["to"]] += f["amount"]
            inflow[f["from"]] -= f["amount"]
        assert {n: inflow[n] for n in lines} == {n: s.net for n, s in lines.items()}
        transaction.set_rollback(True)


@SLOW
@given(plan=group_plan(), before=st.integers(1, 9))
def test_a_closed_period_changes_no_stat(owner, plan, before):
    with atomic_in_test():
        group, _sittings = build(owner, plan)
        whole = [(s.player.pk, s.games, s.net, s.wins) for s in stats.group_stats(group)]
        flows = [(f.payer.pk, f.payee.pk, f.amount) for f in stats.flows(group)]
        services.period_close(
            group=group, user=owner, through=DAY + datetime.timedelta(days=before - 1)
        )
        assert [(s.player.pk, s.games, s.net, s.wins) for s in stats.group_stats(group)] == whole
        assert [(f.payer.pk, f.payee.pk, f.amount) for f in stats.flows(group)] == flows
        transaction.set_rollback(True)


def direct(sittings, rules, stake):
    """The records scored directly by the engine, game by game: totals by player id, how
    many were priced and which (sitting, number) were refused."""
    totals, played, refused, priced = defaultdict(int), defaultdict(int), [], 0
    for sitting in sittings:
        for game in sitting.games.filter(status="active").order_by("number"):
            seats = {s.position: s for s in game.seats.all()}
            try:
                result = engine.score_game(rules, game.record, stake)
            except engine.InvalidRecord:
                refused.append((sitting.pk, game.number))
                continue
            priced += 1
            for position, name in enumerate(game.record["players"]):
                totals[seats[position].player_id] += result.net[name]
                played[seats[position].player_id] += seats[position].net
    return dict(totals), dict(played), priced, refused


@SLOW
@given(plan=group_plan(), target=st.sampled_from(PRESETS), units=st.integers(1, 5))
def test_repricing_is_the_engine_scoring_the_same_records(owner, plan, target, units):
    with atomic_in_test():
        group, sittings = build(owner, plan)
        rules, stake = engine.PRESETS[target], 2000 * units
        before = (Game.objects.count(), Payment.objects.count(), Seat.objects.count())
        got = reprice_group(group, rules, stake)
        totals, played, priced, refused = direct(sittings, rules, stake)
        assert got.games == priced
        assert [(s.sitting_id, s.number) for s in got.skipped] == refused
        assert all(s.reason for s in got.skipped)
        assert {k: v for k, v in got.what_if.items() if v} == {k: v for k, v in totals.items() if v}
        assert {k: v for k, v in got.played.items() if v} == {k: v for k, v in played.items() if v}
        assert sum(got.what_if.values()) == 0
        one = reprice_sitting(sittings[0], rules, stake)
        assert one.games + len(one.skipped) == sittings[0].games.filter(status="active").count()
        # Nothing written.
        assert (Game.objects.count(), Payment.objects.count(), Seat.objects.count()) == before
        transaction.set_rollback(True)


def test_repricing_under_the_scheme_played_gives_back_what_was_played(owner):
    group = new_group(owner, "Cùng luật")
    sitting = open_sitting(owner, preset="cuoc", stake=STAKE, group=group)
    rng = random.Random(7)
    for _ in range(6):
        record(sitting, owner, random_record(engine.PRESETS["cuoc"], rng, FOUR))
    got = reprice_sitting(sitting, engine.PRESETS["cuoc"], STAKE)
    assert got.games == 6 and not got.skipped
    assert got.what_if == got.played
    assert {p.name for p in got.players} <= set(FOUR)
    assert Player.objects.filter(group=group).count() == 4
