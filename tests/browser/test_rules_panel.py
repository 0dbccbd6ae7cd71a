"""The sitting's rules panel and its dates on a 390 px phone, in both languages: the prices
fit the screen (halves as ½ 1½), the date in the language's style. Screenshots are left in
``artifacts/browser/``."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser

DATE = {
    "vi": re.compile(r"\b\d\d/\d\d/\d{4}\b"),
    "en": re.compile(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}\b"),
}
PRICES = {
    "vi": "Thối hàng (cược): 3 đôi thông 1½",
    "en": "Thối of bombs (bet): 3 consecutive pairs 1½",
}


def test_the_rules_panel_lists_the_prices_in_both_languages(server, browser, artifacts):
    seeded = dbtool(server.database_url, "seed", "--preset", "cuoc")
    context = phone_context(browser)
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(server.url + "/")
    for language in ("vi", "en"):
        context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
        page.goto(f"{server.url}/s/{seeded['sitting']}/")
        header = page.locator("main > header")
        assert DATE[language].search(header.locator("p").first.inner_text())
        page.locator("#rule-choices summary").click()
        panel = page.locator("#rule-choices")
        assert PRICES[language] in panel.inner_text()
        assert not re.search(r"\d/\d", panel.inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        header.screenshot(path=str(artifacts / f"rules-panel-{language}.png"))
        page.goto(server.url + "/")
        assert DATE[language].search(page.locator("main").inner_text())
        page.screenshot(path=str(artifacts / f"home-dates-{language}.png"))
    context.close()
