import uuid

import pytest
from django.db.models import Sum

from scoring import engine, ledger, services
from scoring.models import Game, HistoryEntry, Payment, Seat
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db


def test_it_records_the_rules_md_worked_example(owner):
    sitting = open_sitting(owner)
    rec = first_out("Bình", An=5, Chi=8, Dũng=13)
    rec["hands"]["An"]["heo"] = ["2H"]
    game = record(sitting, owner, rec)
    nets = {s.player.name: s.net for s in game.seats.select_related("player")}
    assert nets == {"Bình": 245000, "An": -75000, "Chi": -40000, "Dũng": -130000}
    assert sum(nets.values()) == 0
    assert game.number == 1 and game.revision == 1
    assert Payment.objects.filter(game=game).aggregate(t=Sum("amount"))["t"] == 245000
    assert HistoryEntry.objects.filter(game=game, action="recorded").count() == 1


def test_it_numbers_games_in_order(owner):
    sitting = open_sitting(owner)
    numbers = [record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3)).number for _ in "abc"]
    assert numbers == [1, 2, 3]


def test_it_records_a_retried_submission_once(owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    rec = first_out("An", Bình=1, Chi=2, Dũng=3)
    first, created = services.game_record(sitting=sitting, user=owner, record=rec, token=token)
    again, created_again = services.game_record(
        sitting=sitting, user=owner, record=rec, token=token
    )
    assert created and not created_again
    assert first.pk == again.pk
    assert Game.objects.count() == 1


def test_it_refuses_the_same_token_with_another_record(owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    services.game_record(
        sitting=sitting, user=owner, record=first_out("An", Bình=1, Chi=2, Dũng=3), token=token
    )
    with pytest.raises(services.Conflict):
        services.game_record(
            sitting=sitting,
            user=owner,
            record=first_out("Chi", An=1, Bình=2, Dũng=3),
            token=token,
        )
    assert Game.objects.count() == 1


def test_it_saves_nothing_for_a_bad_record(owner):
    sitting = open_sitting(owner)
    with pytest.raises(engine.InvalidRecord) as error:
        record(
            sitting,
            owner,
            {"players": ["An", "Bình"], "finish": ["An"], "hands": {"An": {"cards": 3}}},
        )
    assert any(p.path.startswith("hands.An") for p in error.value.problems)
    assert not Game.objects.exists() and not Payment.objects.exists()


def test_it_refuses_a_player_who_is_not_a_member(owner):
    sitting = open_sitting(owner)
    with pytest.raises(engine.InvalidRecord) as error:
        record(
            sitting,
            owner,
            {"players": ["An", "Zed"], "finish": ["An"], "hands": {"Zed": {"cards": 3}}},
        )
    assert [p.path for p in error.value.problems] == ["players[1]"]


def test_it_keeps_every_revision_and_counts_only_the_latest(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game, user=owner, record=first_out("An", Bình=4, Chi=2, Dũng=3), expected_revision=1
    )
    game.refresh_from_db()
    assert game.revision == 2
    assert Payment.objects.filter(game=game, revision=1).count() == 3
    totals = ledger.game_totals(sitting)
    by_name = {s.player.name: totals[s.player_id] for s in game.seats.select_related("player")}
    assert by_name == {"An": 45000, "Bình": -20000, "Chi": -10000, "Dũng": -15000}
    edit = HistoryEntry.objects.get(game=game, action="edited")
    assert edit.before["hands"]["Bình"]["cards"] == 1
    assert edit.after["hands"]["Bình"]["cards"] == 4


def test_it_refuses_an_edit_made_from_an_old_revision(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game, user=owner, record=first_out("An", Bình=4, Chi=2, Dũng=3), expected_revision=1
    )
    with pytest.raises(services.Conflict) as error:
        services.game_edit(
            game=game,
            user=owner,
            record=first_out("An", Bình=9, Chi=2, Dũng=3),
            expected_revision=1,
        )
    assert error.value.game.revision == 2
    game.refresh_from_db()
    assert game.record["hands"]["Bình"]["cards"] == 4


def test_it_treats_a_retried_edit_as_done(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    new = first_out("An", Bình=4, Chi=2, Dũng=3)
    services.game_edit(game=game, user=owner, record=new, expected_revision=1)
    again = services.game_edit(game=game, user=owner, record=new, expected_revision=1)
    assert again.game.revision == 2 and again.entry is None


def test_it_voids_and_restores_a_game(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_void(game=game, user=owner, reason="Ghi nhầm bàn")
    assert ledger.game_totals(sitting) == {}
    with pytest.raises(services.InvalidInput):
        services.game_void(game=game, user=owner, reason="  ")
    services.game_restore(game=game, user=owner)
    assert sum(ledger.game_totals(sitting).values()) == 0
    assert ledger.game_totals(sitting)
    actions = list(
        HistoryEntry.objects.filter(game=game).order_by("at", "id").values_list("action", flat=True)
    )
    assert actions == ["recorded", "voided", "restored"]


def test_undo_walks_back_one_change_at_a_time(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game, user=owner, record=first_out("An", Bình=4, Chi=2, Dũng=3), expected_revision=1
    )
    services.sitting_undo(sitting=sitting, user=owner)  # reverts the edit as revision 3
    game.refresh_from_db()
    assert game.revision == 3 and game.record["hands"]["Bình"]["cards"] == 1
    services.sitting_undo(sitting=sitting, user=owner)  # voids the recorded game
    game.refresh_from_db()
    assert game.is_void
    assert services.sitting_undo(sitting=sitting, user=owner) is None


def test_totals_equal_the_sum_of_seats_and_settlements(owner):
    sitting = open_sitting(owner)
    for winner in ["An", "Bình", "Chi"]:
        others = {n: 2 for n in ["An", "Bình", "Chi", "Dũng"] if n != winner}
        record(sitting, owner, first_out(winner, **others))
    members = {m.player.name: m.player for m in sitting.memberships.select_related("player")}
    services.settlement_record(
        sitting=sitting, user=owner, payer=members["Dũng"], payee=members["An"], amount=10000
    )
    balances = ledger.balances(sitting)
    assert sum(balances.values()) == 0
    assert balances[members["Dũng"].pk] == -30000 + 10000
    seat_sum = Seat.objects.filter(player=members["An"]).aggregate(t=Sum("net"))["t"]
    assert balances[members["An"].pk] == seat_sum - 10000


def test_it_refuses_a_stake_that_makes_halves_fractional(owner):
    with pytest.raises(services.InvalidInput) as error:
        open_sitting(owner, preset="cuoc", stake=5001)
    assert error.value.field == "stake"


def test_a_member_who_played_cannot_be_removed(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    with pytest.raises(services.InvalidInput):
        services.sitting_set_members(sitting=sitting, user=owner, player_names=["An", "Bình"])
    services.sitting_set_members(
        sitting=sitting, user=owner, player_names=["An", "Bình", "Chi", "Dũng", "Em"]
    )
    assert sitting.memberships.count() == 5


def test_an_undo_that_takes_the_leader_out_of_the_game_forgets_who_led(owner):
    # The leader is said beside the record, not in it: an undo restores the record only, so
    # the leader it kept may no longer be one of the game's players.
    sitting = open_sitting(owner, players=["An", "Bình", "Chi", "Dũng", "Em"])
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game,
        user=owner,
        record=first_out("Em", Bình=1, Chi=2, Dũng=3),
        expected_revision=1,
        led_by="Em",
    )
    game.refresh_from_db()
    assert game.led_by.name == "Em"
    services.sitting_undo(sitting=sitting, user=owner)
    game.refresh_from_db()
    assert game.record["players"] == ["An", "Bình", "Chi", "Dũng"]
    assert game.led_by is None
    # Em sat at no game, so can leave the table: no game is left naming a non-member.
    services.sitting_set_members(
        sitting=sitting, user=owner, player_names=["An", "Bình", "Chi", "Dũng"]
    )
    assert not Game.objects.filter(led_by__name="Em").exists()


def test_an_edit_that_keeps_the_leader_in_the_game_keeps_who_led(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    services.game_edit(
        game=game,
        user=owner,
        record=first_out("An", Bình=4, Chi=2, Dũng=3),
        expected_revision=1,
        led_by="Chi",
    )
    services.sitting_undo(sitting=sitting, user=owner)
    game.refresh_from_db()
    assert game.revision == 3 and game.led_by.name == "Chi"
