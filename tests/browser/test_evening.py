"""A whole evening at the table, in Chromium on a phone-sized screen, against real gunicorn.

Sign up; open a sitting of five on đếm lá; record games with cards left and a thối 2, a chặt
chồng built with the chain builder, a cóng with đền, a tới trắng, and a game with a player
swapped in; open a second sitting on nhất nhì ba bét and record there; edit one game, void
one, undo; watch the live link update by itself in a second browser; settle up and record a
payment; download the CSV and JSON and import the JSON as a new sitting with the same
totals; switch the interface to English and back. Screenshots of the key screens land in
``artifacts/browser/`` (git-ignored).
"""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pytest
from playwright.sync_api import expect

from scoring.text.money import vnd
from tests.browser.conftest import phone_context

pytestmark = pytest.mark.browser

MEMBERS = ["An", "Bình", "Chi", "Dũng", "Em"]
STAKE = 5000
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


class Evening:
    """The scorekeeper's phone, with the few gestures the record form needs."""

    def __init__(self, page, base_url, artifacts):
        self.page = page
        self.base = base_url
        self.artifacts = artifacts
        self.shots = 0
        self.too_wide: list[tuple[str, int]] = []

    def go(self, path):
        self.page.goto(self.base + path)

    def shot(self, name, *, screen=False):
        """A full-page screenshot (and, with ``screen``, what the phone's screen shows), and a
        note if the page is wider than the phone (it would scroll sideways)."""
        self.shots += 1
        path = self.artifacts / f"{self.shots:02d}-{name}.png"
        self.page.screenshot(path=path, full_page=True)
        if screen:
            self.page.screenshot(path=path.with_name(f"{path.stem}-screen.png"))
        width = self.page.evaluate("document.documentElement.scrollWidth")
        if width > self.page.viewport_size["width"]:
            self.too_wide.append((name, width))

    def idle(self):
        self.page.wait_for_function(IDLE)

    def htmx(self, action, url_part="/"):
        """Do something that makes htmx post, and wait until its answer is swapped in."""
        with self.page.expect_response(lambda r: url_part in r.url and r.request.method == "POST"):
            action()
        self.idle()

    def tap(self, name, value):
        """Tap a chip (a checkbox or radio hidden inside its label)."""
        chip = self.page.locator(
            f'#record-form label.chip:has(input[name="{name}"][value="{value}"])'
        )
        self.htmx(chip.click)

    def tap_on(self, name):
        chip = self.page.locator(f'#record-form label.chip:has(input[name="{name}"])')
        self.htmx(chip.click)

    def cards(self, index, count):
        field = self.page.locator(f"#record-form #cards_{index}")
        field.fill(str(count))
        self.htmx(lambda: field.press("Tab"))

    def choose(self, name, value):
        select = self.page.locator(f'#record-form select[name="{name}"]')
        self.htmx(lambda: select.select_option(value))

    def button(self, value):
        self.htmx(self.page.locator(f'#record-form button[name="action"][value="{value}"]').click)

    def preview(self):
        return self.page.locator("#preview").inner_text()

    def save(self):
        """Tap "Lưu ván" and wait for a new "saved" note (the save is a fetch, not htmx)."""
        before = self.page.locator("#saved-note").all_inner_texts()
        self.button("save")
        self.page.wait_for_function(
            "(before) => { const n = document.querySelector('#saved-note');"
            " return n && n.innerText !== before; }",
            arg=before[0] if before else "",
        )
        self.idle()
        status = self.page.locator('#board-inner .alert[role="status"]')
        return int(re.search(r"(\d+)", status.inner_text()).group(1))

    def totals(self):
        names = self.page.locator("#totals .total .name").all_inner_texts()
        amounts = self.page.locator("#totals .total .amount").all_inner_texts()
        return dict(zip(names, amounts, strict=True))

    def open_sitting(self, name, preset, players, stake=STAKE):
        self.go("/s/new/")
        self.page.fill('input[name="name"]', name)
        self.page.select_option('select[name="rules"]', f"preset:{preset}")
        self.page.fill('input[name="stake"]', str(stake))
        self.page.fill('textarea[name="players"]', "\n".join(players))
        self.shot(f"open-{preset}")
        self.page.locator("form.card button.primary").click()
        self.page.wait_for_url(re.compile(r"/s/\d+/$"))
        return int(re.search(r"/s/(\d+)/$", self.page.url).group(1))


