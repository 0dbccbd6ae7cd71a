"""The players list and one player's page: statement, statistics, charts."""

import time

import pytest

from scoring import services_players
from scoring.models import Player
from tests.factories import bulk_games

pytestmark = pytest.mark.django_db


def _pk(owner, name):
    return Player.objects.get(owner=owner, name=name).pk


def test_it_lists_the_owners_players_with_links(owner_client, owner, night):
    html = owner_client.get("/players/").content.decode()
    for name in ("An", "Bình", "Chi", "Dũng", "Em"):
        assert f'href="/players/{_pk(owner, name)}/">{name}</a>' in html


def test_it_leaves_merged_records_off_the_list(owner_client, owner, night):
    em = Player.objects.get(owner=owner, name="Em")
    binh = Player.objects.get(owner=owner, name="Bình")
    services_players.player_merge(keep=binh, duplicate=em, user=owner)
    html = owner_client.get("/players/").content.decode()
    assert f"/players/{em.pk}/" not in html


def test_it_shows_nothing_of_other_scorekeepers(stranger_client, night):
    html = stranger_client.get("/players/").content.decode()
    assert "Bình" not in html and "Chưa có người chơi nào" in html


def test_it_shows_a_players_statement_stats_and_charts(owner_client, owner, night):
    first, second = night
    html = owner_client.get(f"/players/{_pk(owner, 'An')}/").content.decode()
    assert f'href="/s/{first.pk}/">Tối thứ Bảy</a>' in html
    assert f'href="/s/{second.pk}/">Chủ nhật</a>' in html
    assert html.count('class="chart line-chart"') == 1
    assert html.count('class="chart bar-chart"') == 2
    assert "Bị thối" in html and "100k" in html


def test_it_draws_empty_charts_for_a_player_who_never_played(owner_client, owner, night):
    from scoring import services

    first, _second = night
    services.sitting_set_members(
        sitting=first, user=owner, player_names=["An", "Bình", "Chi", "Dũng", "Giang"]
    )
    html = owner_client.get(f"/players/{_pk(owner, 'Giang')}/").content.decode()
    assert html.count("chart-empty") == 3


def test_it_sends_a_merged_record_to_the_one_it_was_merged_into(owner_client, owner, night):
    em = Player.objects.get(owner=owner, name="Em")
    binh = Player.objects.get(owner=owner, name="Bình")
    services_players.player_merge(keep=binh, duplicate=em, user=owner)
    response = owner_client.get(f"/players/{em.pk}/")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/players/{binh.pk}/"


def test_it_is_404_to_a_stranger_and_to_a_missing_player(stranger_client, owner, night):
    pk = _pk(owner, "An")
    for url in (f"/players/{pk}/", f"/players/{pk}/merge/", f"/players/{pk}/bank/"):
        assert stranger_client.get(url).status_code == 404
    for url in (f"/players/{pk}/merge/", f"/players/{pk}/bank/"):
        assert stranger_client.post(url, {"duplicate": pk, "confirm": "on"}).status_code == 404
    assert stranger_client.get("/players/999999/").status_code == 404


def test_it_sends_anonymous_visitors_to_log_in(client, owner, night):
    pk = _pk(owner, "An")
    for url in ("/players/", f"/players/{pk}/", f"/players/{pk}/merge/", f"/players/{pk}/bank/"):
        response = client.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response.headers["Location"]


def test_it_refuses_other_methods(owner_client, owner, night):
    pk = _pk(owner, "An")
    assert owner_client.post("/players/").status_code == 405
    assert owner_client.post(f"/players/{pk}/").status_code == 405
    assert owner_client.put(f"/players/{pk}/merge/").status_code == 405
    assert owner_client.delete(f"/players/{pk}/bank/").status_code == 405


def test_it_reads_a_long_career_in_the_same_number_of_queries(
    owner_client, owner, night, django_assert_max_num_queries
):
    first, _second = night
    url = f"/players/{_pk(owner, 'An')}/"
    with django_assert_max_num_queries(40) as short:
        owner_client.get(url)
    bulk_games(first, owner, 1000)
    start = time.perf_counter()
    with django_assert_max_num_queries(40) as long:
        response = owner_client.get(url)
    assert time.perf_counter() - start < 2
    assert len(long.captured_queries) == len(short.captured_queries)
    assert "1003" in response.content.decode()  # games played
