"""Quick hands at the table, in Chromium on a 390 px phone: a chặt in a few taps (counted), the
saved game on the board before the server answers, and the sitting page by keyboard alone with
every tab stop in sight (never under the top bar or the save bar).

Screenshots of the chặt panel in both languages land in ``artifacts/browser/<test>/``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_record_at_the_table import (
    IDLE,
    open_sitting,
    saved_cards,
    slow_network,
    tap_winner,
)
from tests.reliability.realserver import dbtool

pytestmark = pytest.mark.browser


class Taps:
    """Taps a chip or a button of the record form, counting each, and waits for the answer
    (the next chips come with it, as a person waits for them to show)."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def chip(self, name: str, value: str) -> None:
        self.page.locator(
            f'#record-form label.chip:has(input[name="{name}"][value="{value}"])'
        ).click()
        self.settle()

    def button(self, value: str) -> None:
        self.page.locator(f'#record-form button[name="action"][value="{value}"]').click()
        self.settle()

    def settle(self) -> None:
        self.count += 1
        self.page.wait_for_timeout(50)  # htmx sends on the change event, just after the tap
        self.page.wait_for_function(IDLE)


def counts(page, values: dict[int, int]) -> None:
    for index, value in values.items():
        page.locator(f"#record-form #cards_{index}").fill(str(value))
    page.locator(f"#record-form #cards_{max(values)}").press("Tab")
    page.wait_for_timeout(50)
    page.wait_for_function(IDLE)


def save(page, number: int, text: str = "Đã lưu ván") -> None:
    page.locator("#record-form button[data-save]").click()
    expect(page.locator("#saved-note")).to_contain_text(f"{text} {number}", timeout=30_000)


