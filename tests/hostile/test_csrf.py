"""Every URL of the site refuses a POST that carries no CSRF token (403), logged in or not.

The routes come from the resolver: a view someone marks ``csrf_exempt`` later fails here.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.hostile.conftest import Table, all_routes

pytestmark = pytest.mark.django_db

# Arguments of routes that are not the table's (Django's password reset link).
OTHER_ARGS = {"uidb64": "MQ", "token": "set-password"}


def _url(table: Table, route) -> str:
    if route.route.startswith("accounts/reset/"):
        return reverse(route.name, kwargs={k: OTHER_ARGS[k] for k in route.args})
    return reverse(route.name, kwargs=table.kwargs(route.route, list(route.args)))


def _sweep(client: Client, table: Table, headers: dict[str, str] | None = None):
    refused, accepted = 0, []
    for route in all_routes():
        response = client.post(
            _url(table, route), {"action": "save", "language": "en"}, headers=headers or {}
        )
        if response.status_code == 403:
            refused += 1
        else:
            accepted.append((route.route, response.status_code))
    assert refused + len(accepted) >= 40, "the resolver gave the sweep every page of the site"
    return refused, accepted


def test_every_url_refuses_a_post_without_a_csrf_token_from_a_logged_in_user(table: Table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(table.user)
    client.get("/")  # the CSRF cookie is set; only the token is missing
    assert "csrftoken" in client.cookies
    refused, accepted = _sweep(client, table)
    assert accepted == []
    assert refused >= 40


def test_every_url_refuses_a_post_with_a_wrong_htmx_csrf_header(table: Table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(table.user)
    client.get("/")
    _refused, accepted = _sweep(client, table, {"HX-Request": "true", "X-CSRFToken": "x" * 32})
    assert accepted == []


def test_every_url_refuses_an_anonymous_post_without_a_csrf_token(table: Table):
    _refused, accepted = _sweep(Client(enforce_csrf_checks=True), table)
    assert accepted == []


def test_the_admin_log_in_refuses_a_post_without_a_csrf_token(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
