"""Crawling the site as its owner sees it: every page reachable from home, every form on them.

Stdlib ``html.parser`` only: the crawl reads links (``<a href>``, and ``hx-get`` on any
element: what htmx loads into a page) and forms (``<form>`` with its ``input``, ``select``,
``textarea`` and named submit buttons) the way a browser would submit them, so a form added
later is found and posted without anyone listing it here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

# Each hostile value the issue names, posted in each field of each form.
HOSTILE: dict[str, str] = {
    "superscript": "²",
    "circled": "①",
    "full-width": "１０００",
    "nul": "a\x00b",
    "forty-digits": "9" * 40,
    "1e309": "1e309",
    "bidi": "Bình\u202e −12k",
    "zero-width": "A\u200db",
    "empty": "",
    "k-overflow": "999999999999999k",
}


@dataclass
class Form:
    action: str
    method: str
    multipart: bool
    # (name, value) pairs a browser sends as it stands: hidden and text inputs, checked
    # boxes, the selected option, textareas; the first named submit button.
    fields: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # every field name, in page order

    def key(self) -> tuple[str, str, tuple[str, ...]]:
        """Forms of one route with the same fields count once (the bank form of each player,
        the rule editor opened from each preset)."""
        route = re.sub(r"/([0-9]+|new)/", "/N/", urlsplit(self.action).path)
        return (route, self.method, tuple(sorted(set(self.names))))


class _Page(HTMLParser):
    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._option: list[str] | None = None
        self._textarea: tuple[str, list[str]] | None = None
        self._button_taken = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if a.get("hx-get"):  # what htmx loads into the page (a "Từng ván", a "Vì sao?", a poll)
            self.links.append(urljoin(self.url, a["hx-get"]))
        if tag == "a" and "href" in a:
            self.links.append(urljoin(self.url, a["href"]))
        elif tag == "form":
            self._form = Form(
                action=urljoin(self.url, a.get("action") or self.url),
                method=(a.get("method") or "get").lower(),
                multipart="multipart" in a.get("enctype", ""),
            )
            self._button_taken = False
            self.forms.append(self._form)
        elif tag == "option" and self._select is not None:  # an option has no name of its own
            self._select[1].append((a.get("value", ""), "selected" in a))
            self._option = [] if "value" not in a else None
        elif self._form is None or "name" not in a or "disabled" in a:
            return
        elif tag == "input":
            kind = a.get("type", "text").lower()
            name = a["name"]
            self._form.names.append(name)
            if kind == "file":
                self._form.files.append(name)
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._form.fields.append((name, a.get("value", "on")))
            elif kind in ("submit", "image", "button"):
                self._submit(name, a.get("value", ""))
            else:
                self._form.fields.append((name, a.get("value", "")))
        elif tag == "button":
            if a.get("type", "submit").lower() == "submit":
                self._form.names.append(a["name"])
                self._submit(a["name"], a.get("value", ""))
        elif tag == "select":
            self._form.names.append(a["name"])
            self._select = (a["name"], [])
        elif tag == "textarea":
            self._form.names.append(a["name"])
            self._textarea = (a["name"], [])

    def _submit(self, name: str, value: str) -> None:
        assert self._form is not None
        if not self._button_taken:
            self._form.fields.append((name, value))
            self._button_taken = True

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)
        if self._option is not None and self._select is not None and self._select[1]:
            value, selected = self._select[1][-1]
            self._select[1][-1] = (value + data.strip(), selected)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, options = self._select
            chosen = [v for v, selected in options if selected] or [v for v, _s in options[:1]]
            self._form.fields.extend((name, v) for v in chosen[:1])
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            name, parts = self._textarea
            text = "".join(parts)
            self._form.fields.append((name, text[1:] if text.startswith("\n") else text))
            self._textarea = None


def parse(url: str, html: str) -> _Page:
    page = _Page(url)
    page.feed(html)
    page.close()
    return page


def same_site(url: str) -> str | None:
    """The path and query of a link to this site, or None for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")
