"""Every page that names someone's object answers another user exactly as if the object did
not exist, and sends anonymous visitors to log in. The routes come from the resolver, so a
page added later is swept without anyone remembering to add it here."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Player
from tests.hostile.conftest import Table, owned_routes, route_names

pytestmark = pytest.mark.django_db

MISSING = 987_654
POST_DATA = {"action": "save", "reason": "x", "confirm": "on", "amount": "1000"}
# The read-only live link and its book (for witnesses): whoever has the token may watch.
PUBLIC = {"live", "live_book"}


def _missing_kwargs(kwargs: dict[str, object]) -> dict[str, object]:
    return {k: (MISSING if isinstance(v, int) else "A" * 43) for k, v in kwargs.items()}


def _answers(client: Client, url: str) -> dict[str, int]:
    return {
        "GET": client.get(url).status_code,
        "POST": client.post(url, POST_DATA).status_code,
    }


def test_every_owned_page_is_a_404_to_another_user_as_if_it_did_not_exist(
    table: Table, stranger_client
):
    problems = []
    swept = 0
    for route in owned_routes():
        if route.name in PUBLIC:
            continue
        kwargs = table.kwargs(route.route, list(route.args))
        real = _answers(stranger_client, reverse(route.name, kwargs=kwargs))
        missing = _answers(stranger_client, reverse(route.name, kwargs=_missing_kwargs(kwargs)))
        swept += 1
        for method, status in real.items():
            # 405 is about the method, never the object (the missing one gets it too).
            if status not in (404, 405) or status != missing[method]:
                problems.append((route.route, method, status, missing[method]))
    assert swept >= 10, "the sweep found the sitting and game pages at least"
    assert problems == []


def test_a_users_own_sitting_does_not_open_another_users_objects(
    table: Table, stranger_table: Table, stranger_client
):
    """IDs mixed: the stranger's own sitting in the URL, the owner's settlement or players
    after it. Each page must look the object up inside the sitting, not by id alone."""
    problems = []
    named = set()
    for route in owned_routes():
        if route.name in PUBLIC or not route.route.startswith("s/") or len(route.args) < 2:
            continue
        kwargs = table.kwargs(route.route, list(route.args))
        kwargs["pk"] = stranger_table.sitting.pk
        if "number" in kwargs:
            continue  # a game number only means something inside its own sitting
        named.update(kwargs)
        url = reverse(route.name, kwargs=kwargs)
        for method, status in _answers(stranger_client, url).items():
            if status not in (404, 405):
                problems.append((url, method, status))
    # The sweep reached pages naming a settlement and pages naming players, as it claims.
    assert {"settlement_id", "player_id"} <= named, named
    assert problems == []


def test_every_owned_page_sends_an_anonymous_visitor_to_log_in(table: Table, client):
    problems = []
    swept = 0
    for route in owned_routes():
        if route.name in PUBLIC:
            continue
        swept += 1
        url = reverse(route.name, kwargs=table.kwargs(route.route, list(route.args)))
        for method in ("GET", "POST"):
            response = client.get(url) if method == "GET" else client.post(url, POST_DATA)
            to_login = response.status_code == 302 and response["Location"].startswith(
                reverse("login")
            )
            if not (to_login or response.status_code in (404, 405)):
                problems.append((route.route, method, response.status_code))
    assert swept >= 10, "the sweep found the sitting and game pages at least"
    assert problems == []


def test_the_live_link_opens_only_with_its_token_and_only_for_reading(table: Table, client):
    url = reverse("live", args=[table.token])
    assert client.get(url).status_code == 200
    assert client.get(reverse("live", args=["B" * 43])).status_code == 404
    assert client.post(url, POST_DATA).status_code == 405
    services.sitting_live_link(sitting=table.sitting, user=table.user, action="revoke")
    assert client.get(url).status_code == 404


def test_a_player_of_another_user_cannot_be_merged_into_ones_own(
    table: Table, stranger_table: Table, stranger_client
):
    victim = table.players[0]
    url = reverse("player_merge", args=[stranger_table.players[0].pk])
    response = stranger_client.post(url, {"duplicate": victim.pk, "confirm": "on"})
    assert response.status_code in (200, 422)
    victim.refresh_from_db()
    assert victim.merged_into is None
    assert Player.objects.filter(merged_into__isnull=False).count() == 0


def test_a_co_scorekeeper_cannot_reach_the_owners_own_pages(table: Table, other_user):
    services.sitting_share(sitting=table.sitting, user=table.user, invitee=other_user)
    client = Client()
    client.force_login(other_user)
    pk = table.sitting.pk
    assert client.get(reverse("sitting", args=[pk])).status_code == 200
    owners_pages = {"sitting_share", "sitting_live"}
    assert owners_pages - route_names() == set(), "a page was renamed: sweep its new name"
    for name in sorted(owners_pages):
        assert client.get(reverse(name, args=[pk])).status_code == 404
        assert client.post(reverse(name, args=[pk]), {"action": "revoke"}).status_code == 404


def test_the_owner_opens_every_swept_page_so_the_404s_above_mean_something(
    table: Table, owner_client
):
    problems = []
    routes = owned_routes()
    for route in routes:
        url = reverse(route.name, kwargs=table.kwargs(route.route, list(route.args)))
        status = owner_client.get(url).status_code
        if status not in (200, 405):
            problems.append((route.route, status))
    assert len(routes) >= 10, "the sweep found the sitting and game pages at least"
    assert problems == []