def test_a_single_chop_takes_four_taps_and_a_chat_chong_seven(server, browser, artifacts):
    context, page, seeded, errors = open_sitting(browser, server)
    tap_winner(page, "An")
    counts(page, {1: 5, 2: 8, 3: 3})
    page.locator('#record-form button[value="add_chain"]').click()  # opens the chặt panel
    page.wait_for_function("() => document.activeElement.name === 'chat_0_0_player'")
    page.wait_for_function(IDLE)

    taps = Taps(page)
    taps.chip("chat_0_0_player", "Bình")  # who was chopped
    taps.chip("chat_0_0_cards", "2S")  # what: the 2♠ (a heo)
    taps.chip("chat_0_1_player", "Chi")  # who chopped
    taps.chip("chat_0_1_play", "tq")  # with a tứ quý
    assert taps.count == 4
    preview = page.locator("#preview").inner_text()
    assert "Bình → Chi" in preview, preview
    # The 2♠ is used: greyed in every hand, the chopped player's own included.
    for index in (1, 2, 3):
        assert page.locator(f'#record-form input[name="heo_{index}"][value="2S"]').is_disabled()
    # Bình chopped himself is not offered; 3 đôi thông does not chop... it does chop a heo.
    chopper_names = page.eval_on_selector_all(
        '#record-form input[name="chat_0_1_player"]', "els => els.map(e => e.value)"
    )
    assert chopper_names == ["An", "Chi", "Dũng"]
    page.locator("#record-form [data-key='chain-0']").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "chat-panel-vi.png")
    save(page, 1)

    # A chặt chồng: Chi's 2♥ chopped by Dũng's 3 đôi thông, Dũng chopped back by An's tứ quý.
    tap_winner(page, "Bình")
    counts(page, {0: 4, 2: 6, 3: 2})
    page.locator('#record-form button[value="add_chain"]').click()
    page.wait_for_function("() => document.activeElement.name === 'chat_0_0_player'")
    page.wait_for_function(IDLE)
    taps = Taps(page)
    taps.chip("chat_0_0_player", "Chi")
    taps.chip("chat_0_0_cards", "2H")
    taps.chip("chat_0_1_player", "Dũng")
    taps.chip("chat_0_1_play", "3dt")
    taps.button("add_step_0")  # + Chặt chồng: the previous chopper is the one chopped
    chopped_back = page.eval_on_selector_all(
        '#record-form input[name="chat_0_2_player"]', "els => els.map(e => e.value)"
    )
    assert "Dũng" not in chopped_back
    taps.chip("chat_0_2_player", "An")
    taps.chip("chat_0_2_play", "tq")
    assert taps.count == 7
    assert "Dũng → An" in page.locator("#preview").inner_text()
    assert page.locator('#record-form input[name="heo_2"][value="2H"]').is_disabled()
    page.locator("#record-form [data-key='chain-0']").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "chat-chong-vi.png")
    save(page, 2)
    games = dbtool(server.database_url, "audit", str(seeded["sitting"]))
    chains = [g["record"]["chat"] for g in sorted(games["games"], key=lambda g: g["number"])]
    assert chains == [
        [
            {
                "steps": [
                    {"player": "Bình", "play": "heo", "cards": ["2S"]},
                    {"player": "Chi", "play": "tq"},
                ],
                "victim_out": False,
            }
        ],
        [
            {
                "steps": [
                    {"player": "Chi", "play": "heo", "cards": ["2H"]},
                    {"player": "Dũng", "play": "3dt"},
                    {"player": "An", "play": "tq"},
                ],
                "victim_out": False,
            }
        ],
    ]

    # In English: the same panel, and the top card by rank and suit name.
    page.locator(".langswitch button").click()
    page.wait_for_load_state()
    tap_winner(page, "Chi")
    counts(page, {0: 4, 1: 6, 3: 2})
    page.locator('#record-form button[value="add_chain"]').click()
    page.wait_for_function(IDLE)
    taps = Taps(page)
    taps.chip("chat_0_0_player", "An")
    taps.chip("chat_0_0_play", "3dt")
    taps.chip("chat_0_1_player", "Dũng")
    taps.chip("chat_0_1_play", "3dt")
    page.locator("#record-form details.top > summary").last.click()
    taps.chip("chat_0_1_top_rank", "9")
    taps.chip("chat_0_1_top_suit", "H")
    panel = page.locator("#record-form [data-key='chain-0']")
    text = panel.inner_text()
    for words in ("Who was chopped", "Who chopped", "Top card", "Hearts", "Spades"):
        assert words in text, (words, text)
    panel.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "chat-panel-en.png")
    assert errors == []
    context.close()


def test_the_saved_game_is_on_the_board_before_the_answer(server, browser, artifacts):
    context, page, seeded, errors = open_sitting(browser, server)
    tap_winner(page, "An")
    counts(page, {1: 2, 2: 3, 3: 4})
    slow_network(context, page, 400)
    # The click and what the board shows right after it, in one go: nothing has come back yet.
    seen = page.evaluate(
        """() => {
            const button = document.querySelector('#record-form button[data-save]');
            button.click();
            const row = document.querySelector('#games .game.pending');
            return {row: row ? row.innerText : null, button: button.textContent,
                    disabled: button.disabled};
        }"""
    )
    assert seen["row"] is not None, "no pending row before the answer"
    assert "Đang lưu…" in seen["row"] and "An (nhất)" in seen["row"]
    assert seen["button"] == "Đang lưu…" and seen["disabled"]
    page.screenshot(path=artifacts / "pending-row.png")
    expect(page.locator("#saved-note")).to_contain_text("Đã lưu ván 1", timeout=30_000)
    # Confirmed: the pending row gave way to the saved game; the new totals are in sight, in
    # the strip under the top bar, with the note and the next game's winner chips.
    expect(page.locator("#games .game.pending")).to_have_count(0)
    expect(page.locator("#games .game")).to_have_count(1)
    strip = page.locator("#totals-strip .strip-line")
    expect(strip).to_be_visible()
    assert strip.inner_text().split() == ["An", "9k", "Bình", "−2k", "Chi", "−3k", "Dũng", "−4k"]
    box = strip.bounding_box()
    top = page.locator(".topbar").bounding_box()
    assert abs(box["y"] - (top["y"] + top["height"])) < 1
    note = page.locator("#saved-note").bounding_box()
    assert note["y"] >= box["y"] + box["height"] - 0.5, "the note is under the strip"
    assert page.evaluate("() => document.activeElement.id") == "saved-note"
    assert page.locator("#record-form button[data-save]").inner_text() == "Lưu ván"
    page.screenshot(path=artifacts / "after-save.png")
    assert saved_cards(server, seeded["sitting"]) == [{"Bình": 2, "Chi": 3, "Dũng": 4}]
    assert errors == []
    context.close()


