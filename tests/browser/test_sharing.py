"""Invite → accept across two phones: the owner invites, the friend sees it and says yes."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, dbtool

pytestmark = pytest.mark.browser

FRIEND = "ban_ghi_cung"
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def _log_in(page, base_url, username):
    page.goto(base_url + "/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(base_url + "/")


def test_an_invitation_is_accepted_on_a_second_phone(server, browser, artifacts):
    seeded = dbtool(server.database_url, "seed")
    dbtool(server.database_url, "seed", "--username", FRIEND)  # the friend's account
    sitting_url = f"{server.url}/s/{seeded['sitting']}/"

    owner = phone_context(browser).new_page()
    _log_in(owner, server.url, SCOREKEEPER)
    owner.goto(sitting_url)
    owner.get_by_role("link", name="Mời người ghi").click()
    owner.fill('input[name="username"]', FRIEND)
    owner.get_by_role("button", name="Mời").click()
    notice = owner.locator('#sharing .alert[role="status"]')
    expect(notice).to_contain_text(f"Đã gửi lời mời tới “{FRIEND}”")
    expect(owner.locator("#sharing")).to_contain_text("Đang chờ trả lời")
    assert owner.evaluate(OVERFLOW) <= 0
    owner.screenshot(path=artifacts / "1-owner-invited.png", full_page=True)

    friend_context = phone_context(browser)
    friend = friend_context.new_page()
    _log_in(friend, server.url, FRIEND)
    # Not shared yet: the sitting does not exist for the friend.
    assert friend.goto(sitting_url).status == 404
    friend.goto(server.url + "/")
    invitation = friend.locator("#invitations .invitation")
    expect(invitation).to_contain_text(f"{SCOREKEEPER} mời bạn cùng ghi sổ bàn “Tối thứ Bảy”")
    assert friend.evaluate(OVERFLOW) <= 0
    friend.screenshot(path=artifacts / "2-friend-home.png", full_page=True)
    invitation.get_by_role("button", name="Nhận lời").click()
    friend.wait_for_url(sitting_url)
    expect(friend.locator("h1")).to_contain_text("Tối thứ Bảy")
    expect(friend.get_by_role("link", name="Rời bàn")).to_be_visible()
    friend.screenshot(path=artifacts / "3-friend-accepted.png")

    owner.reload()
    people = owner.locator("#sharing .people").first
    expect(people).to_contain_text(FRIEND)
    expect(owner.locator("#sharing")).not_to_contain_text("Đang chờ trả lời")
    owner.screenshot(path=artifacts / "4-owner-sees-keeper.png", full_page=True)
    friend_context.close()
