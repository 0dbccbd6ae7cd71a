"""Nothing a request carries is copied unbounded into a header (issue: two anonymous GETs took
every app server out behind nginx, whose buffer for an answer's headers is a few KB).

An address longer than any the site makes is refused with 414 before any redirect could copy
it; the log-in redirect keeps a page's query only while it is short; redirects after a payment
carry the plan as the page read it, never the posted text.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import services
from tests.factories import player, table_with
from tienlen_site.plumbing.http import MAX_NEXT_CHARS, MAX_QUERY_VALUE_CHARS, redirect_with_query

pytestmark = pytest.mark.django_db

#: What the hostile crawl allows an answer's headers (nginx's default proxy_buffer_size).
HEADER_BUDGET = 4096


def header_bytes(response) -> int:
    return sum(len(k) + len(str(v)) + 4 for k, v in response.headers.items())


@pytest.mark.parametrize(
    "address",
    [
        "/s/1/?" + "&" * 1300,  # the log-in redirect wrote each & as %26
        "/groups?" + "a" * 3800,  # the trailing-slash redirect copied the query
        "/accounts/login/?next=" + "%2F" * 2000,
        "/" + "x" * 600,
    ],
)
def test_an_address_longer_than_any_the_site_makes_gets_414(client, address):
    response = client.get(address)
    assert response.status_code == 414
    assert "Location" not in response
    assert header_bytes(response) < 1024
    body = response.content.decode()
    assert "Địa chỉ quá dài" in body
    assert "Về trang chủ" in body


def test_the_414_page_speaks_the_visitors_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/groups?" + "a" * 3800)
    assert response.status_code == 414
    assert "Address too long" in response.content.decode()
    assert response["Content-Language"] == "en"


def test_an_address_up_to_the_limit_is_served_as_before(client):
    query = "a=" + "b" * (settings.MAX_QUERY_CHARS - 2)
    response = client.get(f"/groups/?{query}")
    assert response.status_code == 302  # to the log-in page, as any page behind it
    assert response["Location"].startswith(reverse("login"))
    assert header_bytes(response) < HEADER_BUDGET


def test_the_log_in_redirect_keeps_a_short_query_and_drops_a_long_one(client):
    short = client.get("/groups/?period=month")
    assert short["Location"] == reverse("login") + "?next=/groups/%3Fperiod%3Dmonth"
    ampersands = "/groups/?" + "&" * (settings.MAX_QUERY_CHARS - 1)
    long = client.get(ampersands)
    assert long.status_code == 302
    assert long["Location"] == reverse("login") + "?next=/groups/"
    assert len(long["Location"]) < MAX_NEXT_CHARS


def test_a_payment_posted_without_htmx_redirects_to_the_plan_the_page_read(owner_client, owner):
    sitting = table_with(owner, {"A": 4, "B": -4})
    settlement = services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=player(sitting, "B"),
        payee=player(sitting, "A"),
        amount=1000,
    )
    void = reverse("settlement_void", args=[sitting.pk, settlement.pk])
    page = reverse("sitting_settle", args=[sitting.pk])
    hostile = {"method": "played" + "x" * 5000, "banker": "9" * 4000}
    # Twice: voiding a void payment still answers with the settle-up.
    for _ in range(2):
        response = owner_client.post(void, hostile)
        assert response.status_code == 302
        assert response["Location"] == f"{page}?method=min"
        assert header_bytes(response) < HEADER_BUDGET
    banker = player(sitting, "A")
    response = owner_client.post(void, {"method": "banker", "banker": str(banker.pk)})
    assert response["Location"] == f"{page}?method=banker&banker={banker.pk}"
    stranger = owner_client.post(void, {"method": "banker", "banker": "12345678901234567890"})
    # An id that is not one of the sitting's players: the page's own banker, not the text.
    assert stranger["Location"] == f"{page}?method=banker&banker={banker.pk}"


def test_a_redirect_refuses_to_carry_a_long_value():
    assert redirect_with_query("/x/", {"a": "1", "b": None, "c": ""})["Location"] == "/x/?a=1"
    assert redirect_with_query("/x/", {})["Location"] == "/x/"
    with pytest.raises(ValueError, match="b"):
        redirect_with_query("/x/", {"a": "1", "b": "9" * (MAX_QUERY_VALUE_CHARS + 1)})
