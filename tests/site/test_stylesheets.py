"""Every stylesheet's braces balance: an unclosed block (once, ``@media (max-width: 430px) {``
ran to the end of site.css) silently makes every rule after it apply on phones only."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHEETS = sorted((ROOT / "static").rglob("*.css"))


def unbalanced(css: str) -> str:
    """ "" when every block is closed where it opens, else where it goes wrong."""
    text = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), css, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', lambda m: " " * len(m.group(0)), text)
    depth = 0
    for at, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return f"a '}}' closes nothing on line {text.count(chr(10), 0, at) + 1}"
    return f"{depth} block(s) never closed" if depth else ""


def test_there_are_stylesheets_to_check():
    assert {p.name for p in SHEETS} >= {"site.css", "groups.css"}


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_every_stylesheets_braces_balance(sheet):
    assert unbalanced(sheet.read_text("utf-8")) == ""


def test_the_check_finds_an_unclosed_block_and_a_stray_brace():
    assert unbalanced("@media (max-width: 430px) { a { color: red; }") == "1 block(s) never closed"
    assert unbalanced("a { }\n}") == "a '}' closes nothing on line 2"
    assert unbalanced('a::before { content: "{"; } /* } */') == ""
