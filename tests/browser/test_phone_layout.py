"""Things a 390 px phone must show without sideways scrolling or hunting: found by looking at
the screenshots of the evening test."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser

CUT_OFF = """() => [...document.querySelectorAll('.topbar a, .topbar button')]
    .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map(el => el.getAttribute('title') || el.textContent.trim())"""


def _log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def test_the_top_bar_fits_a_phone_in_both_languages(server, browser):
    seeded = dbtool(server.database_url, "seed")
    page = phone_context(browser).new_page()
    _log_in(page, server.url)
    cut = {}
    high = {}
    for language in ("vi", "en"):
        page.goto(f"{server.url}/s/{seeded['sitting']}/")
        if page.locator("html").get_attribute("lang") != language:
            page.locator(".langswitch button").click()
            page.wait_for_load_state()
        cut[language] = page.evaluate(CUT_OFF)
        high[language] = page.evaluate(
            "() => document.querySelector('.topbar').getBoundingClientRect().height"
        )
    assert cut == {"vi": [], "en": []}
    # One line in both languages (English wrapped to two, 82 px).
    assert all(h < 57 for h in high.values()), high


def test_saving_a_game_shows_the_confirmation_on_screen(server, browser):
    seeded = dbtool(server.database_url, "seed")
    page = phone_context(browser).new_page()
    _log_in(page, server.url)
    page.goto(f"{server.url}/s/{seeded['sitting']}/")
    page.locator('label.chip:has(input[name="winner"][value="An"])').click()
    page.wait_for_selector("#cards_1")
    for index in (1, 2, 3):
        field = page.locator(f"#cards_{index}")
        field.fill("3")
        field.press("Tab")
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.locator('button[name="action"][value="save"]').click()
    notice = page.locator('#board-inner .alert[role="status"]')
    notice.wait_for()
    assert re.search(r"\d", notice.inner_text())
    # htmx scrolls once the new board has settled; wait for it rather than read too early.
    expect(notice).to_be_in_viewport()
