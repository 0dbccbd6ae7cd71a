"""The log-in limit holds against someone who varies what they control: a spoofed
X-Forwarded-For (there is no proxy in front unless PROXY_COUNT says so) or the htmx header.
The plain limit itself is tested in tests/accounts."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _attempt(client, password, n):
    return client.post(
        reverse("login"),
        {"username": "chu_ban", "password": password},
        headers={"X-Forwarded-For": f"203.0.113.{n}", "X-Real-IP": f"198.51.100.{n}"},
        REMOTE_ADDR="192.0.2.7",
    )


def test_a_spoofed_forwarded_for_header_does_not_reset_the_count(client, owner, settings):
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _attempt(client, "sai", n).status_code == 200
    response = _attempt(client, "sai", 99)
    assert response.status_code == 429
    assert f"{settings.AXES_COOLOFF_TIME.seconds // 60} phút" in response.content.decode()
    # The right password from "another address" is still refused during the cool-off.
    assert _attempt(client, "mat-khau-dai-123", 100).status_code == 429


def test_the_cool_off_page_is_served_to_htmx_too(client, owner, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        _attempt(client, "sai", n)
    response = client.post(
        reverse("login"),
        {"username": "chu_ban", "password": "sai"},
        headers={"HX-Request": "true"},
        REMOTE_ADDR="192.0.2.7",
    )
    assert response.status_code == 429
