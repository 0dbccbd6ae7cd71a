"""The "Luật chơi" page: docs/rules.md for players, in the current language."""

from __future__ import annotations

import re

import pytest

from scoring.text import rulesbook

pytestmark = pytest.mark.django_db

URL = "/rules/book/"


def page(client, lang: str | None = None, **headers: str) -> str:
    if lang:
        client.cookies["django_language"] = lang
    response = client.get(URL, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_vietnamese_half_by_default_to_anyone(client):
    html = page(client)
    assert '<html lang="vi">' in html
    assert "Luật chơi và cách tính tiền" in html
    assert '<h2 id="thuật-ngữ">Thuật ngữ</h2>' in html
    assert "49 lá = 245.000 ₫" in html
    assert "Rules book in English" not in html and "Game terms" not in html


def test_it_shows_the_english_half_in_english(client):
    html = page(client, "en")
    assert '<html lang="en">' in html
    assert "<h1>Rules and payments</h1>" in html
    assert '<h2 id="game-terms">Game terms</h2>' in html
    assert '<h2 id="paying-for-the-table">Paying for the table</h2>' in html
    assert "49 lá = 245.000 ₫" in html
    assert "Thuật ngữ" not in html


def test_it_lists_every_section_with_a_link_to_its_heading(client):
    html = page(client, "en")
    sections = rulesbook.render("en").sections
    assert len(sections) > 5
    for anchor, title in sections:
        assert f'<a href="#{anchor}">{title}</a>' in html
        assert f'<h2 id="{anchor}">' in html


def test_it_wraps_every_table_in_its_own_scrolling_box(client):
    html = page(client)
    tables = html.count("<table>")
    assert tables >= 4
    assert len(re.findall(r"<div class=\"table-scroll\" [^>]*><table>", html)) == tables


def test_it_answers_an_htmx_request_with_the_same_page(client):
    # Nothing on the page is loaded by htmx; a boosted or hx-get request gets the page as is.
    def book(html: str) -> str:
        return html[html.index("<h1>") : html.index("</article>")]

    assert book(page(client, HX_Request="true")) == book(page(client))


def test_it_keeps_the_content_security_policy_with_no_inline_style_or_script(client):
    response = client.get(URL)
    assert "Content-Security-Policy" in response.headers
    html = response.content.decode()
    book = html[html.index('<article class="book"') :]
    assert " style=" not in book and "<script" not in book and "<style" not in book


def test_it_escapes_raw_html_in_the_book(tmp_path, monkeypatch):
    text = rulesbook.BOOK.read_text(encoding="utf-8").replace(
        "### Game terms\n",
        '### Game terms\n\n<script>alert(1)</script> <img src=x onerror="alert(2)">\n',
    )
    fake = tmp_path / "rules.md"
    fake.write_text(text, encoding="utf-8")
    monkeypatch.setattr(rulesbook, "BOOK", fake)
    html = rulesbook.render("en").html
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_it_refuses_a_post(client):
    assert client.post(URL).status_code == 405


def test_the_rule_sets_page_links_to_it(owner_client):
    assert re.search(r'href="/rules/book/"', owner_client.get("/rules/").content.decode())


def test_the_top_bar_offers_it_to_someone_not_logged_in(client):
    assert 'href="/rules/book/"' in client.get("/accounts/login/").content.decode()


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_it_shows_players_words_and_tables_never_code(lang):
    html = rulesbook.render(lang).html
    assert "<code>" not in html and "<pre" not in html and "<details" not in html
    example = {"vi": "ví-dụ-1", "en": "example-1"}[lang]
    assert f'<h3 id="{example}">' in html  # each worked example has a stable anchor
    assert "<td>Bình</td>" in html and "<td>245.000 ₫</td>" not in html  # the payments table
    assert "<td>130.000 ₫</td>" in html


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_every_scrolling_box_is_a_named_region_a_keyboard_reaches(lang):
    html = rulesbook.render(lang).html
    boxes = re.findall(r'<(?:div class="table-scroll"|pre) ([^>]*)>', html)
    assert len(boxes) == html.count("<table") + html.count("<pre")
    labels = []
    for attributes in boxes:
        assert 'tabindex="0"' in attributes and 'role="region"' in attributes, attributes
        labels.append(re.search(r'aria-label="([^"]+)"', attributes)[1])
    assert len(set(labels)) == len(labels)  # a screen reader's list of regions tells them apart
    assert not re.search(r"<th[^>]*>\s*</th>", html)  # every column says what it holds
