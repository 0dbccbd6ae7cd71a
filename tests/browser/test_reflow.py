"""Reflow (WCAG 1.4.10): every main page of an evening, signed in and signed out, at 320 CSS px
and at 200 % zoom of a 390 px phone (195 CSS px), in both languages, scrolls only up and down.
A wide table scrolls inside its own labelled region (``role=region``, a name, ``tabindex=0``,
so a keyboard can scroll it too), never the page; an amount stays inside its card."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_console_clean import IDLE, _pages, evening, log_in

pytestmark = pytest.mark.browser

#: 320 CSS px (WCAG's width), and a 390 × 844 phone zoomed to 200 %.
VIEWPORTS = ({"width": 320, "height": 640}, {"width": 195, "height": 422})
SIGNED_OUT = ["/", "/accounts/login/", "/accounts/signup/", "/rules/book/"]
#: The page's own sideways scroll, and what sticks out of it (to say what to fix).
WIDE = """() => {
  const root = document.scrollingElement;
  const limit = root.clientWidth;
  const out = [...document.querySelectorAll('body *')].filter(el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.right > limit + 0.5 && !el.closest('[role=region][tabindex="0"]');
  }).slice(0, 4).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim() : '') +
    ' ' + Math.round(el.getBoundingClientRect().right));
  return {scroll: root.scrollWidth, client: limit, out};
}"""
#: An amount card's words drawn past its own edge (the year page's amounts at 200 %, "₫" cut).
SPILL = """() => [...document.querySelectorAll('.total')].flatMap(card => {
  const edge = card.getBoundingClientRect().right;
  return [...card.querySelectorAll('*')].filter(el => {
    const box = el.getBoundingClientRect();
    const cut = el.scrollWidth > el.clientWidth + 1 &&
      getComputedStyle(el).textOverflow !== 'ellipsis';
    return box.width > 0 && (box.right > edge + 0.5 || cut);
  }).slice(0, 2).map(el => el.className + ' "' + el.textContent.trim().slice(0, 30) + '"');
})"""
#: Regions that scroll sideways must be reachable and named.
REGIONS = """() => [...document.querySelectorAll('main *')].filter(el => {
  const style = getComputedStyle(el);
  return /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
}).filter(el => !(el.getAttribute('role') === 'region' && el.getAttribute('tabindex') === '0'
    && (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby'))))
  .map(el => el.tagName.toLowerCase() + '.' + el.className)"""


def _group_pages(page, server, ids) -> list[str]:
    page.goto(server.url + "/groups/")
    links = page.eval_on_selector_all("main a", "links => links.map(a => a.pathname)")
    group = sorted({h for h in links if re.fullmatch(r"/groups/\d+/", h)})[0]
    an = ids["players"]["An"]
    return [
        "/groups/",
        group,
        f"{group}settle/",
        f"{group}players/{an}/",
        f"{group}history/",
        f"{group}live/",
        f"{group}close/",
        f"{group}sittings/new/",
        f"{group}stats/",
        f"{group}players/{an}/year/",
        f"{group}what-if/?rules=cuoc&stake=1000",
        f"{group}what-if/",
        f"{group}share/",
        f"{group}stats/{an}/wins/",
        f"{group}check/",
        f"/players/{an}/link/",
        f"/s/{ids['sitting']}/join/",
        f"/s/{ids['sitting']}/check/",
        "/rules/book/",
    ]


#: The folded "Ai chơi …" line of the record form: at 320 px, who led is never cut off.
LED_CUT = """() => window.innerWidth < 320 ? [] :
  [...document.querySelectorAll('details.fold.players > summary .led')]
  .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""


def _measure(page, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_function(IDLE)
    led = page.evaluate(LED_CUT)
    # What the folds hold is laid out too (opening one loads what it holds).
    page.evaluate(
        "() => document.querySelectorAll('main details').forEach(d => { d.open = true; })"
    )
    page.wait_for_timeout(50)
    page.wait_for_function(IDLE)
    wide = page.evaluate(WIDE)
    problems = [f"cut off: {text}" for text in led]
    if wide["scroll"] > wide["client"]:
        problems.append(f"{wide['scroll']} > {wide['client']}: {wide['out']}")
    problems += [f"unnamed scroller {r}" for r in page.evaluate(REGIONS)]
    problems += [f"spills out of its card: {s}" for s in page.evaluate(SPILL)]
    return problems


@pytest.mark.parametrize("language", ["vi", "en"])
def test_no_main_page_scrolls_sideways_at_320_px_or_200_percent_zoom(
    server, browser, artifacts, language
):
    ids = evening(server.database_url)
    found: dict[str, list[str]] = {}
    for viewport in VIEWPORTS:
        context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
        context.set_default_timeout(20_000)
        context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        for path in SIGNED_OUT:
            found[f"{viewport['width']} signed out {path}"] = _measure(page, server.url + path)
        log_in(page, server.url)
        for path in [*_pages(ids), *_group_pages(page, server, ids)]:
            found[f"{viewport['width']} {path}"] = _measure(page, server.url + path)
        page.goto(f"{server.url}/s/{ids['sitting']}/")
        page.screenshot(path=artifacts / f"sitting-{viewport['width']}-{language}.png")
        context.close()
    found = {path: problems for path, problems in found.items() if problems}
    assert not found, "\n".join(f"{path}\n  " + "\n  ".join(p) for path, p in found.items())
