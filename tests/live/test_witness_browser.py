"""Witnesses: a phone that watched the live page notices, on its next visit, that the book
was changed behind the site's back; ordinary edits through the site never warn it."""

from __future__ import annotations

import json
import shutil

import pytest
from django.db import connection, connections

from scoring import services
from scoring.engine import chain
from scoring.models import HistoryEntry
from tests.factories import CHOPPED, SECOND, record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not shutil.which("chromium"), reason="needs Debian's chromium"),
]


@pytest.fixture
def chromium(monkeypatch):
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


def _phone(chromium, language: str):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.route("**/django-htmx.js", lambda route: route.abort())
    return context, page


def _seen(page) -> int:
    """How many entries this phone has witnessed (its localStorage)."""
    return page.evaluate(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('tl-witness:'));"
        " return k ? JSON.parse(localStorage.getItem(k)).seen.length : 0; }"
    )


def _visit(page, url: str, count: int) -> None:
    page.goto(url)
    page.wait_for_function(
        "n => { const k = Object.keys(localStorage).find(k => k.startsWith('tl-witness:'));"
        " return k && JSON.parse(localStorage.getItem(k)).seen.length >= n; }",
        arg=count,
        timeout=10_000,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_watching_phone_warns_when_the_book_is_changed_behind_the_sites_back(
    live_server, chromium, owner, live_sitting, language, tmp_path
):
    context, page = _phone(chromium, language)
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    url = f"{live_server.url}/live/{live_sitting.live_token}/"
    count = HistoryEntry.objects.filter(sitting=live_sitting).count()
    _visit(page, url, count)
    assert page.locator("#witness-alert").is_hidden()

    # Ordinary edits through the site: the book grows, the phone sees no warning.
    game = record(live_sitting, owner, SECOND)
    services.game_edit(game=game, user=owner, record=CHOPPED, expected_revision=1)
    services.game_void(game=game, user=owner, reason="chia sai")
    services.sitting_undo(sitting=live_sitting, user=owner)
    count = HistoryEntry.objects.filter(sitting=live_sitting).count()
    _visit(page, url, count)
    page.wait_for_timeout(500)
    assert page.locator("#witness-alert").is_hidden()
    page.screenshot(path=str(tmp_path / f"witness-quiet-{language}.png"), full_page=True)

    # Behind the site's back: game 1's record rewritten in its history entry, and every hash
    # after it recomputed so the chain holds again.
    entry = HistoryEntry.objects.get(sitting=live_sitting, game__number=1)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(HistoryEntry._meta.db_table)} SET after = %s "
            "WHERE id = %s",
            [json.dumps({**(entry.after or {}), "finish": ["Dũng"]}), entry.pk],
        )
    chain.rechain(HistoryEntry, live_sitting.pk)
    page.goto(url)
    alert = page.locator("#witness-alert")
    alert.wait_for(state="visible", timeout=10_000)
    text = alert.inner_text()
    if language == "vi":
        assert "Cảnh báo: sổ đã bị sửa" in text and "ván 1, lúc" in text
    else:
        assert "Warning: the book was changed" in text and "game 1, at" in text
    page.screenshot(path=str(tmp_path / f"witness-warning-{language}.png"), full_page=False)
    # The phone keeps what it saw: the next visit warns again.
    page.goto(url)
    page.locator("#witness-alert").wait_for(state="visible", timeout=10_000)
    assert _seen(page) == count
    context.close()
    connections.close_all()


def _payments_seen(page) -> int:
    return page.evaluate(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('tl-witness:'));"
        " return k ? Object.keys(JSON.parse(localStorage.getItem(k)).payments || {}).length"
        " : 0; }"
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_watching_phone_warns_when_a_payment_it_saw_is_changed(
    live_server, chromium, owner, live_sitting, language, tmp_path
):
    from scoring.models import Settlement
    from tests.factories import settle

    paid = settle(live_sitting, owner, "An", "Bình", 10000)
    context, page = _phone(chromium, language)
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    url = f"{live_server.url}/live/{live_sitting.live_token}/"
    page.goto(url)
    page.wait_for_function(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('tl-witness:'));"
        " return k && Object.keys(JSON.parse(localStorage.getItem(k)).payments || {}).length; }",
        timeout=10_000,
    )
    assert _payments_seen(page) == 1
    # Voiding through the site is an honest change: no warning.
    services.settlement_void(settlement=paid, user=owner, reason="trả nhầm")
    page.goto(url)
    page.wait_for_timeout(1500)
    assert page.locator("#witness-alert").is_hidden()

    # The amount changed in the database: the history holds no trace of it.
    table = connection.ops.quote_name(Settlement._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET amount = 1 WHERE id = %s", [paid.pk])
    page.goto(url)
    alert = page.locator("#witness-alert")
    alert.wait_for(state="visible", timeout=10_000)
    text = alert.inner_text()
    amount = "10.000 ₫" if language == "vi" else "10,000 ₫"
    assert f"An → Bình {amount}" in text and "An → Bình 1 ₫" in text
    if language == "vi":
        assert "Khoản trả" in text
    else:
        assert "payment" in text.lower()
    page.screenshot(path=str(tmp_path / f"witness-payment-{language}.png"), full_page=False)
    context.close()
    connections.close_all()
