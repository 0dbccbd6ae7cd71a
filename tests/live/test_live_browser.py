"""A phone watching the live page in Debian's Chromium: it follows the table by itself."""

import shutil

import pytest
from django.db import connections

from scoring import services
from tests.factories import SECOND, record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not shutil.which("chromium"), reason="needs Debian's chromium"),
]


@pytest.fixture
def phone(monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls made here while
    # it runs are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        # What production serves: DEBUG's django-htmx script would replace the page on a 404.
        page.route("**/django-htmx.js", lambda route: route.abort())
        yield page
        browser.close()


@pytest.mark.django_db(transaction=True)
def test_it_follows_the_table_and_stops_when_the_link_is_revoked(
    live_server, phone, owner, live_sitting
):
    statuses = []
    phone.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    phone.goto(f"{live_server.url}/live/{live_sitting.live_token}/")
    phone.wait_for_timeout(4_500)
    # Polls that found nothing new were answered 304 and left the board as it was.
    assert 304 in statuses
    assert phone.locator("#live-board").get_by_text("Ván 1", exact=True).is_visible()

    record(live_sitting, owner, SECOND)
    phone.get_by_text("Ván 2", exact=True).wait_for(timeout=3_500)
    assert phone.locator("#live-board .game-head").first.inner_text().startswith("Ván 2")

    services.sitting_live_link(sitting=live_sitting, user=owner, action="revoke")
    phone.locator("#live-gone").wait_for(state="visible", timeout=3_500)
    assert phone.locator("#live-board").count() == 0
    # While Playwright's sync API runs, the ORM calls above get connections of their own
    # context; close them here, or PostgreSQL cannot drop the test database at the end.
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_the_live_page_switches_to_english_and_back(live_server, phone, owner, live_sitting):
    """The switch is a form posted to the site itself: the page's referrer policy must let the
    browser say where it comes from, or Django's CSRF check refuses it (403)."""
    phone.goto(f"{live_server.url}/live/{live_sitting.live_token}/")
    with phone.expect_navigation() as switched:
        phone.locator("form.langswitch button").click()
    assert switched.value.status == 200
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.locator("#live-board").is_visible()
    with phone.expect_navigation() as back:
        phone.locator("form.langswitch button").click()
    assert back.value.status == 200
    assert phone.locator("html").get_attribute("lang") == "vi"
    connections.close_all()
