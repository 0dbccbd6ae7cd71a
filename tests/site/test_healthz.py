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
