"""The table's story on a 390 px phone, in Vietnamese and in English: the group's stats (sorted,
a number opened down to its games), head to head, a player's year with its share button, and
the what-if page re-pricing the period under cược — no sideways scrolling, no console error,
screenshots kept under artifacts/browser/."""

from __future__ import annotations

import datetime
import re

import pytest

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, run_module

pytestmark = pytest.mark.browser

# A page wider than the phone: the layout viewport of a mobile context can grow past 390 px
# to fit it, so the width is compared with the phone's as well as with the window's.
OVERFLOW = "() => document.documentElement.scrollWidth - Math.min(window.innerWidth, 390)"


def _log_in(page, base_url):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def _shot(page, artifacts, name):
    assert page.evaluate(OVERFLOW) <= 0, f"{name} scrolls sideways"
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)


def _money(text: str) -> int:
    digits = re.sub(r"[^\d]", "", text)
    return -int(digits) if text.strip().startswith(("-", "−")) else int(digits or 0)


def test_the_tables_story_on_a_phone_in_both_languages(server, browser, artifacts):
    seeded = run_module(server.database_url, "tests.browser.story_year")
    group_url = f"{server.url}/groups/{seeded['group']}/"
    year = datetime.date.fromisoformat(seeded["sittings"][-1]["date"]).year

    problems: list[str] = []
    context = phone_context(browser)
    page = context.new_page()

    def on_console(message):
        # The live page names no icon of its own, so the browser asks for /favicon.ico (404).
        if message.type == "error" and not ("/gl/" in page.url and "404" in message.text):
            problems.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    _log_in(page, server.url)

    for lang in ("vi", "en"):
        page.goto(group_url + "?period=all")
        stats_link = {"vi": "Thống kê: thắng thua", "en": "Stats: wins and losses"}[lang]
        page.get_by_role("link", name=re.compile(stats_link)).click()
        page.wait_for_url(re.compile(r"/stats/\?period=all"))
        players = page.locator(".stat-player")
        assert players.count() == 4
        # Best net first, and the nets sum to zero.
        nets = [_money(players.nth(i).locator(".stat-head .amount").inner_text()) for i in range(4)]
        assert nets == sorted(nets, reverse=True) and sum(nets) == 0
        assert page.locator("svg.bar-chart").count() == 1
        assert page.locator("table.flows tbody tr").count() >= 3
        _shot(page, artifacts, f"stats-{lang}")

        # Sorted by wins: Chi won four games, the most.
        page.locator("nav.sort a").nth(1).click()
        page.wait_for_url(re.compile(r"sort=wins"))
        first = page.locator(".stat-player").first
        assert first.locator(".stat-head bdi").inner_text() == "Chi"
        wins = first.locator("dl.stat-grid > div").nth(1).locator("dd a")
        assert wins.inner_text() == "4"
        wins.click()
        page.wait_for_url(re.compile(r"/wins/"))
        assert page.locator("li.behind").count() == 4
        _shot(page, artifacts, f"wins-{lang}")

        # A player's year.
        page.goto(f"{page.url.split('/stats/')[0]}/stats/?period=all&sort=wins")
        page.locator(".stat-player").first.locator(".stat-head a").first.click()
        page.wait_for_url(re.compile(r"/year/"))
        page.goto(page.url.split("?")[0] + f"?year={year}")
        assert page.locator("svg.line-chart").count() == 1
        assert page.locator("button[data-share]").count() == 1
        _shot(page, artifacts, f"year-{lang}")

        # What if the month had been played as cược?
        page.goto(group_url.rstrip("/") + "/what-if/?period=all")
        page.select_option('select[name="rules"]', "preset:cuoc")
        page.fill('input[name="stake"]', "2000")
        page.locator("main form.card button").click()
        page.wait_for_url(re.compile(r"rules=preset"))
        result = page.locator("#what-if-result")
        assert result.count() == 1
        # Every game is a first-out game: cược (a placement scheme) cannot price any of them,
        # and says so game by game.
        assert result.locator("ul.skipped li").count() == 10
        page.select_option('select[name="rules"]', "preset:dem-la-26")
        page.fill('input[name="stake"]', "1000")
        page.locator("main form.card button").click()
        page.wait_for_url(re.compile(r"dem-la-26"))
        rows = page.locator("table.what-if tbody tr")
        assert rows.count() == 4
        diffs = [_money(rows.nth(i).locator("td").last.inner_text()) for i in range(4)]
        assert sum(diffs) == 0
        _shot(page, artifacts, f"what-if-{lang}")

        if lang == "vi":
            page.locator(".langswitch button").click()
            page.wait_for_load_state()
            assert page.locator("html").get_attribute("lang") == "en"

    # The owner puts the open period's leaderboard on the group's live link (still English).
    page.goto(group_url + "live/")
    page.locator("main form button[value=enable]").click()
    page.wait_for_url(re.compile(r"/live/$"))
    page.get_by_role("button", name="Show the leaderboard").click()
    page.wait_for_url(re.compile(r"/live/$"))
    live_url = page.locator("#live-url").input_value()
    _shot(page, artifacts, "live-settings-en")
    for lang in ("en", "vi"):
        if lang == "vi":  # switched on a page of the site, then the live link opened again
            page.goto(group_url)
            page.locator(".langswitch button").click()
            page.wait_for_load_state()
            assert page.locator("html").get_attribute("lang") == "vi"
        page.goto(live_url)
        rows = page.locator("#live-leaderboard tbody tr")
        assert rows.count() == 4
        assert rows.first.locator("bdi").inner_text() == "Chi"
        _shot(page, artifacts, f"live-leaderboard-{lang}")

    assert problems == [], problems
    context.close()
