"""A group moves in through the browser: from the groups page, "Nhập nhóm từ bản lưu trữ",
the file chosen and sent; the page answers at once with the task's page, which follows the
worker (htmx polling its status fragment) from "waiting" to done without a reload; then the
new group opens and its "Kiểm tra sổ" shows the fingerprint the old group had."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.ledger import archive, verify
from tests.browser.conftest import phone_context
from tests.reliability.realserver import PASSWORD, SCOREKEEPER, Worker, dbtool

pytestmark = pytest.mark.browser

SITTINGS, GAMES = 20, 60


@pytest.fixture
def old_archive(transactional_db, django_user_model, tmp_path):
    """The archive of a group of another server (here: the test's own database) and its
    fingerprint, made before the browser starts (Django refuses the database while
    Playwright's event loop runs)."""
    from bench import grow
    from scoring import services

    owner = django_user_model.objects.create_user("chu_cu", password=PASSWORD)
    group = services.group_create(owner=owner, name="Hội cũ").value
    grow.add_sittings(group, owner, 0, SITTINGS, GAMES)
    group.refresh_from_db()
    path = tmp_path / "hoi-cu.json.gz"
    path.write_bytes(archive.archive_bytes(group, compress=True))
    return path, verify.fingerprint_of(group)


def test_an_archive_uploaded_from_the_groups_page_imports_in_the_background(
    old_archive, server, browser, artifacts, tmp_path
):
    upload, fingerprint = old_archive
    dbtool(server.database_url, "seed")
    context = phone_context(browser)
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.fill('input[name="username"]', SCOREKEEPER)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("main form button").last.click()
    page.wait_for_url(server.url + "/")

    page.goto(server.url + "/groups/")
    page.get_by_role("link", name="Nhập nhóm từ bản lưu trữ").click()
    page.set_input_files('input[type="file"]', str(upload))
    page.get_by_role("button", name="Nhập nhóm").click()
    page.wait_for_url(f"{server.url}/tasks/*/")
    status = page.locator("#task-status")
    # No worker runs yet: the page says it waits, and keeps asking.
    expect(status).to_have_attribute("data-step", "queued")
    expect(status).to_contain_text("Đang chờ máy chạy nền nhận việc")
    page.screenshot(path=str(artifacts / "waiting.png"), full_page=True)
    task_url = page.url

    with Worker(server.database_url, log_dir=tmp_path) as worker:
        expect(status).to_have_attribute("data-step", "done", timeout=120_000)
    assert page.url == task_url, worker.log_tail()  # followed by polling, not by a reload
    expect(page.locator("#task-fingerprint")).to_have_text(fingerprint)
    page.screenshot(path=str(artifacts / "done.png"), full_page=True)

    page.locator("#task-open").click()
    page.wait_for_url(f"{server.url}/groups/*/")
    expect(page.locator("h1")).to_contain_text("Hội cũ")
    page.goto(page.url + "check/")
    expect(page.locator("code.big")).to_have_text(fingerprint)
    context.close()
