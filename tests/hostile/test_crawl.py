"""Every form the owner can reach, every field, every hostile value: never a 500, and a refused
post writes nothing.

The owner has a full sitting (``build_table``: games, a voided one, a chặt chồng, a
settlement, a saved rule set, a live link, a bank account). The crawl starts at the home page
and follows every link within the site; each form found (by action, method and field names)
is submitted as the page has it with one field replaced by a hostile value: each of
:data:`crawl.HOSTILE` goes into each family of fields (fields read by the same code, like the
cards of each seat), spread over its members so every field gets at least one.
Each post runs inside a transaction rolled back afterwards, so every post meets the same
table and the suite stays deterministic; before the rollback the post is judged:

* the status is below 500 (the test client re-raises any exception, which also fails);
* the answer's headers fit in 4 KB (nginx's default buffer for them: a larger answer is
  dropped by the proxy, which then counts the app server as failed);
* a refused post (4xx) left every table's row count and the ledger sums as they were;
* whatever was accepted still audits clean: every game equals the engine's result.

Runs on SQLite and PostgreSQL alike (NUL and out-of-range integers only break the latter).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

import scoring
from scoring import ledger, services
from scoring.models import Payment, Settlement, Sitting
from tests.factories import atomic_in_test
from tests.hostile.conftest import Route, Table, all_routes
from tests.hostile.crawl import HOSTILE, Form, parse, same_site
from tests.hostile.fuzzing import as_data, counts, ledger_problems

pytestmark = pytest.mark.django_db

# Not followed: Django's admin, static files, and leaving the session.
SKIP = ("/admin/", "/static/", "/accounts/logout/")
MAX_PAGES = 150
# Forms the crawl must find, or it has stopped seeing the site (by the end of their action).
EXPECTED_ACTIONS = (
    "/s/new/",
    "/games/",
    "/members/",
    "/share/",
    "/settlements/",
    "/void/",
    "/import/",
    "/rules/",
    "/bank/",
    "/merge/",
    "/live/",
    "/i18n/setlang/",
)


#: What an answer's headers may weigh (nginx's default ``proxy_buffer_size``; the project's
#: proxy file allows more, so this is the margin, not the edge).
HEADER_BUDGET = 4096


def header_bytes(response: Any) -> int:
    """An answer's headers as sent: "Name: value" and CRLF each, cookies included."""
    cookies = sum(len(morsel.OutputString()) + 14 for morsel in response.cookies.values())
    return cookies + sum(len(k) + len(str(v)) + 4 for k, v in response.headers.items())


def crawl(client: Any) -> tuple[list[str], list[Form]]:
    """Pages reachable from home (breadth first) and the distinct forms on them."""
    queue, seen, pages = ["/"], set(), []
    forms: dict[tuple[str, str, tuple[str, ...]], Form] = {}
    while queue and len(pages) < MAX_PAGES:
        path = queue.pop(0)
        # One page per route and set of query names (the pair page of each two players is
        # one page; so is the stats page under each sort and period).
        where, _, query = path.partition("?")
        names = sorted({part.split("=")[0] for part in query.split("&") if part})
        route = re.sub(r"/[0-9]+/", "/N/", where) + "?" + "&".join(names)
        if route in seen:
            continue
        seen.add(route)
        response = client.get(path)
        assert response.status_code < 500, path
        assert header_bytes(response) < HEADER_BUDGET, path
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages.append(path)
        page = parse(f"http://testserver{path}", response.content.decode())
        for form in page.forms:
            forms.setdefault(form.key(), form)
        for link in page.links:
            target = same_site(link)
            if target and not target.startswith(SKIP):
                queue.append(target)
    return pages, list(forms.values())


def _state(sitting: Sitting) -> tuple[dict[str, int], tuple[Any, ...]]:
    sums = (
        Payment.objects.aggregate(s=Sum("amount"))["s"],
        Settlement.objects.aggregate(s=Sum("amount"))["s"],
        tuple(sorted(ledger.balances(sitting).items())),
    )
    return counts(), sums


def family(name: str) -> str:
    """Fields read by the same code: ``cards_0`` and ``cards_2``, ``pen_2S`` and ``pen_3dt``,
    every ``hv_<hand>``."""
    return "hv_" if name.startswith("hv_") else re.sub(r"[0-9]+[A-Za-z]*", "N", name)


