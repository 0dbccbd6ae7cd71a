"""The end of the night with a keyboard and a screen reader, on a 390 px phone with 400 ms of
latency: a suggestion is paid and undone with Enter alone, the focus staying on the row each
time (its "Hoàn tác", then its pay button again), and the page's one live region (there from
the start, outside what is swapped) says each payment; a focused chip of the record form is
never under the fixed save bar. Screenshots land in ``artifacts/browser/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_pay_up import open_page
from tests.browser.test_record_at_the_table import open_sitting, slow_network, tap_winner

pytestmark = pytest.mark.browser

ACTIVE = """() => { const a = document.activeElement; const row = a && a.closest('article');
  return a ? [a.tagName, (a.textContent || '').trim(), row ? row.id : ''].join('|') : ''; }"""


def _tab_to(page, selector: str, limit: int = 120) -> None:
    """Tab from the top of the page until ``selector`` has the focus, as a keyboard would."""
    page.locator("body").focus()
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("language", ["vi", "en"])
def test_a_keyboard_pays_a_suggestion_and_undoes_it_with_enter_alone(
    server, browser, artifacts, language
):
    context, page, _cdp, _seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    if language == "en":
        page.get_by_role("button", name="EN").click()
        page.wait_for_function("() => document.documentElement.lang === 'en'")
    region = page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    assert page.evaluate(
        "() => !document.getElementById('settle').contains(document.getElementById('announce'))"
    )
    _tab_to(page, "#suggestion-1 form[data-pay] button")
    page.keyboard.press("Enter")
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    undo = page.locator("#suggestion-1.paid .paid-row button")
    expect(undo).to_be_focused()
    expect(region).to_contain_text("Đã ghi" if language == "vi" else "Recorded")
    page.screenshot(path=artifacts / f"paid-focus-{language}.png")
    # The next Tab goes on from the row, not back to the top or to the last payment's button.
    page.keyboard.press("Tab")
    after = page.evaluate(
        """() => { const row = document.getElementById('suggestion-1');
        const at = row.compareDocumentPosition(document.activeElement);
        const moved = document.activeElement !== document.body;
        return !!(at & Node.DOCUMENT_POSITION_FOLLOWING) && moved; }"""
    )
    assert after, page.evaluate(ACTIVE)
    page.keyboard.press("Shift+Tab")
    expect(undo).to_be_focused()
    page.keyboard.press("Enter")
    pay = page.locator("#suggestion-1 form[data-pay] button")
    pay.wait_for(timeout=20_000)
    expect(pay).to_be_focused()
    expect(region).to_contain_text("Đã huỷ" if language == "vi" else "Voided")
    page.screenshot(path=artifacts / f"undone-focus-{language}.png")
    assert errors == []
    context.close()


#: Every focused control of the record form clear of the top bar and of the save bar (a chip's
#: whole box, its label).
CLEAR = """() => {
  const a = document.activeElement;
  if (!a || !a.closest('#record-form')) return null;
  const el = a.closest('label.chip') || a;
  const box = el.getBoundingClientRect();
  const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const bar = document.getElementById('save-bar').getBoundingClientRect().top;
  const clear = box.top >= top - 0.5 && box.bottom <= bar + 0.5;
  return {name: a.name || a.textContent.trim(), top: box.top, bottom: box.bottom,
          limit: [top, bar], ok: el.closest('#save-bar') !== null || clear};
}"""


def test_a_focused_chip_is_never_under_the_save_bar(server, browser, artifacts):
    context, page, _seeded, errors = open_sitting(browser, server)
    slow_network(context, page, 400)
    tap_winner(page, "An")
    page.locator('#record-form button[value="add_chain"]').click()
    page.wait_for_function("() => document.activeElement.name === 'chat_0_0_player'")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    # From the first field of the form to its save button, by Tab alone.
    page.locator('#record-form input[name="winner"]:checked').focus()
    seen: list[str] = []
    problems = []
    for _ in range(200):
        page.keyboard.press("Tab")
        place = page.evaluate(CLEAR)
        if place is None:
            break
        seen.append(place["name"])
        if not place["ok"]:
            problems.append(place)
            page.screenshot(path=artifacts / f"under-the-bar-{len(seen)}.png")
    # The heo chips of the loser rows and the chop's chips were among them.
    assert any(name.startswith("heo") for name in seen), seen
    assert any(name.startswith("chat_0") for name in seen), seen
    assert problems == []
    assert errors == []
    context.close()
