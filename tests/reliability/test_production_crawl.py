"""The site as production runs it: gunicorn with ``DEBUG=0``, collected static files served by
whitenoise from their manifest, on the database under test (PostgreSQL in CI).

The demo table is loaded, the demo scorekeeper logs in, and every page reachable by a link
from the home page is opened, then opened again with hostile query strings (another script's
digits, a superscript, 40 digits, NUL, a bidi override). No answer is a 5xx, and every script,
style sheet and icon a page links to is served.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from tests.reliability.realserver import Phone, Server, manage
from tests.reliability.stack import collect_static, production_env

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LINK = re.compile(rb'(?:href|hx-get|src)="(/[^"#]*)"')
# Pages that do something when opened, or answer with a file rather than a page.
SKIP = ("/accounts/logout/", "/i18n/", "/admin/")
MOST_PAGES = 400
HOSTILE = {
    "arabic-indic": "٣٤",
    "superscript": "²",
    "forty-digits": "9" * 40,
    "nul": "\x00",
    "bidi": "\u202e12",
}
NAMES = ("period", "start", "end", "undone", "rules", "stake", "page", "since", "year")


def _links(body: bytes) -> list[str]:
    found = []
    for raw in LINK.findall(body):
        path = raw.decode().replace("&amp;", "&")
        if not path.startswith("//"):
            found.append(path)
    return found


@pytest.fixture
def production(ledger_url: str, tmp_path: Path):
    static_root = tmp_path / "static"
    collect_static(ledger_url, static_root)
    manage(ledger_url, "load_demo")
    env = production_env(static_root=static_root, connections="new")
    env.update(BEHIND_PROXY="0")
    with Server(ledger_url, env=env, log_dir=tmp_path) as server:
        yield server


def test_every_page_of_the_demo_answers_in_production_mode(production: Server):
    phone = Phone(production.url).login("demo", "demo-tien-len")
    seen: set[str] = set()
    queue = ["/"]
    assets: set[str] = set()
    shapes: set[str] = set()  # the hostile queries go to one page of each route
    failures: list[str] = []
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop(0)
        page = urlsplit(path).path
        if page in seen or page.startswith(SKIP):
            continue
        seen.add(page)
        status, headers, body = phone.get(path)
        if status >= 500:
            failures.append(f"GET {path}: {status}")
            continue
        if not headers.get("Content-Type", "").startswith("text/html"):
            continue
        for link in _links(body):
            if link.startswith("/static/"):
                assets.add(link)
            elif urlsplit(link).path not in seen:
                queue.append(link)
        shape = re.sub(r"\d+", "N", page)
        if shape in shapes:
            continue
        shapes.add(shape)
        for label, value in HOSTILE.items():
            query = "&".join(f"{name}={quote(value)}" for name in NAMES)
            status, _h, _b = phone.get(f"{page}?{query}")
            if status >= 500:
                failures.append(f"GET {page} with {label}: {status}")
    for asset in sorted(assets):
        status, _h, _b = phone.get(asset)
        if status != 200:
            failures.append(f"GET {asset}: {status}")
    # The crawl reached the pages a table lives on, and the static files came from the
    # manifest (hashed names), as production serves them.
    assert any(re.fullmatch(r"/s/\d+/", page) for page in seen), sorted(seen)
    assert any(re.fullmatch(r"/groups/\d+/settle/", page) for page in seen), sorted(seen)
    assert len(seen) < MOST_PAGES and len(shapes) > 40, (len(seen), sorted(shapes))
    assert any(re.search(r"\.[0-9a-f]{12}\.(css|js)$", asset) for asset in assets), assets
    assert failures == [], "\n".join(failures) + "\n" + production.log_tail()
