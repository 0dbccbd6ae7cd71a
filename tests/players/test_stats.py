"""Per-player statistics: games, places, cóng, thối, chặt and money, across sittings."""

from datetime import date

import pytest

from scoring import ledger
from scoring.ledger import stats
from scoring.models import Player
from tests.factories import CHOPPED, FIRST, open_sitting, record

pytestmark = pytest.mark.django_db


def _player(owner, name):
    return Player.objects.get(owner=owner, name=name)


def test_it_counts_games_wins_cong_and_money(owner, night):
    binh = stats.player_stats(_player(owner, "Bình"))
    assert (binh.games, binh.wins, binh.win_percent, binh.cong) == (2, 1, 50, 0)
    assert binh.net == 245_000 - 35_000
    dung = stats.player_stats(_player(owner, "Dũng"))
    assert (dung.games, dung.wins, dung.cong) == (3, 0, 2)


def test_it_counts_thoi_held_at_the_end_even_inside_a_card_payment(owner, night):
    # dem-la pays "5 lá + thối 2♥" as one payment; the 2♥ is still 10 lá of thối.
    an = stats.player_stats(_player(owner, "An"))
    assert (an.thoi_games, an.thoi_paid) == (2, 2 * 10 * 5000)
    assert stats.player_stats(_player(owner, "Chi")).thoi_games == 0


def test_it_counts_chat_won_and_lost_by_the_last_chopper_and_chopped(owner, night):
    dung = stats.player_stats(_player(owner, "Dũng"))
    chi = stats.player_stats(_player(owner, "Chi"))
    an = stats.player_stats(_player(owner, "An"))
    assert (dung.chat_won_count, dung.chat_won) == (1, 100_000)
    assert (chi.chat_lost_count, chi.chat_lost) == (1, 100_000)
    assert (an.chat_won_count, an.chat_lost_count) == (0, 0)
    assert chi.by_reason["chat"] == -100_000 and dung.by_reason["chat"] == 100_000


def test_it_counts_places_and_thoi_payments_in_placement_games(owner):
    sitting = open_sitting(
        owner,
        name="Nhất nhì",
        day=date(2025, 4, 1),
        players=["An", "Bình", "Chi", "Dũng"],
        preset="nhat-nhi-ba-bet",
        stake=1000,
    )
    # docs/rules.md#paying-a-1st2nd3rdlast-game example: order B, A, D, C; C ends holding 2♦ and 2♠.
    record(
        sitting,
        owner,
        {
            "players": ["An", "Bình", "Chi", "Dũng"],
            "finish": ["Bình", "An", "Dũng", "Chi"],
            "hands": {"Chi": {"cards": 4, "heo": ["2D", "2S"]}},
        },
    )
    chi = stats.player_stats(_player(owner, "Chi"))
    assert chi.places == {1: 0, 2: 0, 3: 0, 4: 1}
    assert (chi.thoi_games, chi.thoi_paid) == (1, 3 * 1000)
    assert chi.by_reason["thoi"] == -3000
    assert stats.player_stats(_player(owner, "An")).places[2] == 1


def test_it_leaves_out_voided_games(owner, night):
    from scoring import services

    first, _second = night
    services.game_void(game=first.games.get(number=1), user=owner, reason="nhầm")
    binh = stats.player_stats(_player(owner, "Bình"))
    assert (binh.games, binh.wins, binh.net) == (1, 0, -35_000)
    assert stats.player_stats(_player(owner, "An")).thoi_games == 1


def test_it_lists_each_sitting_with_its_net_and_what_is_left_after_settling(owner, night):
    from scoring import services

    first, _second = night
    an, chi = _player(owner, "An"), _player(owner, "Chi")
    services.settlement_record(sitting=first, user=owner, payer=an, payee=chi, amount=50_000)
    lines = ledger.player_lines([an.pk])
    assert [(line.name, line.games, line.net, line.balance) for line in lines] == [
        ("Chủ nhật", 1, -75_000, -75_000),
        ("Tối thứ Bảy", 2, -90_000, -40_000),
    ]
    assert stats.money_over_time(lines) == (["01/03", "02/03"], [-90_000, -165_000])


def test_it_reads_a_player_in_a_fixed_number_of_queries(owner, night, django_assert_num_queries):
    first, _second = night
    an = _player(owner, "An")
    with django_assert_num_queries(3):
        stats.player_stats(an)
    with django_assert_num_queries(3):
        ledger.player_lines([an.pk])
    for _ in range(5):
        record(first, owner, FIRST)
        record(first, owner, CHOPPED)
    with django_assert_num_queries(3):
        stats.player_stats(an)
    with django_assert_num_queries(3):
        ledger.player_lines([an.pk])


def test_it_summarises_everyone_of_one_scorekeeper(owner, stranger, night):
    open_sitting(stranger, name="Bàn người khác", day=date(2025, 3, 3), players=["An", "Zed"])
    lines = {line.player.name: line for line in stats.players_summary(owner)}
    assert set(lines) == {"An", "Bình", "Chi", "Dũng", "Em"}
    assert (lines["An"].sittings, lines["An"].games, lines["An"].net) == (2, 3, -165_000)
    assert (lines["Em"].sittings, lines["Em"].games) == (1, 1)
