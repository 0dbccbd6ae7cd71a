"""Opening the live page: no SQL while the version holds (the board and the sitting come from
the cache), and each page rendered for its own request: its CSP nonce, CSRF token and user."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SECOND, live_url, record

pytestmark = pytest.mark.django_db

NONCE = re.compile(r'nonce="([^"]+)"')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _open(client, sitting):
    response = client.get(live_url(sitting))
    assert response.status_code == 200
    return response, response.content.decode()


def test_a_second_phone_opens_the_page_without_any_query(live_sitting, django_assert_num_queries):
    _open(Client(), live_sitting)
    with django_assert_num_queries(0):
        _open(Client(), live_sitting)


def test_each_phone_gets_its_own_nonce_matching_its_policy(live_sitting):
    first, first_text = _open(Client(), live_sitting)
    second, second_text = _open(Client(), live_sitting)
    nonces = []
    for response, text in ((first, first_text), (second, second_text)):
        in_page = set(NONCE.findall(text))
        assert len(in_page) == 1, in_page
        nonce = in_page.pop()
        assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
        nonces.append(nonce)
    assert nonces[0] != nonces[1]
    # Apart from the nonce and the CSRF token, the two pages are the same page.
    strip = lambda t: CSRF_INPUT.sub("", NONCE.sub("", t)).split("<main")[1]  # noqa: E731
    assert strip(first_text) == strip(second_text)


def test_the_language_switch_on_a_shared_page_passes_the_csrf_check(live_sitting):
    client = Client(enforce_csrf_checks=True)
    _response, text = _open(client, live_sitting)
    token = CSRF_INPUT.search(text).group(1)
    assert "csrftoken" in client.cookies
    switched = client.post(
        reverse("set_language"),
        {"csrfmiddlewaretoken": token, "language": "en", "next": live_url(live_sitting)},
    )
    assert switched.status_code == 302
    _response, english = _open(client, live_sitting)
    assert 'lang="en"' in english


def test_a_new_game_shows_on_the_next_opening(owner, live_sitting):
    _open(Client(), live_sitting)
    record(live_sitting, owner, SECOND)
    _response, text = _open(Client(), live_sitting)
    assert "Ván 2" in text


def test_a_logged_in_scorekeeper_gets_a_page_of_their_own(owner, live_sitting):
    _open(Client(), live_sitting)  # the shared copy exists
    client = Client()
    client.force_login(owner)
    _response, text = _open(client, live_sitting)
    assert owner.get_username()[:12] in text
    _response, anonymous = _open(Client(), live_sitting)
    assert owner.get_username()[:12] not in anonymous
