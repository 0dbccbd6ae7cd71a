"""A player's own page on a phone (390 px, 400 ms of latency) follows the table: its polls are
304s while nothing moves and stop in a hidden tab; while the scorekeeper saves a game on
another phone, the player's page shows the new balance within 5 s without a reload, and what
the player was reading stays where it was (the section on screen, the focused button). A
freed name's old link says so on the open page, and answers the page that explains what
happened and what to do, in both languages. Screenshots land in ``artifacts/browser/``."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_join_table import slow_phone
from tests.browser.test_pay_up import log_in
from tests.browser.test_record_at_the_table import save, tap_winner, type_counts
from tests.reliability.realserver import run_module

pytestmark = pytest.mark.browser

SEED = "tests.browser.player_night"
JOIN_SEED = "tests.browser.join_night"
#: The issue's bound: a save shows on the player's page within this many seconds.
WITHIN_MS = 5_000


def vnd(amount: int) -> re.Pattern[str]:
    """How the page writes an amount in Vietnamese (18.000 ₫), sign and spaces aside."""
    digits = f"{abs(amount):,}".replace(",", ".")
    return re.compile(rf"{'-' if amount < 0 else ''}{re.escape(digits)}\s₫")


def screen_y(page, selector: str) -> float:
    return page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top", selector)


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_players_page_shows_a_save_within_5_s_without_moving(server, browser, artifacts):
    seeded = run_module(server.database_url, SEED, "seed")
    before = run_module(server.database_url, SEED, "figures", str(seeded["payee"]))
    player, page, player_errors = slow_phone(browser)
    link = f"{server.url}/p/{seeded['token']}/"
    polls: list[int] = []
    page.on(
        "response",
        lambda r: (
            polls.append(r.status)
            if r.url == link and r.request.headers.get("hx-request")
            else None
        ),
    )
    page.goto(link)
    expect(page.locator("#tonight-net")).to_have_text(vnd(before["tonight"]))
    expect(page.locator("#group-balance")).to_have_text(vnd(before["balance"]))
    fits(page)
    page.screenshot(path=artifacts / "player-before.png", full_page=True)
    page.evaluate("() => { window.stillHere = true; }")  # gone if the page reloads
    # While nothing moves, each poll is a 304 (nothing rendered, nothing swapped).
    page.wait_for_timeout(4_500)
    assert polls and set(polls) == {304}, polls
    # In a hidden tab (a phone in a pocket) it does not poll at all.
    page.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    polls.clear()
    page.wait_for_timeout(4_500)
    assert polls == []
    page.evaluate("() => { delete document.hidden; }")

    # The player reads the payment waiting for "đã nhận", its button focused.
    page.evaluate("() => document.getElementById('waiting').scrollIntoView()")
    confirm = page.locator(f"#receipt-{seeded['settlement']} button")
    confirm.focus()
    reading = screen_y(page, "#waiting")

    keeper, home, keeper_errors = slow_phone(browser)
    log_in(home, server.url)
    home.goto(f"{server.url}/s/{seeded['sitting']}/")
    tap_winner(home, "Bé Năm")
    type_counts(home, [2, 3, 4], random.Random(46))
    save(home, 4)
    saved = time.monotonic()
    # The player's page changes, by itself, within 5 s of the save's answer...
    expect(page.locator("#group-balance")).not_to_have_text(
        vnd(before["balance"]), timeout=WITHIN_MS
    )
    shown = time.monotonic() - saved
    # ... to what the ledger now says.
    after = run_module(server.database_url, SEED, "figures", str(seeded["payee"]))
    assert after["balance"] != before["balance"] and after["tonight"] != before["tonight"]
    expect(page.locator("#group-balance")).to_have_text(vnd(after["balance"]))
    expect(page.locator("#tonight-net")).to_have_text(vnd(after["tonight"]))
    expect(page.locator("#latest-games li").first).to_contain_text("Ván 4")
    print(f"\nthe save showed on the player's page {shown:.2f} s after the save answered")
    assert page.evaluate("() => window.stillHere === true"), "the page reloaded"
    # The latest games grew above what the player reads; it stayed where it was on screen.
    assert abs(screen_y(page, "#waiting") - reading) <= 2
    assert page.evaluate(
        "(id) => document.activeElement === document.querySelector(`#receipt-${id} button`)",
        seeded["settlement"],
    ), "the focus left the button"
    page.screenshot(path=artifacts / "player-after-reading.png")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / "player-after.png", full_page=True)

    # A second save while the player scrolls back up: the page follows again.
    home.goto(f"{server.url}/s/{seeded['sitting']}/")
    tap_winner(home, "Chú Tư")
    type_counts(home, [1, 5, 2], random.Random(47))
    save(home, 5)
    expect(page.locator("#latest-games li").first).to_contain_text("Ván 5", timeout=WITHIN_MS)
    again = run_module(server.database_url, SEED, "figures", str(seeded["payee"]))
    expect(page.locator("#group-balance")).to_have_text(vnd(again["balance"]))
    expect(page.locator("#latest-games li").first).to_contain_text("Ván 5")
    fits(page)
    page.screenshot(path=artifacts / "player-second-save.png", full_page=True)
    assert player_errors + keeper_errors == []
    player.close()
    keeper.close()


def test_a_freed_names_old_link_explains_itself(server, browser, artifacts):
    seeded = run_module(server.database_url, JOIN_SEED, "seed")
    keeper, home, keeper_errors = slow_phone(browser)
    log_in(home, server.url)
    home.goto(f"{server.url}/s/{seeded['sitting']}/join/")
    home.get_by_role("button", name="Bật mã mời cả bàn").click()
    url = home.locator("#join-url").input_value()

    # A second phone opens the code too, a moment before the first takes "Chú Tư".
    late, late_page, late_errors = slow_phone(browser)
    late_page.goto(url)
    phone, page, phone_errors = slow_phone(browser)
    page.goto(url)
    page.get_by_role("button", name="Chú Tư", exact=True).click()
    page.wait_for_url(f"{server.url}/p/**")
    link = page.url
    expect(page.locator("h1")).to_contain_text("Chú Tư")

    # Its tap on the same name is refused, and the scorekeeper sees that it asked.
    late_page.get_by_role("button", name="Chú Tư", exact=True).click()
    expect(late_page.locator("#join-error")).to_contain_text("đã có người chọn trên một máy khác")
    assert f"{server.url}/p/" not in late_page.url
    home.reload()
    tu = home.locator("#joined li", has_text="Chú Tư")
    expect(tu.locator(".join-asked")).to_contain_text("Một máy khác đã xin tên Chú Tư")
    fits(home)
    home.screenshot(path=artifacts / "keeper-sees-the-ask.png", full_page=True)

    # The scorekeeper frees the name while the page is open: the page says so at once.
    tu.locator("form button").click()
    expect(home.locator("#joined li", has_text="Chú Tư")).to_contain_text("chưa vào")
    expect(page.locator("#live-gone")).to_be_visible(timeout=WITHIN_MS)
    page.screenshot(path=artifacts / "freed-open-page.png")

    # Opened again (the saved link, a bookmark): the page that says what happened and what to do.
    response = page.goto(link)
    assert response is not None and response.status == 410
    gone = page.locator("#link-gone")
    expect(gone.locator("h1")).to_have_text("Liên kết riêng không còn mở được")
    expect(gone).to_contain_text("Người ghi sổ đã gỡ tên Chú Tư")
    expect(gone).to_contain_text("Quét lại mã QR")
    fits(page)
    page.screenshot(path=artifacts / "freed-link-vi.png", full_page=True)
    page.get_by_role("button", name="EN").click()
    expect(gone.locator("h1")).to_have_text("This personal link no longer opens")
    expect(gone).to_contain_text("The scorekeeper freed the name Chú Tư")
    fits(page)
    page.screenshot(path=artifacts / "freed-link-en.png", full_page=True)

    # Scanning the table's code again takes the name back, with a new link that opens.
    page.goto(url)
    page.get_by_role("button", name="Chú Tư", exact=True).click()
    page.wait_for_url(f"{server.url}/p/**")
    assert page.url != link
    expect(page.locator("h1")).to_contain_text("Chú Tư")
    assert keeper_errors + phone_errors + late_errors == []
    phone.close()
    late.close()
    keeper.close()
