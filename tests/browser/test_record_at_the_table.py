"""The record form under real table conditions, in Chromium on a 390 px phone, against gunicorn.

A slow network (the devtools protocol's ``Network.emulateNetworkConditions``) must not change a
number the scorekeeper typed, and a save that meets no network, or a server that died, must
land exactly once when the network comes back. Screenshots land in ``artifacts/browser/``.

``RECORD_TRIALS`` sets the number of typing trials per latency (7 by default: 21 in all).
"""

from __future__ import annotations

import os
import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser

TRIALS = int(os.environ.get("RECORD_TRIALS", "7"))
IDLE = "() => !document.querySelector('.htmx-request')"
CARDS = "[...document.querySelectorAll('#record-form .loser:not([hidden]) input[data-cards]')]"


def log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def open_sitting(browser, server):
    seeded = dbtool(server.database_url, "seed")
    context = phone_context(browser)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, server.url)
    page.goto(f"{server.url}/s/{seeded['sitting']}/")
    return context, page, seeded, errors


def slow_network(context, page, latency_ms: int):
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    return cdp


def tap_winner(page, name):
    page.locator(f'#record-form label.chip:has(input[name="winner"][value="{name}"])').click()
    # The loser rows come with the server's answer; a person waits for them to show.
    page.locator("#record-form .loser:not([hidden]) input[data-cards]").first.wait_for()


def held(page) -> list[str]:
    return page.evaluate(f"() => {CARDS}.map(i => i.value)")


def loser_names(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#record-form .loser:not([hidden])')]"
        ".filter(r => r.querySelector('input[data-cards]')).map(r => r.dataset.name)"
    )


def type_counts(page, counts: list[int], rng: random.Random) -> None:
    """Tap the first count, then type each number at human speed and go on to the next loser by
    Enter (the keypad's Next) or by tapping it, 100–300 ms between fields."""
    fields = page.locator("#record-form .loser:not([hidden]) input[data-cards]")
    fields.nth(0).click()
    for index, count in enumerate(counts):
        page.keyboard.type(str(count), delay=rng.randint(50, 120))
        page.wait_for_timeout(rng.randint(100, 300))
        if index + 1 < len(counts):
            if rng.random() < 0.5:
                page.keyboard.press("Enter")
            else:
                fields.nth(index + 1).click()
        else:
            page.keyboard.press("Enter")  # the last one: the keypad closes, the preview comes


def save(page, number: int) -> None:
    """Tap "Lưu ván" and wait for the board to say game ``number`` was saved."""
    page.locator("#record-form button[data-save]").click()
    expect(page.locator("#saved-note")).to_have_text(
        re.compile(rf"Đã lưu ván {number}\."), timeout=30_000
    )


def saved_cards(server, sitting) -> list[dict[str, int]]:
    games = dbtool(server.database_url, "audit", str(sitting))
    assert games["problems"] == []
    return [
        {name: hand["cards"] for name, hand in game["record"]["hands"].items()}
        for game in sorted(games["games"], key=lambda g: g["number"])
    ]


@pytest.mark.parametrize("latency", [150, 400, 800])
def test_every_number_typed_is_held_and_saved_on_a_slow_network(server, browser, latency):
    context, page, seeded, errors = open_sitting(browser, server)
    slow_network(context, page, latency)
    rng = random.Random(latency)
    typed: list[dict[str, int]] = []
    for trial in range(TRIALS):
        tap_winner(page, rng.choice(seeded["members"]))
        names = loser_names(page)
        # Two-digit counts are the ones a stale answer used to cut short (11 -> 1 -> 10).
        counts = [rng.choice([rng.randint(1, 9), rng.randint(10, 12)]) for _ in names]
        type_counts(page, counts, rng)
        assert held(page) == [str(c) for c in counts], f"trial {trial}, answers still coming"
        page.wait_for_function(IDLE, timeout=30_000)
        page.wait_for_timeout(latency)  # any last answer has landed
        assert held(page) == [str(c) for c in counts], f"trial {trial}, after the answers"
        save(page, trial + 1)
        typed.append(dict(zip(names, counts, strict=True)))
    assert saved_cards(server, seeded["sitting"]) == typed
    assert errors == []
    context.close()


