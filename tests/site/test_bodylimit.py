"""A body above MAX_REQUEST_BYTES is refused before anything reads it, for every visitor.

The test client's body here is a few bytes while the request declares far more: had anything
tried to read the declared length, the test client's payload would have raised.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.ledger import sessionfile
from scoring.models import Sitting
from tests.factories import plain

HUGE = 200 * 1024 * 1024


def post_declaring(client, url, length, **extra):
    return client.generic(
        "POST",
        url,
        b"x" * 16,
        content_type="multipart/form-data; boundary=abc",
        CONTENT_LENGTH=str(length),
        **extra,
    )


@pytest.mark.parametrize("name", ["login", "session_import", "signup"])
def test_it_refuses_a_huge_body_from_an_anonymous_visitor(client, db, name):
    response = post_declaring(client, reverse(name), HUGE)
    assert response.status_code == 413
    body = response.content.decode()
    assert "Yêu cầu quá lớn" in body
    assert 'class="topbar"' in body  # the site's own page, not a bare error
    assert "200,0\xa0MB" in body and "6,0\xa0MB" in body
    assert response["Connection"] == "close"


def test_it_refuses_a_huge_upload_from_the_owner_and_saves_nothing(owner_client):
    response = post_declaring(owner_client, reverse("session_import"), HUGE)
    assert response.status_code == 413
    assert not Sitting.objects.exists()


def test_it_speaks_the_visitors_language(client, db):
    client.cookies["django_language"] = "en"
    response = post_declaring(client, reverse("login"), HUGE)
    assert response.status_code == 413
    body = response.content.decode()
    assert "Request too large" in body and "200.0\xa0MB" in body and "6.0\xa0MB" in body


def test_it_answers_an_htmx_request_too(owner_client):
    response = post_declaring(
        owner_client, reverse("session_import"), HUGE, headers={"HX-Request": "true"}
    )
    assert response.status_code == 413
    assert "Yêu cầu quá lớn" in response.content.decode()


def test_it_lets_a_body_up_to_the_limit_through(owner_client):
    """A file a little over the import's 5 MB still reaches the form and its message."""
    raw = json.dumps(plain()).encode()
    raw += b" " * (sessionfile.MAX_FILE_BYTES + 500_000 - len(raw))
    response = owner_client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile("ban.json", raw, content_type="application/json")},
    )
    assert response.status_code == 422
    assert "MB" in response.context["form"].errors["file"][0]


def test_the_limit_is_one_setting(client, db, settings):
    settings.MAX_REQUEST_BYTES = 1000
    assert post_declaring(client, reverse("login"), 1001).status_code == 413
    fits = client.post(reverse("login"), b"u" * 1000, content_type="text/plain")
    assert fits.status_code == 200


def test_the_default_limit_fits_the_largest_legitimate_request():
    assert sessionfile.MAX_FILE_BYTES < settings.MAX_REQUEST_BYTES <= 8 * 1024 * 1024
    # An accepted upload is kept in memory, never written to a temporary file.
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= settings.MAX_REQUEST_BYTES


def test_it_refuses_a_chunked_body_without_a_length(client, db):
    response = client.generic(
        "POST",
        reverse("login"),
        b"",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert response.status_code == 411
    assert "Content-Length" in response.content.decode()


def test_it_leaves_ordinary_requests_alone(client, db):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "ai", "password": "sai-mat-khau"})
    assert response.status_code == 200  # the form's own answer, not 411 or 413


@pytest.mark.parametrize("length", ["9" * 30, "9" * 5000])
def test_a_length_longer_than_any_number_is_over_the_limit(client, db, length):
    assert post_declaring(client, reverse("login"), length).status_code == 413


@pytest.mark.parametrize("length", ["²", "①", "-1", "\x00", "1e9"])
def test_a_length_that_is_not_a_number_is_not_a_length(client, db, length):
    # Django then reads no body, so the form sees no fields: never a 500.
    assert post_declaring(client, reverse("login"), length).status_code < 500
