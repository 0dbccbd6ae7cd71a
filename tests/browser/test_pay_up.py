"""Paying up at the table, on a phone (390 px) with a slow network (400 ms, the devtools
protocol's ``Network.emulateNetworkConditions``) or none.

A pay tap made offline lands exactly once when the network comes back; two taps on the same
spot record one payment (the tapped row stays where it was, as the payment); a sitting in a
closed period offers nothing to record or pay. Screenshots land in ``artifacts/browser/``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, run_module

pytestmark = pytest.mark.browser

LATENCY_MS = 400
SEED = "tests.browser.pay_night"


def log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def network(cdp, *, offline: bool) -> None:
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": offline,
            "latency": LATENCY_MS,
            "downloadThroughput": -1,
            "uploadThroughput": -1,
        },
    )


def open_page(browser, server, path: str):
    seeded = run_module(server.database_url, SEED, "seed")
    context = phone_context(browser)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, server.url)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False)
    page.goto(server.url + path.format(**seeded))
    return context, page, cdp, seeded, errors


def screen_y(page, selector: str) -> float:
    """Where an element's top is on the screen: what a resting finger is on."""
    return page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top", selector)


def payments(server, seeded, kind: str = "count", key: str = "tonight") -> dict:
    return run_module(server.database_url, SEED, kind, str(seeded[key]))


def test_a_pay_tap_without_network_lands_once_when_it_comes_back(server, browser, artifacts):
    context, page, cdp, seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    first = page.locator("#suggestion-1")
    button = first.locator("form[data-pay] button")
    label = button.inner_text()
    assert " trả " in label and "₫" in label  # "Anh Hai trả Bé Năm 30.000 ₫"
    # Where the finger rests, read before the tap (in view, so the tap scrolls nothing).
    button.scroll_into_view_if_needed()
    top = screen_y(page, "#suggestion-1")
    network(cdp, offline=True)
    box = button.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    banner = page.locator("#pay-pending")
    # Each state waited for, not read at once: on a loaded machine each comes late.
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Chưa lưu")
    expect(button).to_be_disabled()
    expect(button).to_contain_text("Chưa lưu")
    # The banner is drawn over the page: what is under the finger has not moved.
    assert abs(screen_y(page, "#suggestion-1") - top) < 1
    # What the phone shows (a full-page shot resizes the viewport, and the page with it).
    page.screenshot(path=artifacts / "settle-offline-tap.png")
    retry = page.locator("button[data-pay-retry]").bounding_box()  # a finger, no scrolling
    page.touchscreen.tap(retry["x"] + retry["width"] / 2, retry["y"] + retry["height"] / 2)
    expect(banner).to_be_visible()  # still offline: still waiting
    assert abs(screen_y(page, "#suggestion-1") - top) < 1
    assert payments(server, seeded)["all"] == 0
    network(cdp, offline=False)  # the browser's online event sends it again by itself
    paid = page.locator("#suggestion-1.paid")
    paid.wait_for(timeout=20_000)
    expect(paid).to_contain_text("✓ Đã ghi:")
    expect(paid).to_contain_text("→")
    expect(banner).to_be_hidden()
    assert abs(screen_y(page, "#suggestion-1") - top) < 1  # the row did not move
    page.screenshot(path=artifacts / "settle-after-reconnect.png")
    page.wait_for_function("() => localStorage.getItem('tienlen.pending.v1') === '[]'")
    deadline = time.monotonic() + 20
    while not payments(server, seeded)["standing"] and time.monotonic() < deadline:
        page.wait_for_timeout(LATENCY_MS)
    page.wait_for_timeout(2 * LATENCY_MS)  # and nothing more comes after it
    assert len(payments(server, seeded)["standing"]) == 1
    assert payments(server, seeded)["all"] == 1
    page.screenshot(path=artifacts / "settle-after-reconnect.png", full_page=True)
    assert errors == []
    context.close()


def _tap_twice_on_one_spot(page, selector: str) -> tuple[float, float]:
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(150)  # a finger resting on the glass: well inside the 400 ms
    page.touchscreen.tap(x, y)
    return x, y


