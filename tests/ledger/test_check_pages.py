"""The fingerprint on the pages, the owner's "Kiểm tra sổ" page, and the witness's answer."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.db import connection
from django.urls import reverse

from scoring import services
from scoring.engine import chain
from scoring.ledger import verify
from scoring.models import BookCheck, Game, HistoryEntry, Sitting
from tests.factories import FIRST, SECOND, live_link, live_url, open_sitting, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def sitting(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    return sitting


def _tamper_record(game: Game) -> None:
    changed = json.dumps({**game.record, "finish": ["Dũng"]})
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Game._meta.db_table)} SET record = %s "
            "WHERE id = %s",
            [changed, game.pk],
        )


def test_the_fingerprint_is_on_the_sitting_print_statement_and_live_pages(
    owner_client, owner, sitting
):
    fingerprint = verify.fingerprint_of(sitting)
    player = sitting.memberships.first().player
    pages = [
        reverse("sitting", args=[sitting.pk]),
        reverse("sitting_print", args=[sitting.pk]),
        reverse("player_statement_in_sitting", args=[sitting.pk, player.pk]),
    ]
    for url in pages:
        assert fingerprint in owner_client.get(url).content.decode(), url
    live_link(sitting, owner)
    sitting.refresh_from_db()
    body = owner_client.get(live_url(sitting)).content.decode()
    # Turning the link on is an entry of its own: the book has a new fingerprint.
    assert verify.fingerprint_of(sitting) != fingerprint
    assert verify.fingerprint_of(sitting) in body and 'id="witness-alert"' in body


def test_opening_the_check_page_reads_and_checks_nothing(owner_client, sitting):
    """A link, a preview or a crawler opening the page runs no check: it says when the book
    was last checked, and the owner's tap runs one."""
    url = reverse("sitting_check", args=[sitting.pk])
    version = Sitting.objects.get(pk=sitting.pk).version
    body = owner_client.get(url).content.decode()
    assert "Sổ này chưa được kiểm tra lần nào." in body and 'id="check-run"' in body
    assert verify.fingerprint_of(sitting) in body
    assert not BookCheck.objects.filter(sitting=sitting).exists()
    _tamper_record(sitting.games.get(number=2))
    owner_client.get(url)
    assert not BookCheck.objects.filter(sitting=sitting).exists()
    assert Sitting.objects.get(pk=sitting.pk).version == version
    assert "Sổ KHÔNG khớp với lịch sử." in owner_client.post(url).content.decode()
    # Opened again, the page says what that check found, in the reader's language.
    body = owner_client.get(url).content.decode()
    assert "Lần kiểm tra trước:" in body and "Ván 2: chi tiết ván khác với lịch sử." in body
    owner_client.cookies["django_language"] = "en"
    body = owner_client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert "Last checked:" in body and "Game 2: its details differ from the history." in body


def test_the_check_page_says_the_book_agrees(owner_client, sitting):
    body = owner_client.post(reverse("sitting_check", args=[sitting.pk])).content.decode()
    assert "Sổ khớp với lịch sử." in body and verify.fingerprint_of(sitting) in body


def test_the_check_page_names_the_mismatch_in_english_too(owner_client, sitting):
    _tamper_record(sitting.games.get(number=2))
    url = reverse("sitting_check", args=[sitting.pk])
    body = owner_client.post(url).content.decode()
    assert "Sổ KHÔNG khớp với lịch sử." in body and "Ván 2: chi tiết ván khác với lịch sử." in body
    owner_client.cookies["django_language"] = "en"
    body = owner_client.post(url, headers={"Accept-Language": "en"}).content.decode()
    assert "Game 2: its details differ from the history." in body


def test_the_check_pages_are_the_owners_only(client, stranger_client, owner, sitting):
    group = sitting.group
    for url in (
        reverse("sitting_check", args=[sitting.pk]),
        reverse("group_check", args=[group.pk]),
    ):
        for method in (stranger_client.get, stranger_client.post):
            assert method(url).status_code == 404
        assert client.get(url).status_code in (302, 404)
        assert client.post(url).status_code in (302, 404)
    assert not BookCheck.objects.exists()


def test_the_group_check_page(owner_client, sitting):
    url = reverse("group_check", args=[sitting.group_id])
    assert "Sổ này chưa được kiểm tra lần nào." in owner_client.get(url).content.decode()
    assert "Sổ khớp với lịch sử." in owner_client.post(url).content.decode()
    _tamper_record(sitting.games.get(number=1))
    # The page goes on from its last check (tests/ledger/test_verify_since.py); a whole
    # check is the page's second button.
    body = owner_client.post(url, {"full": "1"}).content.decode()
    assert "Sổ KHÔNG khớp với lịch sử." in body and sitting.name in body
    assert "Đã kiểm tra toàn bộ sổ" in body


def test_the_group_page_leads_its_owner_to_the_check(owner_client, sitting):
    body = owner_client.get(reverse("group", args=[sitting.group_id])).content.decode()
    assert f'href="{reverse("group_check", args=[sitting.group_id])}"' in body


def test_the_witness_gets_recomputed_hashes_and_the_entries_since(client, owner, sitting):
    token = live_link(sitting, owner)
    url = reverse("live_book", args=[token])
    whole = client.get(url).json()
    assert whole["since"] == 0 and whole["earlier"] == []
    previous = ""
    for entry in whole["entries"]:
        digest = hashlib.sha256(f"{previous}\n{entry['data']}".encode()).hexdigest()
        assert digest == entry["hash"]
        previous = digest
    assert whole["fingerprint"] == chain.fingerprint(previous)
    record(sitting, owner, FIRST)
    later = client.get(url, {"since": whole["count"]}).json()
    assert later["earlier"] == [e["hash"][:16] for e in whole["entries"]]
    assert [e["n"] for e in later["entries"]] == [whole["count"] + 1]
    assert later["entries"][0]["game"] == 3
    # An entry edited in place (its stored hash left alone) comes back recomputed.
    entry = HistoryEntry.objects.filter(sitting=sitting, game__number=1).get()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(HistoryEntry._meta.db_table)} SET note = 'x' "
            "WHERE id = %s",
            [entry.pk],
        )
    tampered = client.get(url, {"since": whole["count"]}).json()
    position = [e["game"] for e in whole["entries"]].index(1)
    assert tampered["earlier"][:position] == later["earlier"][:position]
    assert tampered["earlier"][position] != later["earlier"][position]


@pytest.mark.parametrize("since", ["-1", "abc", "99999999999999999999", ""])
def test_the_witness_survives_any_since(client, owner, sitting, since):
    token = live_link(sitting, owner)
    response = client.get(reverse("live_book", args=[token]), {"since": since})
    assert response.status_code == 200 and response.json()["since"] == 0


def test_the_witness_of_a_revoked_link_is_gone(client, owner, sitting):
    token = live_link(sitting, owner)
    services.sitting_live_link(sitting=sitting, user=owner, action="revoke")
    assert client.get(reverse("live_book", args=[token])).status_code == 404


def test_the_group_live_page_shows_the_groups_fingerprint(client, owner, sitting):
    group = sitting.group
    services.group_live_link(group=group, user=owner, action="enable")
    group.refresh_from_db()
    body = client.get(reverse("group_live", args=[group.live_token])).content.decode()
    assert verify.fingerprint_of(group) in body
