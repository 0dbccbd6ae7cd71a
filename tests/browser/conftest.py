"""A real server and Debian's Chromium for the browser tests.

The server is gunicorn (see ``tests/reliability/realserver.py``) against the test database:
on PostgreSQL the one pytest-django made, on SQLite a migrated file (the in-memory test
database cannot be shared with another process). Nothing here downloads a browser: without
/usr/bin/chromium the tests skip and say why (CI installs it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reliability.realserver import ROOT, Server, Worker, database_url_for_test

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "artifacts" / "browser"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(transactional_db, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed; CI installs it")
    with Server(database_url_for_test(tmp_path), workers=2, threads=4, log_dir=tmp_path) as running:
        yield running
    print(f"\nserver log: {running.log_path}")


@pytest.fixture
def worker(server, tmp_path):
    """The background worker (``manage.py db_worker``) beside the server, as ``make serve``
    starts it: for the pages whose work runs as a task (a group's archive)."""
    with Worker(server.database_url, log_dir=tmp_path) as running:
        yield running
    print(f"\nworker log: {running.log_path}")


@pytest.fixture
def browser(server):
    """Chromium, launched the one way this project allows. Function-scoped: Playwright's
    sync API keeps an event loop in this thread, and Django refuses the database while one
    runs, so it must be gone before pytest-django flushes the test database."""
    from playwright.sync_api import sync_playwright  # a dev dependency: missing is an error

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts(request) -> Path:
    """Where a test leaves its screenshots and downloads (git-ignored, never committed)."""
    path = ARTIFACTS / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*"):
        if old.is_file():
            old.unlink()
    return path


def phone_context(browser, **kwargs):
    """A phone-sized browser context that accepts beforeunload prompts (the record form asks
    before a half-filled game is left; a test navigating on purpose says yes)."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2 if os.environ.get("BROWSER_SHARP") else 1,
        is_mobile=True,
        has_touch=True,
        locale="vi-VN",
        accept_downloads=True,
        **kwargs,
    )
    context.set_default_timeout(15_000)
    return context