def _bodies(form: Form) -> Iterator[tuple[str, str, list[tuple[str, str]]]]:
    """(field, label of the value, body): every hostile value in every family of fields, and
    every field with at least one of them (spread over the family's members)."""
    names = list(dict.fromkeys(n for n in form.names if n != "csrfmiddlewaretoken"))
    families: dict[str, list[str]] = {}
    for name in names:
        families.setdefault(family(name), []).append(name)
    labels = list(HOSTILE)
    for members in families.values():
        for j in range(max(len(members), len(labels))):
            name, label = members[j % len(members)], labels[j % len(labels)]
            body = [(k, v) for k, v in form.fields if k != name] + [(name, HOSTILE[label])]
            yield name, label, body


def _send(client: Any, form: Form, body: list[tuple[str, str]], value: str) -> Any:
    path = same_site(form.action) or "/"
    data: dict[str, Any] = as_data(body)
    if form.method == "get":
        return client.get(path, data)
    for name in form.files:
        data[name] = SimpleUploadedFile("ban.json", value.encode("utf-8", "surrogatepass"))
    return client.post(path, data)


@pytest.fixture
def full_table(table: Table) -> Table:
    services.player_set_bank(
        player=table.players[3], bank_bin="970436", account="0123456789", holder="AN"
    )
    return table


#: The form sweep in this many tests, so the workers of a parallel run share it: the posts of
#: every form are dealt round in turn, each test crawls the site itself (the forms carry the
#: ids of its own table) and sends its share.
FORM_SHARES = 8


def _posts(client: Any) -> tuple[list[str], list[Form], list[tuple[Form, str, str, list[Any]]]]:
    """The crawl's pages and forms, and every post of the sweep in a fixed order: every
    hostile value in every family of fields of every form found."""
    pages, forms = crawl(client)
    posts = [
        (form, name, label, body)
        for form in forms
        if not (same_site(form.action) or "").startswith(SKIP)
        for name, label, body in _bodies(form)
    ]
    return pages, forms, posts


def test_the_crawl_finds_every_form_it_expects_and_enough_posts(full_table: Table, owner_client):
    pages, forms, posts = _posts(owner_client)
    actions = sorted({f.action for f in forms})
    for expected in EXPECTED_ACTIONS:
        assert any(expected in a for a in actions), (expected, actions, pages)
    assert len(posts) > 300, (len(pages), len(forms), len(posts))
    # Every post is in exactly one share.
    shares = [posts[share::FORM_SHARES] for share in range(FORM_SHARES)]
    assert sum(len(s) for s in shares) == len(posts) and all(shares)


@pytest.mark.long
@pytest.mark.parametrize("share", range(FORM_SHARES))
def test_every_form_takes_every_hostile_value_without_a_500_or_a_partial_write(
    full_table: Table, owner_client, share: int
):
    pages, forms, posts = _posts(owner_client)
    assert len(posts) > 300, (len(pages), len(forms), len(posts))
    mine = posts[share::FORM_SHARES]
    failures: list[str] = []
    sent = 0
    for form, name, label, body in mine:
        sent += 1
        where = f"{form.method.upper()} {form.action} {name}={label}"
        with atomic_in_test():
            before = _state(full_table.sitting)
            try:
                response = _send(owner_client, form, body, HOSTILE[label])
            except Exception as error:  # the test client re-raises a view's exception
                failures.append(f"{where}: {type(error).__name__}: {error}")
                transaction.set_rollback(True)
                continue
            after = _state(full_table.sitting)
            if response.status_code >= 500:
                failures.append(f"{where}: {response.status_code}")
            elif header_bytes(response) >= HEADER_BUDGET:
                failures.append(f"{where}: headers of {header_bytes(response)} bytes")
            elif response.status_code >= 400 and after != before:
                failures.append(f"{where}: refused ({response.status_code}) but wrote rows")
            elif after != before:
                problems = ledger_problems(full_table.sitting.pk)
                if problems:
                    failures.append(f"{where}: ledger {problems}")
            transaction.set_rollback(True)
        if "_auth_user_id" not in owner_client.session:
            owner_client.force_login(full_table.user)
    assert sent == len(mine) > 300 // FORM_SHARES, (share, sent, len(posts))
    assert failures == [], "\n".join(failures[:40])


