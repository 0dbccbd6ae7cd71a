"""The rules book on a 390 px phone: readable in both languages, wide tables scroll inside their
own boxes, never the page; a worked example's payments table fits; the CSP reports nothing."""

import pytest

from tests.browser.conftest import phone_context

pytestmark = pytest.mark.browser

OVERFLOW = """() => ({
  page: document.scrollingElement.scrollWidth - window.innerWidth,
  tables: [...document.querySelectorAll('.book .table-scroll')].map(box => ({
    fits: box.getBoundingClientRect().right <= window.innerWidth + 0.5,
    scrolls: box.scrollWidth > box.clientWidth,
  })),
})"""


def test_the_rules_book_reads_on_a_phone_in_both_languages(server, browser, artifacts):
    context = phone_context(browser)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    for language in ("vi", "en"):
        page.goto(server.url + "/rules/book/")
        if page.locator("html").get_attribute("lang") != language:
            page.locator(".langswitch button").click()
            page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == language
        layout = page.evaluate(OVERFLOW)
        assert layout["page"] <= 0, f"the page scrolls sideways by {layout['page']} px"
        assert layout["tables"] and all(t["fits"] for t in layout["tables"])
        assert any(t["scrolls"] for t in layout["tables"])  # the preset table is wider than 390
        page.screenshot(path=str(artifacts / f"rules-book-{language}.png"))
        page.locator(".book-toc a").nth(2).click()  # the presets section
        page.wait_for_timeout(200)
        page.screenshot(path=str(artifacts / f"rules-book-{language}-presets.png"))
        example = {"vi": "#ví-dụ-1", "en": "#example-1"}[language]
        page.goto(server.url + "/rules/book/" + example)
        page.wait_for_timeout(200)
        payments = page.locator(f"{example} ~ .table-scroll").first
        assert payments.is_visible()
        assert "Bình" in payments.inner_text()
        page.screenshot(path=str(artifacts / f"rules-book-{language}-example.png"))
        assert page.evaluate(OVERFLOW)["page"] <= 0
        # A players' book: the record format, bad records and score are elsewhere.
        text = page.locator(".book").inner_text()
        assert "stderr" not in text and "score --rules" not in text and "{" not in text
        house = {"vi": "#luật-mặc-định-của-trang", "en": "#house-choices"}[language]
        page.locator(f".book-toc a[href='{house}']").click()
        page.wait_for_timeout(200)
        page.screenshot(path=str(artifacts / f"rules-book-{language}-house-choices.png"))
        two = {"vi": "#về-bằng-heo", "en": "#going-out-on-a-2"}[language]
        page.locator(f".book-toc a[href='{two}']").click()
        page.wait_for_timeout(200)
        page.screenshot(path=str(artifacts / f"rules-book-{language}-two-out.png"))
    heading = page.locator("#presets")
    assert heading.is_visible()
    assert [line for line in console if "error" in line.lower()] == []
    context.close()
