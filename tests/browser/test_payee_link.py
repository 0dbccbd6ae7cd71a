"""The payee's own link on a phone (390 px, 400 ms of latency): the payment to them waits as
"chờ xác nhận" with its transfer reference, one tap says "đã nhận", and the scorekeeper's home
page stops listing it. Both languages; screenshots land in ``artifacts/browser/``."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, phone_context
from tests.browser.test_pay_up import log_in, network
from tests.reliability.realserver import run_module

pytestmark = pytest.mark.browser

SEED = "tests.browser.payee_night"


def fits(page) -> None:
    """Nothing wider than the phone: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_payee_confirms_a_payment_through_their_own_link(server, browser, artifacts):
    seeded = run_module(server.database_url, SEED, "seed")
    link = f"{server.url}/p/{seeded['token']}/"
    keeper = phone_context(browser)
    home = keeper.new_page()
    log_in(home, server.url)
    waiting = home.locator(f"#settlement-{seeded['settlement']}")
    expect(waiting).to_contain_text("chờ xác nhận")
    fits(home)
    home.screenshot(path=artifacts / "home-vi.png", full_page=True)
    home.goto(f"{server.url}/s/{seeded['sitting']}/settle/")
    expect(home.locator(f"#settlement-{seeded['settlement']} .badge.wait")).to_be_visible()
    fits(home)
    home.screenshot(path=artifacts / "settle-vi.png", full_page=True)
    home.goto(f"{server.url}/groups/{seeded['group']}/settle/")
    expect(home.locator("figure.qr .ref").first).to_have_text(re.compile(r"^TL[2-9A-HJ-NP-Z]{4}$"))
    fits(home)
    home.screenshot(path=artifacts / "group-settle-vi.png", full_page=True)
    home.goto(f"{server.url}/players/{seeded['payee']}/link/")
    expect(home.locator("#player-url")).to_have_value(link)
    fits(home)
    home.screenshot(path=artifacts / "link-settings-vi.png", full_page=True)

    payee = phone_context(browser)  # no account, no log-in
    page = payee.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    cdp = payee.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False)
    page.goto(link)
    row = page.locator(f"#waiting #settlement-{seeded['settlement']}")
    expect(row).to_contain_text("Anh Hai đã trả bạn")
    expect(row).to_contain_text("30.000")
    expect(row.locator(".badge.wait")).to_have_text("chờ xác nhận")
    expect(row.locator(".ref")).to_have_text(re.compile(r"^TL[2-9A-HJ-NP-Z]{4}$"))
    fits(page)
    page.screenshot(path=artifacts / "payee-vi.png", full_page=True)
    row.get_by_role("button", name="Bé Năm đã nhận").click()
    confirmed = page.locator(f"#settlement-{seeded['settlement']}")
    expect(confirmed.locator(".badge.ok")).to_contain_text("đã nhận")
    expect(page.locator("#waiting")).to_contain_text("Không có khoản nào chờ bạn xác nhận.")
    assert run_module(server.database_url, SEED, "status", str(seeded["settlement"])) == {
        "confirmed": True,
        "by_payee": True,
        "history": ["settled", "confirmed"],
    }
    fits(page)
    page.screenshot(path=artifacts / "payee-confirmed-vi.png", full_page=True)

    # The scorekeeper's home no longer asks for it.
    home.goto(server.url + "/")
    expect(home.locator(f"#settlement-{seeded['settlement']}")).to_have_count(0)

    # English, on both phones.
    page.get_by_role("button", name="EN").click()
    expect(page.locator("h1")).to_have_text("Bé Năm's ledger")
    expect(page.locator(f"#settlement-{seeded['settlement']}")).to_contain_text("received")
    fits(page)
    page.screenshot(path=artifacts / "payee-confirmed-en.png", full_page=True)
    home.get_by_role("button", name="EN").click()
    expect(home.locator("html")).to_have_attribute("lang", "en")  # the switch has landed
    fits(home)
    home.screenshot(path=artifacts / "home-en.png", full_page=True)
    home.goto(f"{server.url}/players/{seeded['payee']}/link/")
    expect(home.locator("h1")).to_contain_text("private link")
    fits(home)
    home.screenshot(path=artifacts / "link-settings-en.png", full_page=True)
    assert errors == []
    payee.close()
    keeper.close()
