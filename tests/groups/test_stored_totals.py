"""Each sitting's stored totals (``SittingTotal``, ``SittingFlow``) stay equal to its games,
payments and settlements after every kind of write, through the real services; and the check
(``ledger.totals.stored_totals_problems``) names a stored total changed behind the site's back.

What the rows should hold is counted here independently of ``ledger.totals.compute``: the
seats, payments and settlements are read one by one in Python.
"""

from __future__ import annotations

import datetime
import importlib
import io
import random
import uuid
from collections import defaultdict

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring import engine, services
from scoring.engine.samples import random_record
from scoring.ledger.totals import FIELDS, stored_totals_problems
from scoring.models import Game, Payment, Seat, Settlement, Sitting, SittingFlow, SittingTotal
from scoring.services import bulk_import
from tests.factories import (
    first_out,
    group_player,
    new_group,
    open_in_group,
    open_sitting,
    record,
    session,
    won,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 11, 3)
NAMES = ("An", "Bình", "Chi", "Dũng")


def _counted_by_hand(sitting: Sitting) -> tuple[dict, dict]:
    """(player -> FIELDS values, (payer, payee) -> amount), row by row."""
    rows: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(FIELDS, 0))
    flows: dict[tuple[int, int], int] = defaultdict(int)
    for seat in Seat.objects.filter(game__sitting=sitting).select_related("game"):
        if seat.game.status != Game.Status.ACTIVE:
            continue
        row = rows[seat.player_id]
        row["net"] += seat.net
        row["games"] += 1
        row["first"] += seat.place == 1
        row["cong"] += seat.is_cong
        row["thoi_games"] += seat.thoi > 0
        row["thoi"] += seat.thoi
    white: set[tuple[int, int]] = set()
    for p in Payment.objects.filter(game__sitting=sitting).select_related("game"):
        if p.game.status != Game.Status.ACTIVE or p.revision != p.game.revision:
            continue
        flows[p.payer_id, p.payee_id] += p.amount
        if p.reason == "chat":
            rows[p.payee_id]["chat_made"] += 1
            rows[p.payee_id]["chat_made_amount"] += p.amount
            rows[p.payer_id]["chat_suffered"] += 1
            rows[p.payer_id]["chat_suffered_amount"] += p.amount
        if p.reason == "toi_trang":
            white.add((p.game_id, p.payee_id))
    for _game, winner in white:
        rows[winner]["toi_trang"] += 1
    for s in Settlement.objects.filter(sitting=sitting, is_void=False):
        rows[s.payer_id]["paid"] += s.amount
        rows[s.payee_id]["received"] += s.amount
    return {pk: dict(row) for pk, row in rows.items()}, dict(flows)


def _stored(sitting: Sitting) -> tuple[dict, dict]:
    rows = {
        r["player_id"]: {f: r[f] for f in FIELDS}
        for r in SittingTotal.objects.filter(sitting=sitting).values("player_id", *FIELDS)
    }
    flows = {
        (r.payer_id, r.payee_id): r.amount for r in SittingFlow.objects.filter(sitting=sitting)
    }
    return rows, flows


def _agree(*groups) -> None:
    for sitting in Sitting.objects.all():
        assert _stored(sitting) == _counted_by_hand(sitting), sitting.name
    for group in groups:
        assert stored_totals_problems(group=group) == []


@pytest.fixture
def nights(owner):
    group = new_group(owner, "Thứ Sáu")
    first = open_in_group(group, owner, list(NAMES), day=DAY, name="Tối 1")
    won(first, owner, "An", {"Bình": 3, "Chi": 5, "Dũng": 7})
    second = open_in_group(
        group, owner, ["An", "Bình", "Chi", "Em"], day=DAY + datetime.timedelta(7), name="Tối 2"
    )
    won(second, owner, "Chi", {"An": 2, "Bình": 9, "Em": 1})
    return group, first, second


def test_every_kind_of_write_leaves_the_stored_totals_true(owner, nights):
    group, first, second = nights
    other = new_group(owner, "Chủ nhật")
    _agree(group, other)
    steps = [
        ("a game", lambda: record(second, owner, first_out("An", Bình=9, Chi=9, Em=9))),
        ("an edit", lambda: services.game_edit(
            game=first.games.get(number=1), user=owner,
            record=first_out("Chi", An=1, Bình=1, Dũng=1), expected_revision=1,
        )),
        ("a void", lambda: services.game_void(
            game=second.games.get(number=1), user=owner, reason="ghi nhầm")),
        ("a restore", lambda: services.game_restore(game=second.games.get(number=1), user=owner)),
        ("an undo", lambda: services.sitting_undo(sitting=second, user=owner)),
        ("a redo", lambda: services.sitting_redo(
            sitting=second, user=owner, undo_id=second.history.first().pk)),
        ("an undo of an edit", lambda: services.sitting_undo(sitting=first, user=owner)),
        ("a settlement", lambda: services.settlement_record(
            sitting=first, user=owner, payer=group_player(group, "Bình"),
            payee=group_player(group, "Chi"), amount=3000,
        )),
        ("a group-wide settlement", lambda: services.group_settlement_record(
            group=group, user=owner, payer=group_player(group, "Dũng"),
            payee=group_player(group, "Chi"), amount=2000, date=DAY + datetime.timedelta(3),
        )),
        ("a settlement voided", lambda: services.settlement_void(
            settlement=Settlement.objects.get(sitting=first), user=owner, reason="nhầm")),
        ("a period closed", lambda: services.period_close(
            group=group, user=owner, through=DAY + datetime.timedelta(4))),
        ("its undo", lambda: services.period_close_undo(group=group, user=owner)),
        ("a merge", lambda: services.group_player_merge(
            group=group, keep=group_player(group, "Dũng"), duplicate=group_player(group, "Em"),
            user=owner,
        )),
        ("a move", lambda: services.sitting_move(sitting=second, to_group=other, user=owner)),
        ("a game after the move", lambda: won(
            Sitting.objects.get(pk=second.pk), owner, "Bình", {"An": 4, "Chi": 6})),
        ("an import", lambda: bulk_import.session_import(
            owner=owner, data=session("cuoc", games=12), group=group)),
    ]  # fmt: skip
    for name, write in steps:
        write()
        try:
            _agree(group, other)
        except AssertionError as error:  # say which write left them wrong
            raise AssertionError(f"after {name}: {error}") from error
    assert SittingTotal.objects.filter(sitting__group=other).exists()