def test_a_save_without_network_lands_once_when_it_comes_back(server, browser, artifacts):
    context, page, seeded, errors = open_sitting(browser, server)
    tap_winner(page, "An")
    type_counts(page, [3, 11, 7], random.Random(1))
    page.wait_for_function(IDLE)
    page.screenshot(path=artifacts / "common-game-filled.png")
    context.set_offline(True)
    page.locator("#record-form button[data-save]").click()
    banner = page.locator("#save-pending")
    expect(banner).to_be_visible()
    assert "Chưa lưu" in banner.inner_text()
    expect(page.locator("#games .game.pending")).to_have_count(1)
    assert "Chi 11" in page.locator("#games .game.pending").inner_text()
    assert held(page) == ["3", "11", "7"]  # the form stays filled
    page.locator("#record-form button[data-retry]").click()  # still offline: still pending
    expect(banner).to_be_visible()
    page.screenshot(path=artifacts / "pending-offline-save.png")
    page.locator("#games .game.pending").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "pending-offline-save-board.png")
    pending = page.evaluate("() => JSON.parse(localStorage.getItem('tienlen.pending.v1'))")
    assert len(pending) == 1
    context.set_offline(False)  # the browser's online event sends it again by itself
    alert = page.locator('#board-inner .alert[role="status"]')
    alert.wait_for(timeout=20_000)
    assert "1" in alert.inner_text()
    expect(page.locator("#games .game.pending")).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('tienlen.pending.v1')") == "[]"
    assert saved_cards(server, seeded["sitting"]) == [{"Bình": 3, "Chi": 11, "Dũng": 7}]
    assert errors == []
    context.close()


def test_a_pending_save_survives_a_reload_and_lands_once(server, browser, artifacts):
    context, page, seeded, _errors = open_sitting(browser, server)
    tap_winner(page, "Chi")
    type_counts(page, [2, 5, 9], random.Random(2))
    page.wait_for_function(IDLE)
    token = page.locator('#record-form input[name="token"]').input_value()
    # The save request dies on the way (the café's Wi-Fi): nothing reaches the server.
    page.route("**/games/", lambda route: route.abort("connectionreset"))
    page.locator("#record-form button[data-save]").click()
    expect(page.locator("#save-pending")).to_be_visible()
    page.reload()
    # After the reload the game is still there, pending, and still not sent.
    expect(page.locator("#games .game.pending")).to_have_count(1)
    expect(page.locator("#save-pending")).to_be_visible()
    page.screenshot(path=artifacts / "pending-after-reload.png")
    page.unroute("**/games/")
    page.locator("#record-form button[data-retry]").click()
    page.locator('#board-inner .alert[role="status"]').wait_for(timeout=20_000)
    audit = dbtool(server.database_url, "audit", str(seeded["sitting"]))
    assert [g["token"] for g in audit["games"]] == [token]
    assert saved_cards(server, seeded["sitting"]) == [{"An": 2, "Bình": 5, "Dũng": 9}]
    context.close()


def test_a_save_when_the_server_dies_lands_once_after_it_restarts(server, browser):
    context, page, seeded, _errors = open_sitting(browser, server)
    tap_winner(page, "Dũng")
    type_counts(page, [4, 13, 6], random.Random(3))
    page.wait_for_function(IDLE)
    slow_network(context, page, 400)
    page.locator("#record-form button[data-save]").click()
    server.kill()  # while the save is on its way
    expect(page.locator("#save-pending")).to_be_visible(timeout=20_000)
    expect(page.locator("#games .game.pending")).to_have_count(1)
    server.start()
    # Nobody taps anything: the page sends it again by itself.
    page.locator('#board-inner .alert[role="status"]').wait_for(timeout=45_000)
    page.wait_for_timeout(1500)  # a second send would have landed by now
    assert saved_cards(server, seeded["sitting"]) == [{"An": 4, "Bình": 13, "Chi": 6}]
    context.close()


