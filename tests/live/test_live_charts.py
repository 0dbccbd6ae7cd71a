"""The running-balance chart of a sitting: empty, one game, a thousand games."""

import time

import pytest

from scoring import ledger
from scoring.ledger import charts
from tests.factories import FIRST, bulk_games, live_url, record

pytestmark = pytest.mark.django_db


def test_it_draws_an_empty_chart_before_the_first_game(client, owner, sitting):
    from scoring import services

    services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    labels, series = ledger.running_balances(sitting)
    assert labels == []
    assert series == {"An": [], "Bình": [], "Chi": [], "Dũng": []}
    html = client.get(live_url(sitting)).content.decode()
    assert 'class="chart line-chart"' in html and "chart-empty" in html


def test_it_draws_one_point_per_player_after_one_game(client, live_sitting):
    labels, series = ledger.running_balances(live_sitting)
    assert labels == ["1"]
    assert series == {"An": [-75_000], "Bình": [245_000], "Chi": [-40_000], "Dũng": [-130_000]}
    html = client.get(live_url(live_sitting)).content.decode()
    assert html.count('class="chart-series chart-series-') == 4
    assert "chart-empty" not in html


def test_it_skips_voided_games_and_carries_a_sat_out_total(owner, sitting):
    from scoring import services

    services.sitting_set_members(
        sitting=sitting, user=owner, player_names=["An", "Bình", "Chi", "Dũng", "Em"]
    )
    record(sitting, owner, FIRST)
    void = record(sitting, owner, FIRST)
    services.game_void(game=void, user=owner, reason="nhầm")
    record(sitting, owner, FIRST)
    labels, series = ledger.running_balances(sitting)
    assert labels == ["1", "3"]
    assert series["Bình"] == [245_000, 490_000]
    assert series["Em"] == [0, 0]


def test_it_draws_a_thousand_games_quickly_in_two_queries(
    client, owner, live_sitting, django_assert_num_queries
):
    bulk_games(live_sitting, owner, 999)
    with django_assert_num_queries(2):
        labels, series = ledger.running_balances(live_sitting)
    assert len(labels) == 1000
    assert all(len(values) == 1000 for values in series.values())
    assert sum(values[-1] for values in series.values()) == 0
    svg = charts.line_chart(series, x_labels=labels, title="t")
    assert svg.count("<polyline") == 4
    assert len(svg) < 40_000  # downsampled: a phone does not get 4 000 points
    start = time.perf_counter()
    response = client.get(live_url(live_sitting))
    assert response.status_code == 200
    assert "1000 ván" in response.content.decode()
    assert time.perf_counter() - start < 2


def test_it_reads_a_long_night_in_the_same_number_of_queries(
    client, owner, live_sitting, django_assert_max_num_queries
):
    headers = {"HX-Request": "true"}
    with django_assert_max_num_queries(30) as short:
        client.get(live_url(live_sitting), headers=headers)
    bulk_games(live_sitting, owner, 200)
    with django_assert_max_num_queries(30) as long:
        client.get(live_url(live_sitting), headers=headers)
    assert len(long.captured_queries) == len(short.captured_queries)
