"""A database that makes a request wait too long answers "Sổ đang bận, thử lại" (503, a short
Retry-After) at once, and the web's connections wait for a lock a few seconds at most."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest
from django.db import OperationalError, connection, transaction
from django.test import RequestFactory

from scoring.models import Game
from tests.factories import open_sitting
from tests.reliability.realserver import first_out_fields
from tests.site.test_settings_env import PRODUCTION, _setting
from tienlen_site import settings as site_settings
from tienlen_site.plumbing import unavailable, waits

BUSY = "Sổ đang bận, thử lại"
HTMX = {"HX-Request": "true"}
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and advisory locks are PostgreSQL's"
)


def _save(client, sitting):
    members = ["An", "Bình", "Chi", "Dũng"]
    fields = first_out_fields(
        members, winner="An", cards={"Bình": 3, "Chi": 4, "Dũng": 5}, token=str(uuid.uuid4())
    )
    return client.post(f"/s/{sitting.pk}/games/", dict_of(fields), headers=HTMX)


def dict_of(fields):
    out: dict[str, list[str]] = {}
    for name, value in fields:
        out.setdefault(name, []).append(value)
    return out


def _other_connection():
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname=s["NAME"],
    )


@postgres_only
def test_a_save_behind_a_held_row_lock_is_told_to_try_again_and_nothing_is_saved(
    transactional_db, owner, client
):
    sitting = open_sitting(owner, players=["An", "Bình", "Chi", "Dũng"])
    client.force_login(owner)
    with _other_connection() as holder:  # a transaction left open, as by a stopped worker
        holder.execute("SELECT id FROM scoring_sitting WHERE id = %s FOR UPDATE", [sitting.pk])
        response = _save(client, sitting)
        holder.rollback()
    assert response.status_code == 503
    assert response["Retry-After"] == str(unavailable.BUSY_RETRY_AFTER_SECONDS)
    assert BUSY in response.content.decode()
    assert not Game.objects.filter(sitting=sitting).exists()
    assert _save(client, sitting).status_code == 200  # the holder gone, the same save lands


@postgres_only
def test_a_row_with_every_place_of_its_queue_taken_refuses_at_once(transactional_db):
    taken, done = threading.Event(), threading.Event()

    def hold():  # other transactions queued on row 7
        with _other_connection() as other:
            base = (waits.SITTING_ROW << 56) | (7 << 8)
            for place in range(waits.PLACES):
                other.execute("SELECT pg_advisory_xact_lock(%s)", [base + place])
            taken.set()
            done.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    try:
        with pytest.raises(waits.RowBusy), transaction.atomic():
            waits.queue_for(waits.SITTING_ROW, 7)
        with transaction.atomic():
            waits.queue_for(waits.SITTING_ROW, 8)  # another row's queue is free
    finally:
        done.set()
        thread.join(10)
    with transaction.atomic():
        waits.queue_for(waits.SITTING_ROW, 7)  # and this one, once they are done


@pytest.mark.parametrize(
    "error",
    [
        waits.RowBusy("row 1"),
        OperationalError("database is locked"),
    ],
)
def test_a_busy_database_is_a_503_with_a_short_retry_in_the_readers_language(error):
    request = RequestFactory().get("/", headers={"Cookie": "django_language=en"})
    request.COOKIES["django_language"] = "en"
    response = unavailable.DatabaseUnavailableMiddleware(lambda r: None).process_exception(
        request, error
    )
    assert response is not None and response.status_code == 503
    assert response["Retry-After"] == "2" and response["Cache-Control"] == "no-store"
    assert "The ledger is busy, try again" in response.content.decode()


def test_a_lock_timeout_from_postgresql_counts_as_busy_and_a_refused_connection_does_not():
    try:
        try:
            raise psycopg.errors.LockNotAvailable("canceling statement due to lock timeout")
        except psycopg.Error as cause:
            raise OperationalError(str(cause)) from cause
    except OperationalError as error:
        assert unavailable.is_busy(error)
    assert not unavailable.is_busy(OperationalError("connection refused"))


def test_the_web_waits_a_few_seconds_and_a_command_as_long_as_it_must():
    web = site_settings.postgres_session_options()
    assert "-c lock_timeout=3000" in web and "-c statement_timeout=10000" in web
    assert "-c idle_in_transaction_session_timeout=10000" in web
    url = {**PRODUCTION, "DATABASE_URL": "postgres://u@db.example/tienlen"}
    options = "settings.DATABASES['default']['OPTIONS'].get('options', '')"
    # manage.py runs a command: no short waits for it.
    assert _setting(url, options) == ""
    assert _setting({**url, "TIENLEN_DB_ROLE": "web", "DB_LOCK_TIMEOUT_MS": "1500"}, options) == (
        "-c lock_timeout=1500 -c statement_timeout=10000 "
        "-c idle_in_transaction_session_timeout=10000 -c client_connection_check_interval=2000"
    )
    sqlite = "settings.DATABASES['default']['OPTIONS']['timeout']"
    lite = {**PRODUCTION, "DATABASE_URL": "sqlite:///"}
    assert _setting({**lite, "TIENLEN_DB_ROLE": "web"}, sqlite) == "5"
    assert _setting(lite, sqlite) == "20"
