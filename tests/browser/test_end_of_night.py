"""The end of the night on a phone (390 px, 400 ms latency), in both languages: the close as
offered locks tonight's sitting and a table opened afterwards, from the prefilled form, the
same night takes games; the share text names the payments made; a tampered payment shows the
red banner after ``verify_ledger --all``. Screenshots land in ``artifacts/browser/``.

Taps counted from the last game saved to everyone's balance shared and the period closed:
settle-up (1), pay each suggestion (1 each), "Chia sẻ" (1), back to the group (1), "Chốt sổ
đến hết tối nay (bàn …)…" (1), the close button (1)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.browser.test_pay_up import log_in, network
from tests.reliability.realserver import ROOT, run_module, server_env

pytestmark = pytest.mark.browser

SEED = "tests.browser.end_night"
WORDS = {
    "vi": {
        "close": "Chốt sổ đến hết tối nay (bàn Tối nay)",
        "closed": "đã chốt sổ đến hết ngày",
        "paid": "Đã trả:",
        "banner": "Sổ không khớp với lịch sử ghi chép.",
    },
    "en": {
        "close": "Close the books through tonight (Tối nay)",
        "closed": "books closed through",
        "paid": "Paid already:",
        "banner": "This book does not match its history.",
    },
}


def _open(browser, server, language: str):
    seeded = run_module(server.database_url, SEED, "seed")
    context = phone_context(browser)
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, server.url)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False)
    return context, page, seeded, errors


@pytest.mark.parametrize("language", ["vi", "en"])
def test_pay_share_close_tonight_and_play_on_at_a_new_table(server, browser, artifacts, language):
    words = WORDS[language]
    context, page, seeded, errors = _open(browser, server, language)
    taps = 0
    page.goto(f"{server.url}/s/{seeded['tonight']}/settle/")
    taps += 1  # the settle-up page, from the sitting's
    page.locator("#suggestion-1 form[data-pay] button").click()
    taps += 1
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    shared = page.locator("#share-text").input_value()
    assert words["paid"] in shared and "→" in shared.split(words["paid"])[1]
    page.locator("button[data-share]").click()
    taps += 1
    page.screenshot(path=artifacts / f"share-{language}.png", full_page=True)

    page.goto(f"{server.url}/groups/{seeded['group']}/")
    taps += 1
    offer = page.locator("#close a.btn")
    expect(offer).to_contain_text(words["close"])
    offer.click()
    taps += 1
    page.wait_for_url("**/close/")
    page.screenshot(path=artifacts / f"close-offered-{language}.png", full_page=True)
    page.locator("#close-form button.primary").click()
    taps += 1
    page.wait_for_url(f"**/groups/{seeded['group']}/")
    expect(page.locator("main")).to_contain_text(words["closed"])
    assert "Đang chơi" not in page.locator("main").inner_text()
    page.screenshot(path=artifacts / f"closed-{language}.png", full_page=True)
    state = run_module(server.database_url, SEED, "state", str(seeded["group"]))
    assert state["sittings"]["Tối nay"]["locked"] is True

    # The same night, a new table from the prefilled form: only a name is typed.
    page.locator(f"a[href='/groups/{seeded['group']}/sittings/new/']").click()
    page.wait_for_url("**/sittings/new/")
    page.fill("#id_name", "Bàn hai")
    page.screenshot(path=artifacts / f"new-table-{language}.png", full_page=True)
    page.locator("#sitting-new button.primary").click()
    page.wait_for_url("**/s/*/")
    state = run_module(server.database_url, SEED, "state", str(seeded["group"]))
    second = state["sittings"]["Bàn hai"]
    assert second["locked"] is False
    assert second["players"] == state["sittings"]["Tối nay"]["players"]
    assert second["stake"] == 5000
    run_module(server.database_url, SEED, "record", str(second["id"]))
    page.reload()
    expect(page.locator("#record-form")).to_be_visible()
    expect(page.locator("#totals .totals")).to_be_visible()
    page.screenshot(path=artifacts / f"second-table-{language}.png", full_page=True)
    assert errors == []
    print(f"\ntaps from the last game to the balance shared and the period closed: {taps}")
    context.close()


def test_a_tampered_payment_shows_the_banner_after_verify_all(server, browser, artifacts):
    context, page, seeded, errors = _open(browser, server, "vi")
    page.goto(f"{server.url}/s/{seeded['tonight']}/settle/")
    page.locator("#suggestion-1 form[data-pay] button").click()
    page.locator("#suggestion-1.paid").wait_for(timeout=20_000)
    run_module(server.database_url, SEED, "tamper", str(seeded["tonight"]))
    env = server_env(server.database_url)
    ran = subprocess.run(
        [sys.executable, "manage.py", "verify_ledger", "--all"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert ran.returncode == 1, ran.stderr
    for path in (f"/s/{seeded['tonight']}/", f"/groups/{seeded['group']}/"):
        page.goto(server.url + path)
        banner = page.locator("#book-disagrees")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(WORDS["vi"]["banner"])
        page.screenshot(path=artifacts / f"banner{path.replace('/', '-')}.png", full_page=True)
    assert errors == []
    context.close()
