"""The log-in limit holds against someone who varies what they control: a spoofed
X-Forwarded-For (there is no proxy in front unless BEHIND_PROXY says so) or the htmx header.
The plain limit itself is tested in tests/accounts; through the real nginx in
tests/reliability/test_proxy_login_limit.py."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.accounts.test_password_reset import _mails_sent, _reset_link

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


def _through_proxy(client, password, client_address, spoofed=""):
    # What nginx passes on: whatever the client sent, then the address it connected from.
    return client.post(
        reverse("login"),
        {"username": "chu_ban", "password": password},
        headers={"X-Forwarded-For": f"{spoofed}{client_address}"},
        REMOTE_ADDR="10.0.0.5",
    )


def test_behind_the_proxy_a_stranger_cannot_lock_the_owner_out(client, owner, settings):
    settings.PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _through_proxy(client, "sai", "203.0.113.66")
    assert _through_proxy(client, "mat-khau-dai-123", "203.0.113.66").status_code == 429
    # The owner, from their own address, still logs in.
    assert _through_proxy(client, "mat-khau-dai-123", "198.51.100.20").status_code == 302


def test_behind_the_proxy_spoofed_entries_do_not_reset_the_count(client, owner, settings):
    settings.PROXY_COUNT = 1
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = _through_proxy(client, "sai", "203.0.113.66", spoofed=f"192.0.2.{n}, ")
    assert response.status_code == 429
    again = _through_proxy(client, "mat-khau-dai-123", "203.0.113.66", spoofed="192.0.2.200, ")
    assert again.status_code == 429


def test_without_a_proxy_a_lock_out_stays_with_its_address(client, owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"), {"username": "chu_ban", "password": "sai"}, REMOTE_ADDR="192.0.2.7"
        )
    response = client.post(
        reverse("login"),
        {"username": "chu_ban", "password": "mat-khau-dai-123"},
        REMOTE_ADDR="198.51.100.20",
    )
    assert response.status_code == 302


def test_guesses_from_many_addresses_lock_the_account_and_the_reset_mail_unlocks_it(
    client, owner, settings
):
    """Forty addresses × five guesses: the account locks after its own limit, everywhere;
    the owner's password reset from the mail lets them in at once."""
    settings.PROXY_COUNT = 1
    settings.PASSWORD_RESET_ENABLED = True
    owner.email = "chu@example.com"
    owner.save()
    refused = 0
    for n in range(40):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):  # each under its own pair's limit
            refused += _through_proxy(client, "sai", f"203.0.113.{n}").status_code == 429
    # The guess that reaches the limit is answered with the lock-out already.
    answered = 40 * (settings.AXES_FAILURE_LIMIT - 1) - refused
    assert answered == settings.AXES_ACCOUNT_FAILURE_LIMIT - 1
    # The owner's own phone is refused too now, and told the way in ...
    locked = _through_proxy(client, "mat-khau-dai-123", "198.51.100.20")
    assert locked.status_code == 429 and "đặt lại mật khẩu qua thư" in locked.content.decode()
    # ... until a new password is set through the mailed link.
    assert client.post("/accounts/password_reset/", {"email": "chu@example.com"}).status_code == 302
    link = _reset_link(_mails_sent()[-1].body)
    page = client.get(link, follow=True)
    new = "mat-khau-moi-dai-456"
    done = client.post(page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert _through_proxy(client, "mat-khau-moi-dai-456", "198.51.100.20").status_code == 302


def test_one_address_spraying_usernames_is_stopped(client, owner, settings):
    settings.PROXY_COUNT = 1
    users = [f"nguoi_{n}" for n in range(33)]
    for name in users:
        get_user_model().objects.create_user(name, password="mat-khau-dai-123")
    statuses = []
    for name in users:
        for _ in range(4):  # under each pair's limit of five
            statuses.append(
                client.post(
                    reverse("login"),
                    {"username": name, "password": "sai"},
                    headers={"X-Forwarded-For": "203.0.113.9"},
                    REMOTE_ADDR="10.0.0.5",
                ).status_code
            )
    assert statuses.count(200) == settings.AXES_ADDRESS_FAILURE_LIMIT - 1
    assert set(statuses[settings.AXES_ADDRESS_FAILURE_LIMIT :]) == {429}
    # Another address is not touched.
    other = client.post(
        reverse("login"),
        {"username": "nguoi_0", "password": "mat-khau-dai-123"},
        headers={"X-Forwarded-For": "198.51.100.20"},
        REMOTE_ADDR="10.0.0.5",
    )
    assert other.status_code == 302