# --- Every URL pattern, with hostile query strings and form values ------------------------

#: What a number parser meets in a query string or a form: the values the issue names (``²``
#: and ``①`` and 12 digits on ``?undone=``, 5 000 digits in the hand counts), another script's
#: digit, NUL, a bidi override, a negative number, nothing.
HOSTILE_NUMBERS: dict[str, str] = {
    "superscript": "²",
    "circled": "①",
    "arabic-indic": "٣",
    "twelve-digits": "1" * 12,
    "5000-digits": "9" * 5000,
    "nul": "\x00",
    "bidi": "\u202e",
    "negative": "-1",
    "empty": "",
}
#: Names the source scan below cannot see (Django's own pages read ``next``), and common ones a
#: parameter added to a page later is likely to take.
GENERIC_NAMES = ("page", "next", "id", "pk", "n", "number", "version", "since", "q", "sort")
# A name read from a request in the site's code: ``.get("undone")``, ``int_param(..., "page")``.
_READ = re.compile(
    r"""(?:\.get|\.getlist|int_param)\(\s*(?:[\w.]+,\s*)?["']([A-Za-z_][\w-]*)["']"""
)


@functools.cache
def read_names() -> frozenset[str]:
    """Every name the site's code reads by name (from its source, so a parameter added later is
    swept without anyone listing it), and the generic ones."""
    root = Path(scoring.__file__).parent
    names = set(GENERIC_NAMES)
    for path in root.rglob("*.py"):
        if {"engine", "migrations"} & set(path.relative_to(root).parts):
            continue
        names.update(_READ.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


def _url(table: Table, route: Route, group_token: str) -> str:
    kwargs: dict[str, object] = {}
    if "uidb64" in route.args:
        kwargs["uidb64"] = urlsafe_base64_encode(force_bytes(table.user.pk))
    rest = [a for a in route.args if a != "uidb64"]
    kwargs.update(table.kwargs(route.route, rest))
    if route.route.startswith("gl/"):
        kwargs["token"] = group_token
    return reverse(route.name, kwargs=kwargs)


#: Rotations of the values over the names: each name meets three values in a mixed request.
ROTATIONS = 3


def _queries(names: list[str]) -> Iterator[tuple[str, dict[str, str], dict[str, str]]]:
    """(label, parameters, headers): each hostile value in every name at once (and in the
    headers that hold numbers), then the values rotated over the names as htmx asks, so no
    single value decides how far a page reads before it stops."""
    labels = list(HOSTILE_NUMBERS)
    for label in labels:
        value = HOSTILE_NUMBERS[label]
        yield label, dict.fromkeys(names, value), {"HTTP_IF_NONE_MATCH": value}
    step = len(labels) // ROTATIONS
    for j in range(0, step * ROTATIONS, step):
        rotated = {n: HOSTILE_NUMBERS[labels[(k + j) % len(labels)]] for k, n in enumerate(names)}
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": HOSTILE_NUMBERS[labels[j]]}
        yield f"rotated-{j}", rotated, headers


def _form_names(client: Any, urls: list[str]) -> set[str]:
    """The field names of every form on the pages the owner can open."""
    names: set[str] = set()
    for url in urls:
        response = client.get(url)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            for form in parse(f"http://testserver{url}", response.content.decode()).forms:
                names.update(form.names)
    return names


#: One route per name (the site's login page overrides Django's, under the same name), as the
#: resolver lists them when the tests are collected: one test each, so the workers share them.
ROUTES: dict[str, Route] = {}
for _route in all_routes():
    ROUTES.setdefault(_route.name, _route)


def _urls(table: Table) -> dict[str, str]:
    """The URL of every route, pointing at the table's real objects (and a group live link
    made for it). Django's admin is not swept; logging out is (the owner logs in again)."""
    group = table.sitting.group
    group_token = services.group_live_link(group=group, user=table.user, action="enable")
    urls = {name: _url(table, route, group_token or "") for name, route in ROUTES.items()}
    return {name: url for name, url in urls.items() if not url.startswith("/admin/")}


#: The names swept in every request, worked out once per test process: those the site's code
#: reads and the field names of every form on every page the owner can open (the same on every
#: table ``build_table`` makes).
_SWEPT_NAMES: list[list[str]] = []


def _swept_names(table: Table, client: Any, urls: list[str]) -> list[str]:
    if not _SWEPT_NAMES:
        with atomic_in_test():
            names = read_names() | _form_names(client, urls)
            transaction.set_rollback(True)
        _SWEPT_NAMES.append(sorted(names - {"csrfmiddlewaretoken"}))
        if "_auth_user_id" not in client.session:
            client.force_login(table.user)
    return _SWEPT_NAMES[0]


def _sweep(client: Any, url: str, names: list[str], relogin: Any) -> tuple[int, list[str]]:
    failures: list[str] = []
    sent = 0
    for label, params, headers in _queries(names):
        for method in ("get", "post"):
            sent += 1
            with atomic_in_test():
                try:
                    if method == "get":
                        # A GET has no body: its Content-Length is one more number read.
                        length = headers.get("HTTP_IF_NONE_MATCH", "")
                        response = client.get(url, params, CONTENT_LENGTH=length, **headers)
                    else:
                        response = client.post(url, params, **headers)
                except Exception as error:  # the test client re-raises a view's exception
                    failures.append(f"{method.upper()} {url} {label}: {error!r:.200}")
                    response = None
                transaction.set_rollback(True)
            if response is not None and response.status_code >= 500:
                failures.append(f"{method.upper()} {url} {label}: {response.status_code}")
            elif response is not None and header_bytes(response) >= HEADER_BUDGET:
                size = header_bytes(response)
                failures.append(f"{method.upper()} {url} {label}: headers of {size} bytes")
            relogin()
    return sent, failures


def test_the_url_sweep_has_every_route_and_every_name(full_table: Table, owner_client):
    """The resolver still sees the whole site, each route points somewhere of its own, and
    the names swept include those the issue named and the record form's fields."""
    assert len(ROUTES) > 60
    assert {"home", "rules_new", "rules_edit", "sitting", "login", "logout"} <= set(ROUTES)
    assert {route.name for route in all_routes()} == set(ROUTES)
    urls = _urls(full_table)
    assert len(set(urls.values())) > 60, urls
    names = _swept_names(full_table, owner_client, list(urls.values()))
    assert {"undone", "entry", "page", "banker", "cards_1", "3dt_1", "tq_1", "4dt_1"} <= set(names)
    assert len(list(_queries(names))) == len(HOSTILE_NUMBERS) + ROTATIONS


@pytest.mark.parametrize("name", list(ROUTES))
def test_every_url_takes_hostile_numbers_in_its_query_and_form_without_a_500(
    full_table: Table, owner_client, name: str, settings: Any
):
    """Each URL pattern (from the resolver, pointing at the owner's real objects), each hostile
    value in every name a view reads, in the query string and in a post, as the owner and as
    an anonymous visitor. Django runs with DEBUG off here, as in production.

    The sweep's queries (every name at once, one of them 5 000 digits long) are far longer than
    any address the site makes, which the site refuses with 414 before any view reads it
    (tests/site/test_long_addresses.py); here that limit is lifted so every view meets them,
    and no answer may echo them into its headers."""
    assert not settings.DEBUG
    settings.MAX_QUERY_CHARS = 1_000_000
    urls = _urls(full_table)
    if name not in urls:
        pytest.skip("Django's admin is left to Django")
    names = _swept_names(full_table, owner_client, list(dict.fromkeys(urls.values())))

    def relogin() -> None:
        if "_auth_user_id" not in owner_client.session:
            owner_client.force_login(full_table.user)

    sent, failures = _sweep(owner_client, urls[name], names, relogin)
    more, also = _sweep(Client(), urls[name], names, lambda: None)
    # Every query set, as a GET and as a POST, as the owner and as an anonymous visitor.
    assert sent == more == 2 * (len(HOSTILE_NUMBERS) + ROTATIONS), (sent, more)
    assert failures + also == [], "\n".join((failures + also)[:40])
