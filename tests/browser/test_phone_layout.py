"""Things a 390 px phone must show without sideways scrolling or hunting: found by looking at
the screenshots of the evening test. Marked xfail(strict) while the fix is pending, so the
suite stays green and the marker must go the day the layout is fixed."""

import re

import pytest

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


@pytest.mark.xfail(
    strict=True,
    reason="in English the top bar is wider than 390 px: the account link is scrolled out of "
    "the nav (overflow-x: auto) with nothing showing it is there",
)
def test_the_top_bar_fits_a_phone_in_both_languages(server, browser):
    seeded = dbtool(server.database_url, "seed")
    page = phone_context(browser).new_page()
    _log_in(page, server.url)
    cut = {}
    for language in ("vi", "en"):
        page.goto(f"{server.url}/s/{seeded['sitting']}/")
        if page.locator("html").get_attribute("lang") != language:
            page.locator(".langswitch button").click()
            page.wait_for_load_state()
        cut[language] = page.evaluate(CUT_OFF)
    assert cut == {"vi": [], "en": []}


@pytest.mark.xfail(
    strict=True,
    reason="after 'Lưu ván' (tapped in the sticky bar at the bottom) the board is swapped in "
    "place and the phone stays scrolled down: the 'Đã lưu ván N' notice and the new totals "
    "are off screen",
)
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
    box = notice.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
