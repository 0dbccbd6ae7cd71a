"""A month of a group on two phones: four weekly sittings, the period closed before the
third (balances carried), a partial group settlement and a one-tap "paid", the statement,
and the group's live link on a second phone — every page at 390 px, without sideways
scrolling, with screenshots kept under artifacts/browser/."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, run_module

pytestmark = pytest.mark.browser

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
# Every CSP violation a page sees, as the browser reports it.
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  [e.violatedDirective, e.blockedURI, e.sample].join(' ')));
"""


def _watched(context, problems: list[str]):
    """A page of ``context`` whose console errors and CSP violations land in ``problems``."""
    context.add_init_script(WATCH_CSP)
    page = context.new_page()

    def on_console(message):
        # A revoked link is a 404 on purpose; the browser logs the failed load.
        if message.type == "error" and "404" not in message.text:
            problems.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    return page


def _log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def _money(text: str) -> int:
    """ "−1.234.000 ₫" -> -1234000."""
    digits = re.sub(r"[^\d]", "", text)
    return -int(digits) if "−" in text or text.strip().startswith("-") else int(digits or 0)


def _balances(page) -> dict[str, int]:
    rows = page.locator("table.group-balances tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.locator("td bdi").first.inner_text()
        out[name] = _money(row.locator("td").last.inner_text())
    return out


def _live_balances(page) -> dict[str, int]:
    """The balances of a live page: one tile per player, as on a sitting's."""
    tiles = page.locator("#live-board .totals .total")
    return {
        tiles.nth(i).locator(".name").inner_text(): _money(
            tiles.nth(i).locator(".amount").inner_text()
        )
        for i in range(tiles.count())
    }


def _fits(page, artifacts, name, *, full_page=True):
    assert page.evaluate(OVERFLOW) <= 0, f"{name} scrolls sideways"
    assert page.evaluate("window.__csp || []") == [], f"{name}: CSP violations"
    page.screenshot(path=artifacts / f"{name}.png", full_page=full_page)


def test_a_month_of_a_group_on_two_phones(server, browser, artifacts):
    seeded = run_module(server.database_url, "tests.browser.group_month")
    group_url = f"{server.url}/groups/{seeded['group']}/"
    third = seeded["sittings"][2]

    problems: list[str] = []
    phone = _watched(phone_context(browser), problems)
    _log_in(phone, server.url)
    phone.get_by_role("link", name="Nhóm", exact=True).click()
    expect(phone.locator("h1")).to_have_text("Nhóm")
    _fits(phone, artifacts, "0-groups")
    phone.get_by_role("link", name="Thứ Bảy").click()
    phone.wait_for_url(group_url)
    expect(phone.locator("h1")).to_have_text("Thứ Bảy")
    # No period closed yet: the open period is everything, nothing carried.
    expect(phone.locator("table.group-balances thead")).not_to_contain_text("Mang sang")
    before = _balances(phone)
    assert sum(before.values()) == 0 and any(before.values())
    _fits(phone, artifacts, "1-group")

    # Close the period before the third sitting: preview, confirm, done.
    # A close runs through a day: through the day before the third sitting's.
    through = (datetime.date.fromisoformat(third["date"]) - datetime.timedelta(days=1)).isoformat()
    phone.get_by_role("link", name=re.compile("^Chốt sổ")).click()
    phone.fill("#preview-day", through)
    phone.get_by_role("button", name="Xem trước").click()
    expect(phone.locator("main")).to_contain_text("Sẽ khoá 2 bàn")
    _fits(phone, artifacts, "2-close-preview")
    phone.get_by_role("button", name=re.compile("^Chốt sổ đến hết")).click()
    phone.wait_for_url(group_url)
    expect(phone.locator(".messages")).to_contain_text("Đã chốt sổ")
    expect(phone.locator("table.group-balances thead")).to_contain_text("Mang sang")
    expect(phone.locator("#period-line")).to_contain_text("mang từ kỳ đã chốt")
    # Closing changes no total: the balance to settle is the same.
    assert _balances(phone) == before
    expect(phone.locator("#sittings-h")).to_contain_text("2 bàn trong kỳ")
    _fits(phone, artifacts, "3-group-closed")
    phone.locator("#group-chart summary").click()
    expect(phone.locator("#group-chart svg")).to_be_visible()
    phone.locator("#group-chart").screenshot(path=artifacts / "4-chart.png")

    # One player's statement: the carried balance, then each sitting, to the balance.
    debtor = min(before, key=before.get)
    phone.locator("table.group-balances").get_by_role("link", name=debtor).click()
    expect(phone.locator("tr.opening")).to_contain_text("Số dư mang sang")
    last = phone.locator(".statement tbody tr:not(.games-row)").last.locator("td").last.inner_text()
    assert _money(last) == before[debtor]
    # A sitting's games load when its "Từng ván" is opened.
    expect(phone.locator(".games-list")).to_have_count(0)
    phone.locator("details.games-of summary").first.click()
    opened = phone.locator("details.games-of").first
    expect(opened.locator(".games-list li").first).to_contain_text("Ván 1")
    phone.locator(".statement").screenshot(path=artifacts / "5a-statement-lines.png")
    _fits(phone, artifacts, "5-statement")
    # "In" loads every sitting's games before printing; printing opens them all (the page's
    # beforeprint handler).
    phone.evaluate("window.print = () => { window.printed = true; }")
    phone.get_by_role("button", name="In", exact=True).click()
    phone.wait_for_function("window.printed === true")
    sittings = phone.locator("details.games-of").count()
    assert sittings >= 2
    expect(phone.locator(".games-body .games-list")).to_have_count(sittings)
    phone.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert phone.evaluate("[...document.querySelectorAll('details.games-of')].every(d => d.open)")
    phone.emulate_media(media="print")
    phone.screenshot(path=artifacts / "6-statement-print.png", full_page=True)
    expect(phone.locator("nav.actions").last).to_be_hidden()
    phone.emulate_media(media="screen")
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Sổ (CSV)").click()
    body = download.value.path().read_bytes()
    assert body.startswith("\ufeff".encode()) and "opening" in body.decode("utf-8-sig")

    # Settle up: a partial payment typed in, then one tap on a suggestion.
    phone.goto(group_url)
    phone.get_by_role("link", name="Thanh toán: ai trả ai").click()
    first = phone.locator("article.suggestion").first
    expect(first).to_be_visible()
    heading = first.locator(".game-head strong").inner_text()
    payer, payee = [part.strip() for part in heading.split("→")]
    amount = _money(first.locator(".game-head .num").inner_text())
    partial = amount // 2 // 1000 * 1000
    phone.select_option("#id_payer", label=payer)
    phone.select_option("#id_payee", label=payee)
    phone.fill("#id_amount", str(partial))
    phone.get_by_role("button", name="Ghi khoản trả").click()
    expect(phone.locator('#settle .alert[role="status"]')).to_contain_text("Đã ghi")
    after = _balances(phone)
    assert after[payer] == before[payer] + partial
    assert after[payee] == before[payee] - partial
    first = phone.locator("article.suggestion").first
    first.locator("details.why summary").click()
    expect(first.locator("details.why table")).to_be_visible()
    first.screenshot(path=artifacts / "7a-why.png")
    _fits(phone, artifacts, "7-settle-partial")
    count = phone.locator("article.suggestion").count()
    paid_before = phone.locator("#settlements-h ~ article").count()
    # A double tap records the payment once (the button is disabled as soon as it is tapped,
    # and the tap's token makes a resend record nothing new); the row stays in its place as
    # the payment recorded.
    payer, payee = [p.strip() for p in first.locator(".game-head strong").inner_text().split("→")]
    first.get_by_role("button", name=re.compile(f"{payer} trả {payee}")).dblclick()
    expect(phone.locator("#suggestion-1.paid")).to_contain_text("Đã ghi")
    expect(phone.locator("article.suggestion")).to_have_count(count)
    phone.wait_for_timeout(500)
    expect(phone.locator("#settlements-h ~ article")).to_have_count(paid_before + 1)
    _fits(phone, artifacts, "8-settle-paid")
    remaining = _balances(phone)

    # The group live link, opened on a second phone with no account.
    phone.goto(group_url)
    phone.get_by_role("link", name="Xem trực tiếp").click()
    phone.get_by_role("button", name="Bật liên kết xem").click()
    expect(phone.locator(".qr svg")).to_be_visible()
    live_url = phone.locator("#live-url").input_value()
    _fits(phone, artifacts, "9-live-settings")
    other_context = phone_context(browser)
    friend = _watched(other_context, problems)
    assert friend.goto(live_url).status == 200
    expect(friend.locator("h1")).to_have_text("Thứ Bảy")
    assert _live_balances(friend) == remaining
    expect(friend.locator("#live-settle-h")).to_be_visible()
    assert friend.locator("main form").count() == 0
    _fits(friend, artifacts, "10-live-second-phone")
    # Another payment on the first phone.
    phone.goto(f"{group_url}settle/")
    phone.locator("article.suggestion form[data-pay] button").first.click()
    expect(phone.locator("#settle article.suggestion.paid")).to_contain_text("Đã ghi")
    settled = _balances(phone)
    # The second phone updates itself (it polls every 15 s), without a reload.
    changed = next(name for name in settled if settled[name] != remaining[name])
    tile = friend.locator("#live-board .total", has_text=changed)
    amount = settled[changed]
    digits = re.escape(f"{abs(amount):,}".replace(",", "."))
    sign = "−" if amount < 0 else ""
    expect(tile.locator(".amount")).to_have_text(
        re.compile(rf"^\s*{sign}{digits}\s*₫\s*$"), timeout=25_000
    )
    assert _live_balances(friend) == settled
    _fits(friend, artifacts, "11-live-after-payment")
    # Revoked: the second phone's link stops working.
    phone.goto(f"{group_url}live/")
    phone.get_by_role("button", name="Tắt liên kết").click()
    assert friend.goto(live_url).status == 404
    other_context.close()

    # The same pages in English (longer words) still fit the phone.
    phone.goto(group_url)
    phone.get_by_role("button", name="EN").click()
    expect(phone.locator("#balance-h")).to_have_text("Group balance")
    _fits(phone, artifacts, "12-group-english")
    phone.goto(f"{group_url}settle/")
    expect(phone.locator("h1")).to_have_text("Settle up the group")
    _fits(phone, artifacts, "13-settle-english")
    assert problems == []
