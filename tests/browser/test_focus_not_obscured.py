"""Focus not obscured (WCAG 2.4.11): Tab through a page to its end and Shift+Tab back to its
start, and at every stop the focused control is what is drawn at its own centre, never the
sticky top bar, a fixed save bar or a banner over it.

The pages are those where a control used to hide: the home page (390 px, 1280 px and 200 %
zoom of a phone), the players' page at 200 %, the rules editor with its "Lưu luật" bar, the
settle-up with the "Chưa lưu" banner of a payment made offline, and the offline copy of a
sitting with its "Ngoại tuyến" note. The settle-up also keeps the keyboard on the tapped row
while the payment is sent and when it fails offline."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_console_clean import IDLE, evening, log_in
from tests.browser.test_pay_up import network, open_page

pytestmark = pytest.mark.browser

#: "" when the focused control is drawn at its centre, what covers it otherwise; None when the
#: focus has left the page. A chip's input is unseen and covers its chip: the chip is checked.
COVERED = """() => {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return null;
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' "' +
    (el.getAttribute('aria-label') || el.textContent || el.name || '').trim().slice(0, 30) + '"';
  const el = a.closest('label.chip') || a;
  const box = el.getBoundingClientRect();
  if (!box.width && !box.height) return '';
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const at = document.elementFromPoint(x, y);
  if (at && (at === a || a.contains(at) || el.contains(at))) return '';
  return name(a) + ' at ' + Math.round(y) + ' under ' + (at ? name(at) : 'the edge of the screen');
}"""

VIEWPORTS = {
    "390": {"width": 390, "height": 844},
    "1280": {"width": 1280, "height": 800},
    "200%": {"width": 195, "height": 422},
}


def walk(page, label: str, limit: int = 300) -> tuple[list[str], int]:
    """Tab to the end of the page, then Shift+Tab back to its start: what was covered, and how
    many stops were made (so a walk that never moved cannot pass)."""
    page.evaluate(
        "() => { if (document.activeElement) document.activeElement.blur(); scrollTo(0, 0); }"
    )
    problems: list[str] = []
    stops = 0
    for key in ("Tab", "Shift+Tab"):
        for _ in range(limit):
            page.keyboard.press(key)
            state = page.evaluate(COVERED)
            if state is None:
                break
            stops += 1
            if state:
                problems.append(f"{label} {key}: {state}")
    return problems, stops


def _context(browser, server, viewport, **kwargs):
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 720, **kwargs)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "django_language", "value": "vi", "url": server.url}])
    return context


def test_no_focused_control_hides_under_a_bar_on_the_pages_that_had_one(server, browser):
    ids = evening(server.database_url)
    found: list[str] = []
    walks = {
        "390": ["/", "/rules/new/?from=dem-la-26", f"/s/{ids['sitting']}/"],
        "1280": ["/"],
        "200%": ["/", "/players/"],
    }
    for size, paths in walks.items():
        context = _context(browser, server, VIEWPORTS[size])
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        log_in(page, server.url)
        for path in paths:
            page.goto(server.url + path)
            page.wait_for_function(IDLE)
            problems, stops = walk(page, f"{size} {path}")
            assert stops > 10, f"{size} {path}: only {stops} stops"
            found += problems
        context.close()
    assert found == []


def test_the_offline_copys_note_is_not_drawn_over_the_top_bar(server, browser):
    """The copy the service worker keeps is the page with ``data-offline`` on <html>: served so
    here, the note is inserted as on a phone without a connection."""
    ids = evening(server.database_url)
    # The worker is kept out: its answers would not pass through the route below.
    context = _context(browser, server, VIEWPORTS["390"], service_workers="block")
    page = context.new_page()
    log_in(page, server.url)
    url = f"{server.url}/s/{ids['sitting']}/"

    def kept_copy(route):
        response = route.fetch()
        html = response.text().replace("<html ", '<html data-offline="2026-01-01T20:00:00Z" ', 1)
        route.fulfill(response=response, body=html)

    page.route(url, kept_copy)
    page.goto(url)
    note = page.locator(".offline-note")
    expect(note).to_be_visible()
    overlap = """() => {
      const a = document.querySelector('.offline-note').getBoundingClientRect();
      const b = document.querySelector('.topbar').getBoundingClientRect();
      return a.bottom > b.top + 0.5 && b.bottom > a.top + 0.5;
    }"""
    for y in (0, 400, 1200):
        page.evaluate(f"scrollTo(0, {y})")
        assert not page.evaluate(overlap), y
    problems, stops = walk(page, "offline copy")
    assert stops > 5 and problems == []
    context.close()


def test_the_settle_ups_offline_banner_hides_no_control_and_the_row_keeps_the_focus(
    server, browser, artifacts
):
    context, page, cdp, _seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    button = page.locator("#suggestion-1 form[data-pay] button")
    button.focus()
    network(cdp, offline=True)
    page.keyboard.press("Enter")
    banner = page.locator("#pay-pending")
    expect(banner).to_be_visible()
    expect(button).to_be_disabled()
    # In flight and failed offline: the keyboard is still on the tapped row, not on <body>.
    expect(page.locator("#suggestion-1")).to_be_focused()
    page.screenshot(path=artifacts / "settle-offline-focus.png")
    problems, stops = walk(page, "settle offline")
    assert stops > 10
    assert problems == []
    network(cdp, offline=False)
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    assert errors == []
    context.close()