def test_a_failed_save_focuses_the_first_field_to_fix_above_the_bar(server, browser, artifacts):
    context, page, _seeded, errors = open_sitting(browser, server)
    tap_winner(page, "An")
    fields = page.locator("#record-form .loser:not([hidden]) input[data-cards]")
    fields.nth(0).fill("4")
    fields.nth(1).fill("14")  # refused, not clamped to 13
    page.wait_for_function(IDLE)
    page.locator("#record-form button[data-save]").click()
    note = page.locator("#save-bar .bar-note.error")
    expect(note).to_be_visible()
    assert "Chưa lưu" in note.inner_text()
    focused = page.evaluate("() => document.activeElement.name")
    assert focused == "cards_2"
    assert page.locator("#cards_2").get_attribute("aria-invalid") == "true"
    assert page.locator("#cards_2").input_value() == "14"
    assert "0 đến 13" in page.locator("#err-cards_2").inner_text()
    box = page.locator("#cards_2").bounding_box()
    bar = page.locator("#save-bar").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], "hidden behind the save bar"
    page.screenshot(path=artifacts / "failed-save.png")
    assert errors == []
    context.close()


def test_adding_a_chop_keeps_the_page_still_and_focuses_the_new_field(server, browser):
    context, page, _seeded, _errors = open_sitting(browser, server)
    tap_winner(page, "An")
    button = page.locator('#record-form button[value="add_chain"]')
    button.scroll_into_view_if_needed()
    before = page.evaluate("() => window.scrollY")
    button.click()
    page.wait_for_function("() => document.activeElement.name === 'chat_0_0_player'")
    page.wait_for_function(IDLE)
    assert abs(page.evaluate("() => window.scrollY") - before) < 80
    # No problem is shown for the empty steps until they are touched or a save is tried.
    assert page.locator("#record-form .field-error").count() == 0
    context.close()


VISIBLE = """(selector) => {
    const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
    const bar = document.getElementById('save-bar').getBoundingClientRect().top;
    return [...document.querySelectorAll(selector)].filter(el => el.offsetParent !== null)
        .map(el => el.closest('label.chip') || el).map(el => el.getBoundingClientRect())
        .every(box => box.top >= top - 0.5 && box.bottom <= bar + 0.5);
}"""


def test_the_common_game_is_five_taps_on_one_screen(server, browser, artifacts):
    context, page, seeded, errors = open_sitting(browser, server)
    tap_winner(page, "An")
    type_counts(page, [2, 3, 4], random.Random(4))
    save(page, 1)
    # After a save: the note, the winner chips and the save button, nothing under the bar.
    page.wait_for_function(IDLE)
    page.wait_for_timeout(300)
    assert page.evaluate(VISIBLE, "#saved-note")
    assert page.evaluate(VISIBLE, '#record-form input[name="winner"]')
    scrolled = page.evaluate("() => window.scrollY")
    taps = 0
    page.locator('#record-form label.chip:has(input[name="winner"][value="Bình"])').click()
    taps += 1
    fields = page.locator("#record-form .loser:not([hidden]) input[data-cards]")
    fields.nth(2).wait_for()
    assert page.evaluate(VISIBLE, "#record-form .loser:not([hidden]) input[data-cards]")
    fields.nth(0).click()
    taps += 1
    for count in ("5", "10"):
        page.keyboard.type(count, delay=60)
        page.keyboard.press("Enter")  # the keypad's Next
        taps += 1
    page.keyboard.type("7", delay=60)
    page.wait_for_function(IDLE)
    assert page.evaluate("() => window.scrollY") == scrolled, "the entry needed a scroll"
    assert page.evaluate(VISIBLE, "#record-form .loser:not([hidden]) input[data-cards]")
    assert page.evaluate(VISIBLE, '#record-form input[name="winner"]')
    page.screenshot(path=artifacts / "common-game-filled.png")
    save(page, 2)
    taps += 1
    assert taps == 5
    assert saved_cards(server, seeded["sitting"])[1] == {"An": 5, "Chi": 10, "Dũng": 7}
    assert errors == []
    context.close()
