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
* a refused post (4xx) left every table's row count and the ledger sums as they were;
* whatever was accepted still audits clean: every game equals the engine's result.

Runs on SQLite and PostgreSQL alike (NUL and out-of-range integers only break the latter).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Sum

from scoring import ledger, services
from scoring.models import Payment, Settlement, Sitting
from tests.hostile.conftest import Table
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


def crawl(client: Any) -> tuple[list[str], list[Form]]:
    """Pages reachable from home (breadth first) and the distinct forms on them."""
    queue, seen, pages = ["/"], set(), []
    forms: dict[tuple[str, str, tuple[str, ...]], Form] = {}
    while queue and len(pages) < MAX_PAGES:
        path = queue.pop(0)
        # One page per route and query (the pair page of each two players is one page).
        route = re.sub(r"/[0-9]+/", "/N/", path)
        if route in seen:
            continue
        seen.add(route)
        response = client.get(path)
        assert response.status_code < 500, path
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


def test_every_form_takes_every_hostile_value_without_a_500_or_a_partial_write(
    full_table: Table, owner_client
):
    pages, forms = crawl(owner_client)
    actions = sorted({f.action for f in forms})
    for expected in EXPECTED_ACTIONS:
        assert any(expected in a for a in actions), (expected, actions, pages)
    failures: list[str] = []
    posts = 0
    for form in forms:
        if (same_site(form.action) or "").startswith(SKIP):
            continue
        for name, label, body in _bodies(form):
            posts += 1
            where = f"{form.method.upper()} {form.action} {name}={label}"
            with transaction.atomic():
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
                elif response.status_code >= 400 and after != before:
                    failures.append(f"{where}: refused ({response.status_code}) but wrote rows")
                elif after != before:
                    problems = ledger_problems(full_table.sitting.pk)
                    if problems:
                        failures.append(f"{where}: ledger {problems}")
                transaction.set_rollback(True)
            if "_auth_user_id" not in owner_client.session:
                owner_client.force_login(full_table.user)
    assert posts > 300, (len(pages), len(forms), posts)
    assert failures == [], "\n".join(failures[:40])
