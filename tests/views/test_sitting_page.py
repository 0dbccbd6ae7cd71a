import uuid

import pytest
from django.test import Client

from scoring.models import Game
from tests.factories import bulk_games, first_out, open_sitting, record

pytestmark = pytest.mark.django_db


def test_it_shows_totals_games_and_the_next_leader(owner_client, owner):
    sitting = open_sitting(owner)
    rec = first_out("Bình", An=5, Chi=8, Dũng=13)
    rec["hands"]["An"]["heo"] = ["2H"]
    record(sitting, owner, rec)
    response = owner_client.get(f"/s/{sitting.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "245.000\xa0₫" in html and "−130.000\xa0₫" in html
    assert "Ván tới: Bình đi trước" in html
    assert "cóng: 13 lá ×2" in html
    assert 'id="record-form"' in html


def test_it_pages_older_games_as_a_fragment(owner_client, owner):
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, 25)
    response = owner_client.get(
        f"/s/{sitting.pk}/?part=games&page=3", headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="games"')
    assert "<html" not in html
    assert 'id="game-5"' in html and 'id="game-25"' not in html


def test_it_is_404_for_strangers(stranger_client, owner):
    sitting = open_sitting(owner)
    assert stranger_client.get(f"/s/{sitting.pk}/").status_code == 404


def test_it_sends_anonymous_visitors_to_log_in(client, owner):
    sitting = open_sitting(owner)
    response = client.get(f"/s/{sitting.pk}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_refuses_post(owner_client, owner):
    sitting = open_sitting(owner)
    assert owner_client.post(f"/s/{sitting.pk}/").status_code == 405


def test_a_co_scorekeeper_sees_the_sitting(stranger_client, stranger, owner):
    sitting = open_sitting(owner)
    sitting.scorekeepers.add(stranger)
    assert stranger_client.get(f"/s/{sitting.pk}/").status_code == 200


@pytest.mark.parametrize("games", [10, 1000])
def test_the_page_runs_a_constant_number_of_queries(
    owner_client, owner, games, django_assert_max_num_queries
):
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, games)
    owner_client.get(f"/s/{sitting.pk}/")  # warm the session
    with django_assert_max_num_queries(16) as ctx:
        assert owner_client.get(f"/s/{sitting.pk}/").status_code == 200
    # Same count at 10 and 1 000 games: remembered for the comparison below.
    _COUNTS[games] = len(ctx.captured_queries)
    if len(_COUNTS) == 2:
        assert _COUNTS[10] == _COUNTS[1000]


_COUNTS: dict[int, int] = {}


@pytest.mark.parametrize("games", [10, 1000])
def test_recording_runs_a_constant_number_of_queries(
    owner_client, owner, games, django_assert_max_num_queries
):
    sitting = open_sitting(owner)
    bulk_games(sitting, owner, games)
    data = _form(winner="An", cards={1: 1, 2: 2, 3: 3})
    with django_assert_max_num_queries(40) as ctx:
        response = owner_client.post(
            f"/s/{sitting.pk}/games/", data, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    assert Game.objects.filter(sitting=sitting).count() == games + 1
    _REC[games] = len(ctx.captured_queries)
    if len(_REC) == 2:
        assert _REC[10] == _REC[1000]


_REC: dict[int, int] = {}


def _form(winner, cards, played=("An", "Bình", "Chi", "Dũng"), token=None, **extra):
    data = {
        "played": list(played),
        "winner": winner,
        "action": "save",
        "token": str(token or uuid.uuid4()),
    }
    for index, n in cards.items():
        data[f"cards_{index}"] = str(n)
    data.update(extra)
    return data


def test_csrf_is_enforced_on_recording(owner):
    sitting = open_sitting(owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(f"/s/{sitting.pk}/games/", _form("An", {1: 1, 2: 2, 3: 3}))
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_the_running_balance_chart_loads_as_a_fragment(owner_client, owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    page = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert f'hx-get="/s/{sitting.pk}/?part=chart"' in page
    assert "<svg" not in page.split('id="chart-card"')[1]  # not drawn until opened
    response = owner_client.get(f"/s/{sitting.pk}/?part=chart", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.startswith('<div id="chart" class="chart"><svg')
    assert "Dũng" in html
