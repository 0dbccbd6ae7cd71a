"""The project's rules book, ``docs/rules.md``, as HTML for the "Luật chơi" page.

The book is one Markdown file with a Vietnamese half (``## Sổ luật (tiếng Việt)``) and an
English half (``## Rules book in English``); the page shows the half of the current language.
Markdown is rendered by markdown-it-py with raw HTML turned off, so whatever the file holds comes
out as text, never as markup, scripts or inline styles (the site's Content-Security-Policy stays
as strict as it is). Headings get the same ids GitHub gives them, so ``docs/rules.md#chopping``
cited in the code is also ``…/rules/book/#chopping`` on the site.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

#: The heading that opens each language's half of the book.
HALVES: dict[str, str] = {"vi": "Sổ luật (tiếng Việt)", "en": "Rules book in English"}

_NOT_SLUG = re.compile(r"[^\w\- ]")


def slugify(title: str) -> str:
    """A heading's anchor the way GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens (Vietnamese letters stay)."""
    return _NOT_SLUG.sub("", title.strip().lower()).replace(" ", "-")


def headings(text: str) -> list[tuple[int, str]]:
    """(level, title) of every Markdown heading outside code blocks."""
    out: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#{1,6}) (.+)", line)):
            out.append((len(match.group(1)), match.group(2).strip()))
    return out


def half(text: str, lang: str) -> str:
    """The Markdown of one language's half, without its own ``##`` heading."""
    start = text.index(f"\n## {HALVES[lang]}\n")
    body = text[start:].split("\n", 2)[2]
    end = body.find("\n## ")
    return body if end < 0 else body[: end + 1]


@dataclass(frozen=True)
class Book:
    html: str
    #: (anchor, title) of each section, for the table of contents.
    sections: tuple[tuple[str, str], ...]


#: How a scrolling box of the book is announced: "Bảng: Thuật ngữ", "Example: Chopping".
_REGION_WORDS: dict[str, dict[str, str]] = {
    "table": {"vi": "Bảng", "en": "Table"},
    "code": {"vi": "Ví dụ", "en": "Example"},
}
_BOOK_TITLE: dict[str, str] = {"vi": "Luật chơi", "en": "Rules"}


def _markdown(lang: str) -> MarkdownIt:
    # "js-default": CommonMark plus tables, with raw HTML off (escaped, never passed through).
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})

    def heading_ids(state: StateCore) -> None:
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                token.attrSet("id", slugify(tokens[i + 1].content))

    md.core.ruler.push("heading_ids", heading_ids)

    # Render rules are bound to the renderer, RendererHTML (MarkdownIt's default renderer_cls).
    def region(tokens: Sequence[Token], idx: int, env: EnvType, kind: str) -> str:
        """A scrolling box's attributes: reachable by Tab (a keyboard scrolls it with the
        arrows), announced as a region named after its section, each name used once."""
        title = next(
            (
                tokens[i + 1].content
                for i in range(idx - 1, -1, -1)
                if tokens[i].type == "heading_open"
            ),
            _BOOK_TITLE[lang],
        )
        label = f"{_REGION_WORDS[kind][lang]}: {re.sub(r'[`*_]', '', title)}"
        seen: dict[str, int] = env.setdefault("regions", {})
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} ({seen[label]})"
        return f'tabindex="0" role="region" aria-label="{escapeHtml(label)}"'

    def table_open(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        # A wide table scrolls inside its own box on a phone, not the whole page.
        box = f'<div class="table-scroll" {region(tokens, idx, env, "table")}>'
        return box + self.renderToken(tokens, idx, options, env)

    def table_close(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return self.renderToken(tokens, idx, options, env) + "</div>\n"

    def fence(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        # The book holds no code (tests/docs/test_rules_book.py); should a block ever appear, it
        # scrolls in its own named box like a table.
        html = RendererHTML.fence(self, tokens, idx, options, env)
        return html.replace("<pre>", f"<pre {region(tokens, idx, env, 'code')}>", 1)

    md.add_render_rule("fence", fence)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


@lru_cache(maxsize=8)
def _render(lang: str, mtime_ns: int) -> Book:
    text = BOOK.read_text(encoding="utf-8")
    source = half(text, lang)
    # The half's sections (###) become the page's sections (##) under the page's own title.
    source = re.sub(r"^###", "##", source, flags=re.M)
    sections = tuple((slugify(t), t) for level, t in headings(source) if level == 2)
    return Book(html=_markdown(lang).render(source), sections=sections)


def render(lang: str) -> Book:
    """The book's half in ``lang`` ("vi" or "en"; anything else gets Vietnamese) as HTML."""
    lang = lang if lang in HALVES else "vi"
    return _render(lang, BOOK.stat().st_mtime_ns)


#: The glossary's heading in each half of the book: the one list of the game's Vietnamese
#: terms (the engine's names, the pages and the code's docstrings use these words as it says).
GLOSSARY: dict[str, str] = {"vi": "Thuật ngữ", "en": "Game terms"}


def glossary(lang: str) -> dict[str, str]:
    """The game's terms and what each means, in ``lang`` ("vi" or "en"), read from the rules
    book's glossary table (term → meaning, in the book's order, Markdown as written)."""
    text = half(BOOK.read_text(encoding="utf-8"), lang)
    section = text.split(f"### {GLOSSARY[lang]}\n", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    terms: dict[str, str] = {}
    for row in rows[1:]:  # the header row, then |---|---| (which does not start with "| ")
        term, meaning = (cell.strip() for cell in row.strip().strip("|").split("|", 1))
        terms[term] = meaning
    return terms
