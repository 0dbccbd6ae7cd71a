"""axe-core (WCAG 2.2 A and AA, and axe's best practices) on every page of an evening at
390 px, in the light and the dark colour scheme, in Vietnamese and in English: no violation.

Closed <details> are opened first, so what they hold is checked too. The pages are those of
the console test, the group's pages, the rules book and the signed-out pages. Each page is
loaded once per language and checked in both schemes: the dark one is the stylesheet's
``prefers-color-scheme`` query, which Chromium's media emulation switches in place.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_console_clean import IDLE, _pages, evening, log_in

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "axe" / "axe.min.js"
RUN = """async () => {
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa',
                                    'best-practice']},
    resultTypes: ['violations'],
  });
  return result.violations.map(v => ({
    id: v.id,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary
      .replace(/\\s+/g, ' ').slice(0, 200)),
  }));
}"""
SIGNED_OUT = ["/", "/accounts/login/", "/accounts/signup/", "/rules/book/"]


SCHEMES = ("light", "dark")


def _check(page, url: str) -> list[str]:
    page.goto(url)
    for details in page.locator("details:not([open])").all():
        if details.is_visible():
            details.locator("summary").first.click()
    page.wait_for_function(IDLE)
    page.add_script_tag(path=str(AXE))
    problems = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        problems += [
            f"{scheme} {v['id']}: {node}" for v in page.evaluate(RUN) for node in v["nodes"]
        ]
    return problems


@pytest.mark.parametrize("language", ["vi", "en"])
def test_every_page_passes_axe(server, browser, language):
    ids = evening(server.database_url)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    found: dict[str, list[str]] = {}
    for path in SIGNED_OUT:
        found[f"signed out {path}"] = _check(page, server.url + path)
    log_in(page, server.url)
    page.goto(server.url + "/groups/")
    groups = sorted(
        {
            href
            for href in page.eval_on_selector_all("main a", "links => links.map(a => a.pathname)")
            if re.fullmatch(r"/groups/\d+/", href)
        }
    )
    assert groups
    group = groups[0]
    an = ids["players"]["An"]
    paths = [
        *_pages(ids),
        "/rules/book/",
        "/groups/",
        group,
        f"{group}settle/",
        f"{group}players/{an}/",
        f"{group}history/",
        f"{group}live/",
        f"{group}share/",
        f"{group}close/",
        f"{group}sittings/new/",
        f"{group}stats/",
        f"{group}stats/{an}/wins/",
        f"{group}players/{an}/year/",
        f"{group}what-if/",
        f"{group}what-if/?rules=cuoc&stake=1000",
        f"{group}check/",
        f"/players/{an}/link/",
    ]
    for path in paths:
        found[path] = _check(page, server.url + path)
    context.close()
    found = {path: problems for path, problems in found.items() if problems}
    assert not found, "\n".join(f"{path}\n  " + "\n  ".join(p) for path, p in found.items())


@pytest.mark.parametrize("language", ["vi", "en"])
def test_the_join_pages_and_a_closed_period_pass_axe(server, browser, language):
    """ "Mời cả bàn" (the scorekeeper's page with its code and who joined, the page the code
    opens, a name taken, the page a dead link or code answers), the pages after a period is
    closed (a sitting inside it, the group, its settle-up, each player's statement with the
    balance carried) and those with the red "book disagrees" banner: light and dark."""
    from tests.browser.test_pay_up import log_in as keeper_log_in
    from tests.reliability.realserver import ROOT, run_module, server_env

    seeded = run_module(server.database_url, "tests.browser.pay_night", "seed")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    keeper_log_in(page, server.url)
    found: dict[str, list[str]] = {}
    join = f"{server.url}/s/{seeded['tonight']}/join/"
    found["join settings off"] = _check(page, join)
    page.locator('button[value="enable"]').click()
    code = page.locator("#join-url").input_value()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    phone.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    player = phone.new_page()
    found["join page"] = _check(player, code)
    player.locator('button[name="player"]').first.click()
    player.wait_for_url(f"{server.url}/p/**")
    found["claimed link"] = _check(player, player.url)
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    other.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    found["join page, a name taken"] = _check(other.new_page(), code)
    found["join settings on"] = _check(page, join)
    found["a link never handed out"] = _check(other.new_page(), f"{server.url}/p/{'A' * 43}/")
    page.locator('button[value="revoke"]').click()
    page.locator('button[value="enable"]').wait_for()  # turned off: the code is gone
    found["a code turned off"] = _check(other.new_page(), code)
    group = f"/groups/{seeded['group']}/"
    page.goto(server.url + group)
    statements = sorted(
        set(
            page.eval_on_selector_all(
                "main a",
                "links => links.map(a => a.pathname).filter(p => /players\\/\\d+\\/$/.test(p))",
            )
        )
    )
    assert statements
    for path in [
        f"/s/{seeded['frozen']}/",
        f"/s/{seeded['frozen']}/settle/",
        group,
        f"{group}settle/",
        f"{group}close/",
        *statements,
    ]:
        found[path] = _check(page, server.url + path)
    # A book that disagrees: a payment changed behind the ledger, found by the operator's
    # check; the sitting's page and the group's page carry the red banner.
    page.goto(f"{server.url}/s/{seeded['tonight']}/settle/")
    page.locator("#suggestion-1 form[data-pay] button").click()
    page.locator("#suggestion-1.paid").wait_for()
    run_module(server.database_url, "tests.browser.end_night", "tamper", str(seeded["tonight"]))
    checked = subprocess.run(
        [sys.executable, "manage.py", "verify_ledger", "--all"],
        cwd=ROOT, env=server_env(server.database_url), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert checked.returncode == 1, checked.stderr
    for path in [f"/s/{seeded['tonight']}/", group]:
        page.goto(server.url + path)
        assert page.locator("#book-disagrees").is_visible(), path
        found[f"disagrees {path}"] = _check(page, server.url + path)
    for ctx in (phone, other, context):
        ctx.close()
    found = {path: problems for path, problems in found.items() if problems}
    assert not found, "\n".join(f"{path}\n  " + "\n  ".join(p) for path, p in found.items())
