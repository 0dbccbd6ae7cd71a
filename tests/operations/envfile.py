"""systemd's ``EnvironmentFile=`` as its manual (systemd.exec(5)) describes it, for the tests.

- empty lines, lines without ``=`` and lines starting with ``#`` or ``;`` are ignored;
- leading and trailing whitespace (space, tab, carriage return) is dropped;
- an unquoted value keeps its interior whitespace and any quote after its first character; a
  backslash keeps the next character, and at the end of a line joins the next one;
- a ``'``-quoted value is taken verbatim up to the next ``'``, across lines;
- a ``"``-quoted value: a backslash before one of ``"\\`$`` keeps that character, before a
  newline joins the lines, before anything else stays with it; it may span lines.

No variable or specifier is expanded: ``$HOME`` stays ``$HOME`` (unlike sh, which is why the
project's file must have no ``$`` at all).
"""

from __future__ import annotations

import re

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WHITE = " \t\r"


def parse(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        # The start of a line: skip leading whitespace and blank lines.
        while i < n and text[i] in WHITE + "\n":
            i += 1
        if i >= n:
            break
        if text[i] in "#;":
            i = _line_end(text, i)
            continue
        end = text.find("=", i)
        line_end = _line_end(text, i)
        if end == -1 or end > line_end:
            i = line_end
            continue
        key = text[i:end].strip(WHITE)
        i = end + 1
        while i < n and text[i] in WHITE:
            i += 1
        value, i = _value(text, i)
        if NAME.fullmatch(key):
            found[key] = value
        # What follows a closing quote up to the end of its line is whitespace or ignored.
        i = _line_end(text, i)
    return found


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end == -1 else end + 1


def _value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    if i < n and text[i] == "'":
        end = text.find("'", i + 1)
        if end == -1:
            raise ValueError("a single quote is never closed")
        return text[i + 1 : end], end + 1
    if i < n and text[i] == '"':
        out, i = [], i + 1
        while i < n and text[i] != '"':
            if text[i] == "\\" and i + 1 < n:
                nxt = text[i + 1]
                if nxt == "\n":
                    pass
                elif nxt in '"\\`$':
                    out.append(nxt)
                else:
                    out.append("\\" + nxt)
                i += 2
                continue
            out.append(text[i])
            i += 1
        if i >= n:
            raise ValueError("a double quote is never closed")
        return "".join(out), i + 1
    out = []
    while i < n and text[i] != "\n":
        if text[i] == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out).rstrip(WHITE), i