@pytest.mark.parametrize("preset", ["dem-la", "nhat-nhi-ba-bet", "cuoc"])
def test_random_nights_keep_the_stored_totals_true(owner, preset):
    """Random games of every kind the engine scores (chặt, cóng, thối, tới trắng…) and random
    edits, voids, undos and settlements, checked after each write."""
    rng = random.Random(f"totals-{preset}")
    sitting = open_sitting(owner, preset=preset, players=NAMES)
    rules = engine.PRESETS[preset]
    members = {p.name: p for p in sitting.members.all()}
    for _step in range(30):
        games = list(sitting.games.all())
        roll = rng.random()
        if not games or roll < 0.5:
            services.game_record(
                sitting=sitting, user=owner, record=random_record(rules, rng), token=uuid.uuid4()
            )
        elif roll < 0.65:
            game = rng.choice(games)
            services.game_edit(
                game=game, user=owner, record=random_record(rules, rng),
                expected_revision=game.revision,
            )  # fmt: skip
        elif roll < 0.75:
            services.game_void(game=rng.choice(games), user=owner, reason="thử")
        elif roll < 0.85:
            services.sitting_undo(sitting=sitting, user=owner)
        else:
            payer, payee = rng.sample(sorted(members), 2)
            services.settlement_record(
                sitting=sitting, user=owner, payer=members[payer], payee=members[payee],
                amount=rng.randint(1, 50) * 1000,
            )  # fmt: skip
        assert _stored(sitting) == _counted_by_hand(sitting)
    assert stored_totals_problems(sitting_ids=[sitting.pk]) == []


def test_a_stored_total_changed_behind_the_sites_back_is_named(owner, nights):
    group, first, second = nights
    assert stored_totals_problems(group=group) == []
    an = group_player(group, "An")
    SittingTotal.objects.filter(sitting=first, player=an).update(net=999_000)
    problems = stored_totals_problems(group=group)
    assert len(problems) == 1
    assert "Tối 1" in problems[0] and "An" in problems[0] and "999000" in problems[0]
    # A row gone, and a flow changed, are named too; the other sitting is still right.
    SittingTotal.objects.filter(sitting=second, player=an).delete()
    SittingFlow.objects.filter(sitting=first).update(amount=1)
    problems = stored_totals_problems(group=group)
    assert any("Tối 2" in p and "An" in p for p in problems)
    assert any("Tối 1" in p and "trả" in p for p in problems)
    assert stored_totals_problems(sitting_ids=[]) == []
    # Recounting the sittings puts them right.
    services.refresh_totals([first.pk, second.pk])
    assert stored_totals_problems(group=group) == []


def test_verify_ledger_names_a_stored_total_changed_behind_the_sites_back(owner, nights):
    group, first, _second = nights
    call_command("verify_ledger", "--group", str(group.pk), stdout=io.StringIO())
    an = group_player(group, "An")
    SittingTotal.objects.filter(sitting=first, player=an).update(net=999_000)
    for args in (["--group", str(group.pk)], ["--sitting", str(first.pk)]):
        with pytest.raises(CommandError, match="999000") as refused:
            call_command("verify_ledger", *args, stdout=io.StringIO())
        assert refused.value.returncode == 1
    errors = io.StringIO()
    with pytest.raises(CommandError, match="disagree"):
        call_command("verify_ledger", "--all", stdout=io.StringIO(), stderr=errors)
    assert "999000" in errors.getvalue() and "An" in errors.getvalue()


def test_the_check_wants_a_group_or_sittings():
    with pytest.raises(ValueError):
        stored_totals_problems()


def test_the_migration_fills_the_totals_of_what_was_recorded(owner, nights):
    """Migration 0015 fills the rows of every sitting recorded before it, by the function the
    services keep them with (run here on the current models)."""
    group, first, _second = nights
    services.settlement_record(
        sitting=first, user=owner, payer=group_player(group, "Bình"),
        payee=group_player(group, "An"), amount=4000,
    )  # fmt: skip
    SittingTotal.objects.all().delete()
    SittingFlow.objects.all().delete()
    assert len(stored_totals_problems(group=group)) > 8
    migration = importlib.import_module("scoring.migrations.0020_sitting_totals")
    migration.fill(django_apps, None)
    assert stored_totals_problems(group=group) == []
    _agree(group)
