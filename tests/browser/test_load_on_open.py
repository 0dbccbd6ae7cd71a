"""What a page loads when a part of it is opened ("Từng ván" on a statement line, "Vì sao?" on
a suggestion), on a phone (390 px) with a slow network (400 ms, Chromium's
``Network.emulateNetworkConditions``) and with none.

Opened offline, the part says it could not load and keeps its link; opened again once the
network is back, it loads; after that, closing and opening it asks the server nothing more.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.browser.test_pay_up import LATENCY_MS, log_in, network
from tests.reliability.realserver import run_module

pytestmark = pytest.mark.browser

FAILED = "Không tải được. Kiểm tra mạng rồi mở lại để thử lần nữa."


def _opened_offline_then_online(
    page, cdp, details, loaded: str, asked: list[str], shot: Path
) -> None:
    """Open ``details`` offline (it says so), then online (``loaded`` appears), then close
    and open it twice more: nothing more is asked of the server."""
    summary = details.locator(":scope > summary")  # its own, not one of what it loaded
    network(cdp, offline=True)
    summary.click()
    expect(details.locator(".load-failed")).to_have_text(FAILED)
    expect(details.locator(".load-failed")).to_have_attribute("role", "alert")
    details.screenshot(path=shot)
    summary.click()  # closed
    network(cdp, offline=False)
    summary.click()  # opened again: tried again
    expect(details.locator(loaded).first).to_be_visible()
    expect(details.locator(".load-failed")).to_have_count(0)
    count = len(asked)
    summary.click()
    summary.click()
    expect(details.locator(loaded).first).to_be_visible()
    page.wait_for_timeout(2 * LATENCY_MS)
    assert len(asked) == count, asked[count:]


def test_a_part_opened_offline_loads_when_opened_again_online(server, browser, artifacts):
    seeded = run_module(server.database_url, "tests.browser.group_month")
    context = phone_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked: list[str] = []
    page.on(
        "request", lambda r: asked.append(r.url) if "/games/" in r.url or "/why/" in r.url else None
    )
    log_in(page, server.url)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False)

    group = seeded["group"]
    page.goto(f"{server.url}/groups/{group}/")
    page.locator("table.group-balances tbody tr").first.locator("a").first.click()
    line = page.locator("details.games-of").first
    expect(line.locator(".games-body a")).to_contain_text("ván ở sổ của bàn")  # the plain link
    _opened_offline_then_online(
        page, cdp, line, ".games-list li", asked, artifacts / "1a-games-offline.png"
    )
    page.locator(".statement").screenshot(path=artifacts / "1-statement-games.png")

    page.goto(f"{server.url}/groups/{group}/settle/")
    why = page.locator("article.suggestion details.why").first
    _opened_offline_then_online(
        page, cdp, why, ".why-body table", asked, artifacts / "2a-why-offline.png"
    )
    # A sitting's games between the two load when that line's "Từng ván" is opened.
    games = why.locator("details.why-games").first
    _opened_offline_then_online(
        page, cdp, games, ".games-body a[href*='#revision-']", asked,
        artifacts / "2b-why-games-offline.png",
    )  # fmt: skip
    page.screenshot(path=artifacts / "2-settle-why.png", full_page=True)
    assert errors == []
    context.close()
