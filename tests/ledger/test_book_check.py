"""A book that disagrees says so where people look: after ``verify_ledger`` (or a "Kiểm tra
sổ" page) finds a mismatch, the sitting's page, its live link and the group's page show a red
banner with the first mismatch, until a check passes again."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from scoring.models import BookCheck, Settlement, Sitting
from tests.factories import FIRST, SECOND, live_link, open_sitting, record, settle

pytestmark = pytest.mark.django_db


def _verify_all() -> int:
    try:
        call_command("verify_ledger", "--all", stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as error:
        return error.returncode
    return 0


def _tamper(settlement: Settlement, amount: int) -> None:
    table = connection.ops.quote_name(Settlement._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET amount = %s WHERE id = %s", [amount, settlement.pk])


@pytest.fixture
def night(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    paid = settle(sitting, owner, "An", "Bình", 10000)
    token = live_link(sitting, owner)
    return sitting, paid, token


def _pages(client: Client, sitting: Sitting, token: str) -> list[str]:
    return [
        client.get(f"/s/{sitting.pk}/").text,
        Client().get(f"/live/{token}/").text,
        client.get(f"/groups/{sitting.group_id}/").text,
    ]


def test_a_tampered_payment_shows_on_every_page_until_a_check_passes(owner_client, night):
    sitting, paid, token = night
    assert _verify_all() == 0
    assert all('id="book-disagrees"' not in page for page in _pages(owner_client, sitting, token))
    version = Sitting.objects.get(pk=sitting.pk).version

    _tamper(paid, 1)
    assert _verify_all() == 1
    check = BookCheck.objects.get(sitting=sitting)
    assert not check.ok and check.message_vi and check.message_en
    assert Sitting.objects.get(pk=sitting.pk).version == version + 1  # live pages see it
    for page in _pages(owner_client, sitting, token):
        assert 'id="book-disagrees"' in page
        assert "Sổ không khớp với lịch sử ghi chép." in page
        assert check.message_vi in page
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = owner_client.get(f"/s/{sitting.pk}/").text
    assert check.message_en in english and "does not match its history" in english

    # Still broken: a second check changes nothing on the pages (and no version moves).
    assert _verify_all() == 1
    assert Sitting.objects.get(pk=sitting.pk).version == version + 1

    _tamper(paid, 10000)
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    check_page = owner_client.post(f"/s/{sitting.pk}/check/")
    assert check_page.status_code == 200
    assert BookCheck.objects.get(sitting=sitting).ok
    assert all('id="book-disagrees"' not in page for page in _pages(owner_client, sitting, token))


def test_the_check_page_records_a_mismatch_too(owner_client, night):
    sitting, paid, _token = night
    _tamper(paid, 5)
    owner_client.post(f"/s/{sitting.pk}/check/")
    assert not BookCheck.objects.get(sitting=sitting).ok
    assert 'id="book-disagrees"' in owner_client.get(f"/s/{sitting.pk}/").text
