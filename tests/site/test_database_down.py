"""A database that is down gets a 503 page in the site's look, in the user's language."""

from __future__ import annotations

import subprocess
import time

import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from tests.reliability.realserver import BIN, HOST, ROOT, free_port, request, server_env
from tienlen_site.plumbing import unavailable


def _fail(*args, **kwargs):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')


@pytest.mark.django_db
def test_a_database_error_in_a_view_is_a_friendly_503(owner_client, monkeypatch):
    monkeypatch.setattr("scoring.views.site.sittings_for", _fail)
    response = owner_client.get("/")
    html = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "30" and response["Cache-Control"] == "no-store"
    assert "Sổ tạm thời không mở được" in html and "css/site.css" in html
    assert "connection to server" not in html  # no error detail for the visitor


@pytest.mark.django_db
def test_the_503_page_follows_the_chosen_language(owner_client, monkeypatch):
    monkeypatch.setattr("scoring.views.site.sittings_for", _fail)
    owner_client.cookies["django_language"] = "en"
    response = owner_client.get("/")
    assert response.status_code == 503 and response["Content-Language"] == "en"
    assert "The ledger cannot be opened right now" in response.content.decode()


@pytest.mark.django_db
def test_an_interface_error_is_a_503_too(owner_client, monkeypatch):
    def broken(*args, **kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr("scoring.views.site.sittings_for", broken)
    assert owner_client.get("/").status_code == 503


@pytest.mark.django_db
def test_other_errors_stay_errors(owner_client, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr("scoring.views.site.sittings_for", broken)
    with pytest.raises(ValueError):
        owner_client.get("/")


def test_the_503_page_still_answers_when_it_cannot_be_rendered(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("Missing staticfiles manifest entry for 'css/site.css'")

    monkeypatch.setattr(unavailable, "render_to_string", broken)
    response = unavailable.unavailable_response(RequestFactory().get("/"))
    assert response.status_code == 503
    assert "Sổ tạm thời không mở được" in response.content.decode()


def test_the_500_handler_turns_a_database_error_outside_a_view_into_the_503_page():
    request = RequestFactory().get("/")
    try:
        raise OperationalError("database is locked")
    except OperationalError:
        response = unavailable.server_error(request)
    assert response.status_code == 503
    try:
        raise RuntimeError("not the database")
    except RuntimeError:
        response = unavailable.server_error(request)
    assert response.status_code == 500


@pytest.mark.slow
def test_a_real_server_with_its_database_down_answers_503_pages(tmp_path):
    """PostgreSQL on a port where nothing listens (development mode: no collected static)."""
    port = free_port()
    dead = f"postgres://postgres@{HOST}:{free_port()}/tienlen_absent"
    env = server_env(
        dead,
        DEBUG="1",
    )
    log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115 - the child owns it
    proc = subprocess.Popen(
        [str(BIN / "gunicorn"), "tienlen_site.wsgi", "--bind", f"{HOST}:{port}", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 40
        while True:
            try:
                status, _headers, body = request(f"http://{HOST}:{port}", "GET", "/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.1)
        assert status == 503  # the health check says so too
        base = f"http://{HOST}:{port}"
        cookie = {"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"}
        for path in ("/", "/s/1/", "/players/"):
            status, headers, body = request(base, "GET", path, headers=cookie)
            assert status == 503, (path, status, body[:300])
            assert "Sổ tạm thời không mở được".encode() in body
            assert headers["Retry-After"] == "30"
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
