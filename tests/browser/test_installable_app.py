"""The installable app on a 390 px phone: Chromium finds nothing missing to install it; once a
sitting was viewed, the app opens on it without a connection, read-only and marked offline;
saves are never answered by the service worker (the pending queue gets them, as without one)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, PHONE
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser

KEPT = """async () => {
  for (const key of await caches.keys()) {
    if (!key.startsWith('tienlen-pages-')) continue;
    const last = await (await caches.open(key)).match('/__last-sitting__');
    if (last) return await last.text();
  }
  return null;
}"""
POST_OFFLINE = """async (url) => {
  try {
    const response = await fetch(url, {method: 'POST', body: new URLSearchParams({a: '1'})});
    return 'answered ' + response.status;
  } catch (error) {
    return 'failed';
  }
}"""


@pytest.fixture
def app_context(server, tmp_path):
    """A phone-sized Chromium with a profile on disk: Chromium installs no app from an
    incognito context, which is what ``browser.new_context()`` makes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            locale="vi-VN",
        )
        context.set_default_timeout(15_000)
        try:
            yield context
        finally:
            context.close()


def _log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


@pytest.mark.parametrize("language", ["vi", "en"])
def test_the_app_installs_and_opens_the_last_sitting_offline(
    server, app_context, artifacts, language
):
    seeded = dbtool(server.database_url, "seed")
    context = app_context
    page = context.pages[0] if context.pages else context.new_page()
    _log_in(page, server.url)
    if language == "en":
        page.locator(".langswitch button").click()
        page.wait_for_load_state()
    sitting = f"/s/{seeded['sitting']}/"
    page.goto(server.url + sitting)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now through the worker, which keeps the page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function(f"async () => ({KEPT})() === {sitting!r}")

    cdp = context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")

    context.set_offline(True)
    # A save sent offline is never answered by the worker: it fails, and the queue keeps it.
    assert page.evaluate(POST_OFFLINE, f"{sitting}games/") == "failed"
    # The installed app opens at "/": without a connection, on the last sitting viewed.
    page.goto(server.url + "/")
    page.wait_for_url(server.url + sitting)
    assert page.locator("html").get_attribute("data-offline")
    note = page.locator(".offline-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text({"vi": "Ngoại tuyến", "en": "Offline"}[language])
    assert re.search(r"\d\d:\d\d", note.inner_text())
    expect(page.locator("#totals")).to_be_visible()
    controls = page.locator("main form :is(input, select, textarea, button)")
    assert controls.count() > 0
    assert page.evaluate(
        "() => [...document.querySelectorAll('main form :is(input,select,textarea,button)')]"
        ".every(c => c.disabled)"
    )
    page.screenshot(path=str(artifacts / f"offline-{language}.png"))

    context.set_offline(False)
    page.goto(server.url + sitting)
    assert page.locator("html").get_attribute("data-offline") is None
    expect(page.locator(".offline-note")).to_have_count(0)


def test_signing_out_forgets_the_kept_sitting(server, app_context):
    seeded = dbtool(server.database_url, "seed")
    context = app_context
    page = context.pages[0] if context.pages else context.new_page()
    _log_in(page, server.url)
    sitting = f"/s/{seeded['sitting']}/"
    page.goto(server.url + sitting)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function(f"async () => ({KEPT})() === {sitting!r}")
    page.locator("a.who").click()
    page.locator("main form[action*=logout] button").click()
    page.wait_for_load_state()
    page.wait_for_function(f"async () => ({KEPT})() === null")
