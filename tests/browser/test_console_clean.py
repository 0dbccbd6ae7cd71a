"""The main pages in Chromium at 390 px: a clean console (no error, no CSP violation) and
nothing wider than the screen, in both languages, over an evening with every kind of game.

Also leaves screenshots of the undo banner with its redo button and of a game's record as
JSON in ``artifacts/browser/`` (git-ignored).
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, run_module

pytestmark = pytest.mark.browser
PARTNER = f"{SCOREKEEPER}_2"
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# Every CSP violation the page sees, reported by the browser itself (console text varies).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push([
  e.violatedDirective, e.blockedURI, e.sample, (e.sourceFile || '') + ':' + e.lineNumber,
  e.target && e.target.nodeName, e.target && e.target.id].join(' ')));
"""


def evening(database_url: str) -> dict:
    """The rich evening of ``tests.richdata``, built by its own process in the server's DB."""
    return run_module(database_url, "tests.richdata", SCOREKEEPER, PASSWORD, PARTNER)


def log_in(page, base_url, username=SCOREKEEPER):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


class Console:
    """Console errors and warnings, uncaught exceptions and CSP violations of one page."""

    def __init__(self, page):
        self.page = page
        self.messages: list[str] = []
        page.add_init_script(WATCH_CSP)
        page.on(
            "console",
            lambda m: (
                self.messages.append(f"{m.type}: {m.text}")
                if m.type in {"error", "warning"}
                else None
            ),
        )
        page.on("pageerror", lambda error: self.messages.append(f"pageerror: {error}"))

    def problems(self, where: str) -> list[str]:
        violations = self.page.evaluate("window.__csp || []")
        found = [f"{where}: {m}" for m in self.messages] + [f"{where}: CSP {v}" for v in violations]
        self.messages.clear()
        return found


def _pages(ids):
    s, p = ids["sitting"], ids["placement"]
    an, binh = ids["players"]["An"], ids["players"]["Bình"]
    g = ids["games"]
    return [
        "/",
        f"/s/{s}/",
        f"/s/{p}/",
        f"/s/{s}/g/{g['chat']}/",
        f"/s/{s}/g/{g['cong_den']}/",
        f"/s/{s}/g/{g['toi_trang']}/",
        f"/s/{s}/g/{g['edited']}/",
        f"/s/{s}/g/{g['chat']}/edit/",
        f"/s/{s}/history/",
        f"/s/{s}/settle/",
        f"/s/{s}/players/{an}/",
        f"/s/{s}/pair/{an}/{binh}/",
        f"/s/{s}/print/",
        f"/s/{s}/members/",
        f"/s/{s}/share/",
        f"/s/{s}/live/",
        f"/live/{ids['live_token']}/",
        "/players/",
        f"/players/{an}/",
        f"/players/{an}/bank/",
        f"/ledger/{an}/",
        "/rules/",
        "/rules/new/?from=dem-la-26",
        "/s/new/",
        "/import/",
        "/accounts/",
    ]


def test_the_main_pages_keep_a_clean_console_and_fit_a_phone(server, browser, artifacts):
    ids = evening(server.database_url)
    context = phone_context(browser)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    console = Console(page)
    log_in(page, server.url)
    problems: list[str] = []
    too_wide: list[str] = []
    for language in ("vi", "en"):
        context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
        for path in _pages(ids):
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            for details in page.locator("details:not([open])").all():
                if details.is_visible():
                    details.locator("summary").first.click()
            page.wait_for_function(IDLE)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                too_wide.append(f"{language} {path}: {width}px")
            problems += console.problems(f"{language} {path}")
        # The sitting page at work: a preview, a chặt chain, the chart, two polls.
        page.goto(f"{server.url}/s/{ids['sitting']}/")
        page.locator('#record-form label.chip:has(input[name="winner"][value="An"])').click()
        page.wait_for_function(IDLE)
        page.locator('#record-form button[value="add_chain"]').click()
        page.wait_for_function(IDLE)
        page.locator("#chart-card summary").click()
        page.wait_for_selector("#chart svg")
        with page.expect_response(lambda r: "part=board" in r.url, timeout=10_000):
            pass  # the board's poll, answered 304 (nothing new)
        problems += console.problems(f"{language} sitting at work")
    assert not problems, "\n".join(problems)
    assert not too_wide, too_wide


def test_screenshots_of_the_redo_prompt_and_the_json_record(server, browser, artifacts):
    ids = evening(server.database_url)
    page = phone_context(browser).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    console = Console(page)
    log_in(page, server.url)
    s = ids["sitting"]
    # The record as JSON, wrapped to the phone's width.
    page.goto(f"{server.url}/s/{s}/g/{ids['games']['chat']}/")
    page.locator("details:has(pre.json) summary").click()
    pre = page.locator("pre.json")
    pre.scroll_into_view_if_needed()
    assert json.loads(pre.inner_text())["chat"][0]["steps"][0]["play"] == "doi_heo"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = pre.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path=artifacts / "json-record.png")
    page.screenshot(path=artifacts / "json-record-full.png", full_page=True)
    # Undo from the sitting page: the banner names the game and offers redo.
    page.goto(f"{server.url}/s/{s}/")
    page.locator('#record-form label.chip:has(input[name="winner"][value="An"])').click()
    page.wait_for_selector("#cards_1")
    for index in (1, 2, 3):
        field = page.locator(f"#cards_{index}")
        field.fill(str(index + 3))
        field.press("Tab")
        page.wait_for_function(IDLE)
    page.locator('button[name="action"][value="save"]').click()
    page.locator('#board-inner .alert[role="status"]').wait_for()
    before = page.locator("#totals").inner_text()
    page.get_by_role("button", name="Hoàn tác").click()
    banner = page.locator("#undone")
    banner.wait_for()
    assert "Đã hoàn tác ghi ván" in banner.inner_text()
    assert page.locator("#totals").inner_text() != before
    page.screenshot(path=artifacts / "redo-prompt.png")
    banner.get_by_role("button", name="Làm lại").click()
    page.wait_for_load_state()
    assert page.locator("#undone").count() == 0
    assert page.locator("#totals").inner_text() == before
    page.screenshot(path=artifacts / "after-redo.png")
    assert not console.problems("screenshots")