def test_tapping_twice_on_one_spot_records_one_payment(server, browser, artifacts):
    context, page, _cdp, seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    rows = page.locator("#plan article.suggestion").count()
    assert rows >= 2, "a plan with more than one payment, so a second could slide in"
    second = page.locator("#suggestion-2").inner_text()
    page.locator("#suggestion-1 form[data-pay] button").scroll_into_view_if_needed()
    second_y = screen_y(page, "#suggestion-2")
    x, y = _tap_twice_on_one_spot(page, "#suggestion-1 form[data-pay] button")
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    page.touchscreen.tap(x, y)  # and once more after the answer landed
    page.wait_for_timeout(3 * LATENCY_MS)
    assert payments(server, seeded)["all"] == 1
    # The next suggestion is still the second row, as it was: nothing slid into the first.
    assert page.locator("#plan article.suggestion").count() == rows
    assert page.locator("#suggestion-2").inner_text() == second
    assert abs(screen_y(page, "#suggestion-2") - second_y) < 1
    page.screenshot(path=artifacts / "settle-tapped-twice.png", full_page=True)
    # "Hoàn tác" voids it: the suggestion is back in its row.
    page.locator("#suggestion-1.paid button").click()
    page.locator("#suggestion-1 form[data-pay]").wait_for(timeout=20_000)
    assert payments(server, seeded)["standing"] == []
    assert errors == []
    context.close()


def test_the_group_settle_up_records_one_payment_for_two_taps(server, browser, artifacts):
    context, page, _cdp, seeded, errors = open_page(browser, server, "/groups/{group}/settle/")
    page.screenshot(path=artifacts / "group-settle.png", full_page=True)
    _tap_twice_on_one_spot(page, "#suggestion-1 form[data-pay] button")
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    page.wait_for_timeout(3 * LATENCY_MS)
    assert payments(server, seeded, "group-count", "group")["all"] == 1
    page.screenshot(path=artifacts / "group-settle-paid.png", full_page=True)
    assert errors == []
    context.close()


def test_a_frozen_sitting_shows_no_recording_or_paying_controls(server, browser, artifacts):
    context, page, _cdp, seeded, errors = open_page(browser, server, "/s/{frozen}/")
    expect(page.locator("#frozen")).to_be_visible()
    expect(page.locator("#record-form")).to_have_count(0)
    expect(page.locator(f'form[action="/s/{seeded["frozen"]}/undo/"]')).to_have_count(0)
    page.screenshot(path=artifacts / "frozen-sitting.png", full_page=True)
    page.goto(f"{server.url}/s/{seeded['frozen']}/settle/")
    expect(page.locator("#frozen")).to_be_visible()
    expect(page.locator("form[data-pay]")).to_have_count(0)
    expect(page.locator('#settle form[method="post"]')).to_have_count(0)
    page.screenshot(path=artifacts / "frozen-settle.png", full_page=True)
    page.goto(f"{server.url}/s/{seeded['frozen']}/g/1/")
    expect(page.locator('a[href$="/edit/"]')).to_have_count(0)
    expect(page.locator('form[action$="/void/"]')).to_have_count(0)
    assert errors == []
    context.close()


def test_a_paid_row_gives_its_space_back_once_the_page_is_moved(server, browser, artifacts):
    """The tapped row keeps the suggestion's height while a finger may rest on it (nothing
    slides under it), and no more than its own once the page is scrolled by hand: no empty
    band under each "✓ Đã ghi …"."""
    context, page, _cdp, _seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    button = page.locator("#suggestion-1 form[data-pay] button")
    button.scroll_into_view_if_needed()
    before = page.locator("#suggestion-1").bounding_box()["height"]
    second_y = screen_y(page, "#suggestion-2")
    button.click()
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    kept = page.locator("#suggestion-1").bounding_box()["height"]
    assert kept >= before - 1 and abs(screen_y(page, "#suggestion-2") - second_y) < 1
    page.mouse.move(195, 400)
    page.mouse.wheel(0, 40)
    page.wait_for_function(
        "() => document.getElementById('suggestion-1').style.minHeight === ''", timeout=5_000
    )
    row = page.locator("#suggestion-1").bounding_box()["height"]
    content = page.locator("#suggestion-1 .paid-row").bounding_box()["height"]
    assert row <= content + 24, (row, content)  # its own line and padding, no empty band
    page.screenshot(path=artifacts / "paid-row-released.png", full_page=True)
    assert errors == []
    context.close()