# The focused element (a chip's label for its 1 px input) lies between the top bar and the save
# bar (a control on one of the bars: in the window).
FOCUS_SEEN = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return {name: 'body', seen: false};
    const shown = el.closest('label.chip') || el;
    const box = shown.getBoundingClientRect();
    const strip = document.querySelector('#totals-strip.shown .strip-line');
    const top = (strip || document.querySelector('.topbar')).getBoundingClientRect().bottom;
    const bar = document.getElementById('save-bar').getBoundingClientRect().top;
    const name = (el.name || el.id || el.textContent || el.tagName).trim().slice(0, 40);
    // The bars' own controls are on them, in the window.
    const onBar = el.closest('.topbar, #save-bar');
    const seen = onBar ? box.top >= 0 && box.bottom <= innerHeight
                       : box.top >= top - 0.5 && box.bottom <= bar + 0.5;
    return {name, seen: box.height > 0 && seen, box: [box.top, box.bottom], top, bar};
}"""


def tab_to(page, test: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const el = document.activeElement; return {test}; }}"):
            return
    raise AssertionError(f"no tab stop where {test}")


def test_a_game_by_keyboard_alone_with_every_tab_stop_in_sight(server, browser, artifacts):
    context, page, seeded, errors = open_sitting(browser, server)
    page.wait_for_function(IDLE)
    tab_to(page, "el.name === 'winner'")
    page.keyboard.press("Space")  # An, the first
    page.wait_for_function(
        "() => document.querySelectorAll('#record-form .loser:not([hidden]) input[data-cards]')"
        ".length === 3"
    )
    page.wait_for_function(IDLE)
    tab_to(page, "el.name === 'cards_1'")
    for count in ("3", "5"):
        page.keyboard.type(count)
        page.keyboard.press("Enter")
    page.keyboard.type("7")
    page.keyboard.press("Enter")  # the last count: focus goes to the preview, not the page
    assert page.evaluate("() => document.activeElement.id") == "preview"
    page.wait_for_function(IDLE)
    expect(page.locator("#preview")).to_contain_text("Xem trước")
    tab_to(page, "el.matches('button[data-save]')", limit=3)
    page.keyboard.press("Enter")
    expect(page.locator("#saved-note")).to_contain_text("Đã lưu ván 1", timeout=30_000)
    assert page.evaluate("() => document.activeElement.id") == "saved-note"
    assert saved_cards(server, seeded["sitting"]) == [{"Bình": 3, "Chi": 5, "Dũng": 7}]

    # Every tab stop of the page, once round: each in sight when it has the focus.
    page.wait_for_function(IDLE)
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('.topbar a').focus(); }")
    hidden, stops = [], 0
    for _ in range(150):
        page.keyboard.press("Tab")
        seen = page.evaluate(FOCUS_SEEN)
        if seen["name"] == "body":
            break
        stops += 1
        if not seen["seen"]:
            hidden.append(seen)
    assert stops > 20, stops  # the top bar, the form, the games and the page's links
    assert hidden == [], hidden
    page.screenshot(path=artifacts / "keyboard-end.png")
    assert errors == []
    context.close()