def test_a_whole_evening_on_a_phone(server, browser, artifacts):
    context = phone_context(browser)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    e = Evening(page, server.url, artifacts)

    # --- Sign up ---------------------------------------------------------------------------
    e.go("/accounts/signup/")
    page.fill('input[name="username"]', "thu_ky_toi_nay")
    page.fill('input[name="password1"]', "mot-mat-khau-that-dai-9")
    page.fill('input[name="password2"]', "mot-mat-khau-that-dai-9")
    page.locator("main form button").last.click()
    page.wait_for_url(server.url + "/")
    assert page.locator("h1").inner_text() == "Các bàn của tôi"
    e.shot("home")

    # --- A sitting of five on đếm lá -------------------------------------------------------
    sitting = e.open_sitting("Tối thứ Bảy", "dem-la", MEMBERS)
    assert page.locator("h1").inner_text() == "Tối thứ Bảy"
    assert e.totals() == dict.fromkeys(MEMBERS, "—")  # no zeros before the first game
    assert page.locator("#leader-line").inner_text().endswith("(ván khởi đầu)")

    # Game 1: cards left, and Bình still holds 2♥ (thối). Counted as a card too in đếm lá.
    e.tap("winner", "An")
    e.cards(1, 5)
    e.tap("heo_1", "2H")
    e.cards(2, 3)
    e.cards(3, 8)
    preview = e.preview()
    assert "2♥" in preview
    assert vnd((5 + 10) * STAKE) in preview  # 5 lá + thối 2♥ (10)
    e.shot("game1-preview")
    assert e.save() == 1
    assert e.totals()["An"] == vnd((15 + 3 + 8) * STAKE)
    assert e.totals()["Em"] == vnd(0)
    e.shot("game1-saved", screen=True)

    # Game 2: a chặt chồng from the chain builder. An's 2♠ chopped by Chi's 3 đôi thông,
    # Chi chopped back by Dũng's tứ quý: Chi (last chopped) pays Dũng both combos.
    e.tap("winner", "Bình")
    e.cards(0, 4)
    e.cards(2, 6)
    e.cards(3, 2)
    e.button("add_chain")
    e.tap("chat_0_0_player", "An")
    e.tap("chat_0_0_cards", "2S")  # a 2 is a heo: no separate "heo" choice
    e.tap("chat_0_1_player", "Chi")
    e.tap("chat_0_1_play", "3dt")
    e.button("add_step_0")
    e.tap("chat_0_2_player", "Dũng")
    e.tap("chat_0_2_play", "tq")
    preview = e.preview()
    assert "Chi → Dũng" in preview
    assert vnd((5 + 10) * STAKE) in preview  # 2♠ (5) + 3 đôi thông (10)
    e.shot("game2-chain")
    assert e.save() == 2

    # Game 3: An, Bình and Dũng never played a card (13 each, cóng 3 nhà), and Bình could have
    # saved them: đền, which the source considers when every loser is cóng.
    e.tap("winner", "Chi")
    e.cards(0, 13)
    # 13 cards is cóng: the row's "Cóng" chip says so (ticking it is the same as typing 13).
    expect(page.locator('#record-form input[name="cong_0"]')).to_be_checked()
    e.cards(1, 13)
    e.cards(3, 13)
    e.choose("den", "Bình")
    preview = e.preview()
    assert "Bình → Chi" in preview and "An →" not in preview  # Bình pays for the table
    e.shot("game3-cong-den")
    assert e.save() == 3

    # Game 4: Dũng wins trắng with a sảnh rồng: each loser pays 13.
    page.locator("#record-form details.more summary").click()
    e.choose("toi_trang_player", "Dũng")
    e.choose("toi_trang_hand", "sanh_rong")
    preview = e.preview()
    assert preview.count("→ Dũng") == 3
    assert f"Dũng {vnd(3 * 13 * STAKE)}" in preview
    e.shot("game4-toi-trang")
    assert e.save() == 4

    # Game 5: Em sits in for An (who plays is folded to one line until opened).
    page.locator("#record-form details.players > summary").click()
    e.tap("played", "An")
    e.tap("played", "Em")
    e.tap("winner", "Em")
    for index, count in ((1, 2), (2, 2), (3, 2)):
        e.cards(index, count)
    assert e.save() == 5
    totals_before_edit = e.totals()
    assert sum(_money(v) for v in totals_before_edit.values()) == 0
    e.shot("after-five-games")

    # --- Edit game 1, void game 2, undo the void -------------------------------------------
    page.locator("#game-1 .game-head a").click()
    page.wait_for_url(re.compile(r"/g/1/$"))
    page.get_by_role("link", name="Sửa ván").click()
    page.wait_for_url(re.compile(r"/g/1/edit/$"))
    e.cards(2, 6)
    e.shot("game1-edit")
    page.locator('#record-form button[name="action"][value="save"]').click()
    page.wait_for_url(re.compile(r"/g/1/$"))
    assert page.locator("section.card h2", has_text="Lần ghi 2").is_visible()
    e.shot("game1-revision2")

    page.locator("a", has_text="← Tối thứ Bảy").click()
    page.locator("#game-2 .game-head a").click()
    page.fill("#id_reason", "Ghi nhầm người chặt")
    page.get_by_role("button", name="Huỷ ván").click()
    page.wait_for_url(re.compile(r"/g/2/$"))
    assert page.locator("h1 .badge.void").is_visible()
    e.go(f"/s/{sitting}/")
    assert page.locator("#game-2.void").is_visible()
    page.get_by_role("button", name="Hoàn tác").click()
    page.wait_for_url(re.compile(rf"/s/{sitting}/\?undone=\d+$"))
    assert "Đã hoàn tác huỷ ván 2" in page.locator("#undone").inner_text()
    assert not page.locator("#game-2.void").count()
    e.shot("after-undo")
    page.get_by_role("link", name="Lịch sử").click()
    history = page.locator("main").inner_text()
    assert "sửa ván" in history and "huỷ ván" in history
    e.shot("history")
    e.go(f"/s/{sitting}/")
    final_totals = e.totals()
    assert final_totals["Chi"] != totals_before_edit["Chi"]  # the edit of game 1 counts
    assert sum(_money(v) for v in final_totals.values()) == 0

    # --- A second sitting on nhất nhì ba bét -----------------------------------------------
    placement = e.open_sitting("Bàn nhất nhì", "nhat-nhi-ba-bet", MEMBERS[:4], stake=10_000)
    e.tap("place_1", "Chi")
    e.tap("place_2", "An")
    e.tap("place_3", "Dũng")
    # The fourth place fills itself; the bét player's hand is asked for (thối to nhất). The
    # cards left cost nothing here, but the 2♦ must be among them.
    assert page.locator('#record-form input[name="place_4"][value="Bình"]').is_checked()
    e.cards(1, 3)
    e.tap("heo_1", "2D")
    assert "Bình → Chi" in e.preview()
    e.shot("placement-preview")
    assert e.save() == 1
    assert page.url.endswith(f"/s/{placement}/")
    placed = e.totals()
    assert placed["Chi"] == vnd((3 + 2) * 10_000)  # nhất +3, and Bình's 2♦ thối (2)
    assert placed["Bình"] == vnd((-3 - 2) * 10_000)

    # --- The live link, watched from a second phone ----------------------------------------
    live_url = _enable_live_link(e, sitting)
    watcher = phone_context(browser).new_page()
    watcher.goto(live_url)
    count_line = watcher.locator("#live-board p.small.muted").first
    assert count_line.inner_text().startswith("5 ván")
    e.shot("live-settings")
    watcher.screenshot(path=artifacts / "live-before.png", full_page=True)
    e.go(f"/s/{sitting}/")
    e.tap("winner", "Dũng")
    for index, count in ((1, 1), (2, 1), (4, 1)):
        e.cards(index, count)
    started = time.monotonic()
    assert e.save() == 6
    watcher.wait_for_function(
        "() => document.querySelector('#live-board p.small.muted').innerText.startsWith('6 ván')",
        timeout=10_000,
    )
    live_delay = time.monotonic() - started
    watcher.screenshot(path=artifacts / "live-after.png", full_page=True)
    live_totals = dict(
        zip(
            watcher.locator("#live-board .total .name").all_inner_texts(),
            watcher.locator("#live-board .total .amount").all_inner_texts(),
            strict=True,
        )
    )
    assert live_totals == e.totals()

    # --- Settle up: record the first suggested payment -------------------------------------
    page.get_by_role("link", name="Thanh toán").click()
    suggestion = page.locator("#suggestion-1")
    payer = suggestion.locator("strong").inner_text().split(" → ")[0]
    e.htmx(suggestion.get_by_role("button").click, url_part="/settlements/")
    # The tapped row stays in place as the payment recorded.
    assert "Đã ghi:" in page.locator("#suggestion-1.paid").inner_text()
    assert page.locator("#settle article.game", has_text=f"{payer} trả").count() == 1
    e.shot("settle")

    # --- Export CSV and JSON, import the JSON as a new sitting -----------------------------
    with page.expect_download() as download:
        page.get_by_role("link", name="Các khoản (CSV)").click()
    rows = list(csv.reader(io.StringIO(_read(download.value, artifacts).decode("utf-8-sig"))))
    assert rows[0][:3] == ["game", "revision", "status"]
    assert {row[0] for row in rows[1:]} == {str(n) for n in range(1, 7)}
    with page.expect_download() as download:
        page.get_by_role("link", name="Tệp bàn (JSON)").click()
    exported = artifacts / "session.json"
    exported.write_bytes(_read(download.value, artifacts))
    assert len(json.loads(exported.read_text())["games"]) == 6
    e.go(f"/s/{sitting}/")
    original_totals = e.totals()
    e.go("/")
    page.get_by_role("link", name="Nhập từ tệp").click()
    page.set_input_files('input[type="file"]', exported)
    page.get_by_role("button", name="Nhập").click()
    page.wait_for_url(re.compile(r"/s/\d+/$"))
    assert "Đã nhập bàn" in page.locator(".messages").inner_text()
    assert e.totals() == original_totals
    e.shot("imported")

    # --- English and back ------------------------------------------------------------------
    page.locator(".langswitch button").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#record-card > summary").inner_text() == "Record a new game"
    e.shot("english")
    page.locator(".langswitch button").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "vi"
    assert page.locator("#record-card > summary").inner_text() == "Ghi ván mới"

    assert errors == [], errors
    assert e.too_wide == [], "pages wider than a 390 px phone (they scroll sideways)"
    print(f"\nlive page caught up {live_delay:.1f} s after the save (polls every 2 s)")
    context.close()


def _money(text: str) -> int:
    digits = re.sub(r"[^\d]", "", text)
    return -int(digits) if text.strip().startswith(("-", "−")) else int(digits or 0)


def _enable_live_link(e: Evening, sitting: int) -> str:
    e.go(f"/s/{sitting}/")
    e.page.get_by_role("link", name="Xem trực tiếp").click()
    e.page.get_by_role("button", name="Bật liên kết xem").click()
    e.page.wait_for_url(re.compile(r"/live/$"))
    return e.page.locator("#live-url").input_value()


def _read(download, artifacts) -> bytes:
    path = artifacts / download.suggested_filename
    download.save_as(path)
    return path.read_bytes()
