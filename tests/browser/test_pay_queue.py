"""The settle-up pages' queue beyond the single tap, at 390 px with 400 ms of latency: the same
suggestion tapped offline on two copies of the page records one payment (the second is a
stale plan), the typed payment form waits offline and lands once, and "Chia sẻ" hands the
server's text to the share sheet, or to the clipboard where there is none, in both languages.
Screenshots land in ``artifacts/browser/``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_pay_up import LATENCY_MS, network, open_page, payments

pytestmark = pytest.mark.browser


def test_one_suggestion_tapped_offline_on_two_pages_records_one_payment(server, browser):
    context, first, cdp, seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    second = context.new_page()
    second.goto(first.url)
    cdp_second = context.new_cdp_session(second)
    cdp_second.send("Network.enable")
    for session in (cdp, cdp_second):
        network(session, offline=True)
    for page in (first, second):
        page.locator("#suggestion-1 form[data-pay] button").click()
        expect(page.locator("#pay-pending")).to_be_visible()
    queued = first.evaluate("() => JSON.parse(localStorage.getItem('tienlen.pending.v1')).length")
    assert queued == 2  # two taps, two tokens, one plan
    assert payments(server, seeded)["all"] == 0
    for session in (cdp, cdp_second):
        network(session, offline=False)
    for page in (first, second):
        expect(page.locator("#pay-pending")).to_be_hidden(timeout=20_000)
    first.wait_for_timeout(3 * LATENCY_MS)
    assert payments(server, seeded)["all"] == 1
    assert first.evaluate("() => localStorage.getItem('tienlen.pending.v1')") == "[]"
    assert errors == []
    context.close()


def test_a_typed_payment_made_offline_lands_once(server, browser, artifacts):
    context, page, cdp, seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    form = page.locator("form[data-pay-form]")
    form.locator('select[name="payer"]').select_option(label="Dì Sáu")
    form.locator('select[name="payee"]').select_option(label="Bé Năm")
    form.locator('input[name="amount"]').fill("20.000")
    network(cdp, offline=True)
    form.locator("button").click()
    banner = page.locator("#pay-pending")
    expect(banner).to_be_visible()
    assert "Dì Sáu → Bé Năm 20.000" in banner.inner_text()
    expect(form.locator("button")).to_be_disabled()
    expect(form.locator('input[name="amount"]')).to_have_value("20.000")  # nothing lost
    page.screenshot(path=artifacts / "typed-offline.png", full_page=True)
    assert payments(server, seeded)["all"] == 0
    network(cdp, offline=False)
    expect(page.locator("#settle .alert[role=status]")).to_contain_text(
        "Đã ghi: Dì Sáu trả Bé Năm 20.000", timeout=20_000
    )
    expect(banner).to_be_hidden()
    page.wait_for_timeout(2 * LATENCY_MS)
    assert payments(server, seeded)["standing"] == [["Dì Sáu", "Bé Năm", 20000]]
    page.screenshot(path=artifacts / "typed-landed.png", full_page=True)
    assert errors == []
    context.close()


CAPTURE_SHARE = (
    "window.shares = []; navigator.share = (data) => {"
    " window.shares.push(data); window.sharedText = data.text; return Promise.resolve(); };"
)


def test_share_opens_the_share_sheet_with_the_nights_text(server, browser, artifacts):
    context, page, _cdp, seeded, errors = open_page(browser, server, "/s/{tonight}/settle/")
    page.add_init_script(CAPTURE_SHARE)
    page.reload()
    page.get_by_role("button", name="Chia sẻ").click()
    page.wait_for_function("() => window.sharedText")
    text = page.evaluate("() => window.sharedText")
    assert text.startswith("Sổ Tiến Lên · Tối nay · ")
    # A table of a group settles the group: what is left is the group's, carried balances too.
    assert "Còn cần chuyển trong nhóm Thứ Sáu:" in text and " → " in text and "₫" in text
    assert "Số dư mang sang" in text
    # One share sheet, with the night's text and no link: no other share button answers.
    assert page.evaluate("() => window.shares") == [{"text": text}]
    page.screenshot(path=artifacts / "sitting-settle-vi.png", full_page=True)
    page.goto(f"{server.url}/groups/{seeded['group']}/settle/")
    page.screenshot(path=artifacts / "group-settle-vi.png", full_page=True)
    assert errors == []
    context.close()


def test_without_a_share_sheet_the_text_goes_to_the_clipboard_in_english(
    server, browser, artifacts
):
    context, page, _cdp, seeded, errors = open_page(browser, server, "/groups/{group}/settle/")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])
    page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    page.reload()
    assert page.evaluate("() => 'share' in navigator") is False
    page.get_by_role("button", name="Share").click()
    expect(page.locator("[data-share-note]")).to_contain_text("Copied")
    # The button keeps its name; the note below it says what happened.
    expect(page.locator("button[data-share]")).to_have_text("Share")
    text = page.evaluate("() => navigator.clipboard.readText()")
    assert text.startswith("Tiến Lên Scorebook · ")
    assert "Group balances:" in text and "Payments to make:" in text
    page.screenshot(path=artifacts / "group-settle-en.png", full_page=True)
    page.goto(f"{server.url}/s/{seeded['tonight']}/settle/")
    page.screenshot(path=artifacts / "sitting-settle-en.png", full_page=True)
    assert errors == []
    context.close()
