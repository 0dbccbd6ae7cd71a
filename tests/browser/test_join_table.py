""" "Mời cả bàn" on phones (390 px, 400 ms of latency): the scorekeeper shows one code, three
players open its address on three phones and each taps their own name, a name already taken
is refused, the scorekeeper sees who joined, and the payee confirms "đã nhận" on the link the
code gave her. One phone in English. Screenshots land in ``artifacts/browser/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, phone_context
from tests.browser.test_pay_up import log_in, network
from tests.reliability.realserver import run_module

pytestmark = pytest.mark.browser

SEED = "tests.browser.join_night"


def fits(page) -> None:
    """Nothing wider than the phone: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def slow_phone(browser):
    context = phone_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False)
    return context, page, errors


def test_three_players_join_from_one_code_and_the_payee_confirms(server, browser, artifacts):
    seeded = run_module(server.database_url, SEED, "seed")
    keeper, home, keeper_errors = slow_phone(browser)
    log_in(home, server.url)
    home.goto(f"{server.url}/s/{seeded['sitting']}/")
    home.get_by_role("link", name="Mời cả bàn").click()
    home.get_by_role("button", name="Bật mã mời cả bàn").click()
    address = home.locator("#join-url")
    url = address.input_value()
    assert url.startswith(f"{server.url}/j/") and len(url) == len(server.url) + 3 + 43 + 1
    expect(home.locator("figure.qr svg")).to_be_visible()
    fits(home)
    home.screenshot(path=artifacts / "keeper-code-vi.png", full_page=True)

    phones = {}
    for name in ("Bé Năm", "Anh Hai", "Chú Tư"):
        context, page, errors = slow_phone(browser)
        page.goto(url)
        expect(page.locator("h1")).to_have_text("Vào bàn Tối nay")
        if name == "Chú Tư":  # this one reads English
            page.get_by_role("button", name="EN").click()
            expect(page.locator("h1")).to_have_text("Join Tối nay")
            fits(page)
            page.screenshot(path=artifacts / "join-en.png", full_page=True)
        elif name == "Anh Hai":
            fits(page)
            page.screenshot(path=artifacts / "join-vi.png", full_page=True)
        page.get_by_role("button", name=name, exact=True).click()
        page.wait_for_url(f"{server.url}/p/**")
        expect(page.locator("h1")).to_contain_text(name)
        phones[name] = (context, page, errors)

    # The same code on Bé Năm's phone again opens her own page; on a fourth phone her name
    # is taken, and the page says to ask the scorekeeper.
    _context, payee, _payee_errors = phones["Bé Năm"]
    own = payee.url
    payee.goto(url)
    payee.wait_for_url(own)
    late, late_page, late_errors = slow_phone(browser)
    late_page.goto(url)
    taken = late_page.get_by_role("button", name="Bé Năm", exact=True)
    expect(taken).to_be_disabled()
    expect(late_page.locator("main")).to_contain_text("đã có người chọn")
    fits(late_page)
    late_page.screenshot(path=artifacts / "join-taken-vi.png", full_page=True)

    # The scorekeeper sees the three who joined (the list refreshes itself).
    home.reload()
    joined = home.locator("#joined")
    expect(joined.locator(".badge.ok")).to_have_count(3)
    expect(joined.locator("li", has_text="Dì Sáu")).to_contain_text("chưa vào")
    fits(home)
    home.screenshot(path=artifacts / "keeper-joined-vi.png", full_page=True)

    # The payee confirms Anh Hai's payment on the link the code gave her.
    row = payee.locator(f"#waiting #settlement-{seeded['settlement']}")
    expect(row).to_contain_text("Anh Hai đã trả bạn")
    row.get_by_role("button", name="Bé Năm đã nhận").click()
    expect(payee.locator(f"#settlement-{seeded['settlement']} .badge.ok")).to_contain_text(
        "đã nhận"
    )
    assert run_module(server.database_url, SEED, "status", str(seeded["settlement"])) == {
        "confirmed": True,
        "by_payee": True,
        "history": ["settled", "confirmed"],
    }
    fits(payee)
    payee.screenshot(path=artifacts / "payee-confirmed-vi.png", full_page=True)

    # The scorekeeper frees Chú Tư's name: the link on his phone stops at once.
    home.get_by_role("button", name="Gỡ tên Chú Tư").click()
    expect(home.locator("#joined .badge.ok")).to_have_count(2)
    _c, tu, _tu_errors = phones["Chú Tư"]
    response = tu.reload()
    assert response is not None and response.status == 410
    home.get_by_role("button", name="EN").click()
    expect(home.locator("h1")).to_have_text("Invite the table")
    fits(home)
    home.screenshot(path=artifacts / "keeper-joined-en.png", full_page=True)
    errors = keeper_errors + late_errors + [e for _c, _p, err in phones.values() for e in err]
    assert errors == []
    for context, _page, _errors in phones.values():
        context.close()
    late.close()
    keeper.close()
