"""Two scorekeepers on one sitting, each on their own phone (two browser contexts): each sees
the other's saves within a few seconds without reloading, while what they are typing stays
as typed; a save made from a board that is out of date is accepted and the board catches up.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.browser.test_console_clean import Console, log_in
from tests.reliability.realserver import SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# A poll every 3 seconds; "within a few seconds" leaves room for a slow shared machine.
SEEN_WITHIN_MS = 8_000


def _fill_game(page, winner, counts):
    """Winner and card counts, each confirmed the way a thumb does (Tab)."""
    page.locator(f'#record-form label.chip:has(input[name="winner"][value="{winner}"])').click()
    page.wait_for_selector("#cards_1")
    page.wait_for_function(IDLE)
    for index, count in counts.items():
        field = page.locator(f"#cards_{index}")
        field.fill(str(count))
        field.press("Tab")
        page.wait_for_function(IDLE)


def _save(page):
    page.locator('#record-form button[name="action"][value="save"]').click()
    status = page.locator('#board-inner .alert[role="status"]')
    status.wait_for()
    return int(re.search(r"(\d+)", status.inner_text())[1])


def test_two_scorekeepers_see_each_others_saves(server, browser, artifacts):
    seeded = dbtool(server.database_url, "seed", "--keepers", "1")
    sitting = f"{server.url}/s/{seeded['sitting']}/"
    phones = []
    for username in (SCOREKEEPER, seeded["keepers"][0]):
        page = phone_context(browser).new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        console = Console(page)
        log_in(page, server.url, username)
        page.goto(sitting)
        phones.append((page, console))
    (lan, lan_console), (minh, minh_console) = phones

    # Lan starts a game and is typing a count, not yet confirmed, when Minh saves his.
    lan.locator('#record-form label.chip:has(input[name="winner"][value="Bình"])').click()
    lan.wait_for_selector("#cards_0")
    lan.wait_for_function(IDLE)
    lan.locator("#cards_0").fill("7")
    _fill_game(minh, "An", {1: 2, 2: 3, 3: 4})
    first = _save(minh)
    assert first == 1

    # Within a poll Lan's board shows Minh's game, the new totals and who leads next...
    expect(lan.locator("#game-1")).to_be_visible(timeout=SEEN_WITHIN_MS)
    expect(lan.locator("#leader-line")).to_contain_text("An", timeout=SEEN_WITHIN_MS)
    lan_totals = lan.locator("#totals").inner_text()
    assert lan_totals == minh.locator("#totals").inner_text()
    # ...and the number she was typing is untouched and still hers to finish.
    assert lan.locator("#cards_0").input_value() == "7"
    assert lan.evaluate("document.activeElement.id") == "cards_0"
    assert lan.locator('#record-form input[name="winner"][value="Bình"]').is_checked()
    lan.screenshot(path=artifacts / "lan-sees-minhs-game.png")

    # Lan saves from the form she began before Minh's game: accepted as game 2.
    lan.locator("#cards_0").press("Tab")
    lan.wait_for_function(IDLE)
    _fill_game_rest(lan)
    assert _save(lan) == 2
    expect(lan.locator("#game-1")).to_be_visible()
    # Minh's board catches up with Lan's game by itself.
    expect(minh.locator("#game-2")).to_be_visible(timeout=SEEN_WITHIN_MS)
    expect(minh.locator("#leader-line")).to_contain_text("Bình", timeout=SEEN_WITHIN_MS)
    assert minh.locator("#totals").inner_text() == lan.locator("#totals").inner_text()
    minh.screenshot(path=artifacts / "minh-sees-lans-game.png")

    audit = dbtool(server.database_url, "audit", str(seeded["sitting"]))
    assert audit["problems"] == [] and [g["number"] for g in audit["games"]] == [1, 2]
    assert not lan_console.problems("lan") and not minh_console.problems("minh")


def _fill_game_rest(page):
    for index in (2, 3):
        field = page.locator(f"#cards_{index}")
        field.fill("5")
        field.press("Tab")
        page.wait_for_function(IDLE)
