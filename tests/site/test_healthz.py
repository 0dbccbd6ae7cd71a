from unittest import mock

import pytest
from django.db import OperationalError


@pytest.mark.django_db
def test_it_answers_200_with_the_database_reachable(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


@pytest.mark.django_db
def test_it_answers_503_when_the_database_is_not(client):
    with mock.patch("scoring.views.site.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


@pytest.mark.django_db
def test_it_refuses_post(client):
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def watched(settings):
    from scoring.ledger import health

    settings.HEALTH_BACKUP_MAX_HOURS = 26
    settings.HEALTH_BOOKS_MAX_HOURS = 26
    health.forget()
    yield
    health.forget()


def _at(name: str, hours_ago: float, problems: int = 0) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from scoring.ledger import health
    from scoring.models import Routine

    Routine.objects.update_or_create(
        name=name,
        defaults={"finished_at": timezone.now() - timedelta(hours=hours_ago), "problems": problems},
    )
    health.forget()


@pytest.mark.django_db
def test_it_says_stale_when_no_backup_was_ever_taken(client, watched):
    body = client.get("/healthz").json()
    assert body["status"] == "stale"
    assert body["backup"] == {"status": "never", "at": None, "age_hours": None, "problems": 0}


@pytest.mark.django_db
def test_it_says_ok_with_a_fresh_backup_and_check(client, watched):
    _at("backup", 3)
    _at("books", 2)
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["backup"]["status"] == "fresh"
    assert 2.9 < body["backup"]["age_hours"] < 3.1


@pytest.mark.django_db
def test_it_says_stale_past_the_age_and_stays_200(client, watched, settings):
    _at("backup", 27)
    _at("books", 2)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "stale"
    assert response.json()["backup"]["status"] == "stale"
    settings.HEALTH_BACKUP_MAX_HOURS = 30
    from scoring.ledger import health

    health.forget()
    assert client.get("/healthz").json()["status"] == "ok"


@pytest.mark.django_db
def test_it_says_when_the_last_check_found_books_disagreeing(client, watched):
    _at("backup", 1)
    _at("books", 1, problems=2)
    body = client.get("/healthz").json()
    assert body["status"] == "stale"
    assert body["books"]["problems"] == 2


@pytest.mark.django_db
def test_it_reads_the_routines_once_per_few_seconds(client, watched, django_assert_num_queries):
    _at("backup", 1)
    _at("books", 1)
    client.get("/healthz")
    with django_assert_num_queries(1):  # SELECT 1: the routines are kept in memory
        client.get("/healthz")


@pytest.mark.django_db(transaction=True)
def test_backup_and_a_whole_check_note_their_time(tmp_path, watched, client):
    from django.core.management import call_command

    call_command("backup", str(tmp_path / "b.tar.gz"))
    call_command("verify_ledger", all=True)
    from scoring.ledger import health

    health.forget()
    body = client.get("/healthz").json()
    assert (body["backup"]["status"], body["books"]["status"]) == ("fresh", "fresh")
