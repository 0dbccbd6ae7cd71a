"""The read filters live on the models: no module of scoring/ spells them out again.

"Active game, current revision, not void" is written once, in the QuerySet methods beside
the models in scoring/models/ (``Game.objects.active()``, ``Payment.objects.current()`` and
``.counted()``, ``Seat.objects.counted()``, ``Settlement.objects.standing()``). A module that
filters on ``revision=F(...)`` or ``is_void=False`` itself is a copy that can drift from them.
So is "the players not merged into another": ``Player.objects.unmerged()`` in a query,
``GroupLedger.unmerged`` (scoring/ledger/standing.py) over a loaded ledger.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[1] / "scoring"
# Where the filters are defined, and the migrations (history, never edited).
ALLOWED = ("models/", "migrations/")
SPELLED_OUT = ("revision=F(", "is_void=False", "merged_into=None", "merged_into__isnull")
#: An in-memory copy of ``GroupLedger.unmerged``, allowed only where that is defined.
UNMERGED_LIST = "players if p.merged_into_id is None"
UNMERGED_HOME = "ledger/standing.py"
#: The comparisons that decide what a close covers, which only ``PeriodClose`` makes.
COVERS_BY_HAND = ("date__lt=", "date__gt=", "pk__lte=", "pk__gt=", "created_at__lte=")


def _modules() -> list[Path]:
    return sorted(
        path
        for path in SCORING.rglob("*.py")
        if not path.relative_to(SCORING).as_posix().startswith(ALLOWED)
    )


def test_the_sweep_reads_the_modules_that_query_the_ledger():
    names = {path.relative_to(SCORING).as_posix() for path in _modules()}
    assert len(names) > 20
    assert any(name.startswith("ledger") for name in names)
    assert any(name.startswith("services") for name in names)
    assert not any(name.startswith(ALLOWED) for name in names)


@pytest.mark.parametrize("needle", SPELLED_OUT)
def test_no_module_outside_the_models_spells_out_a_read_filter(needle):
    found = [
        f"scoring/{path.relative_to(SCORING).as_posix()}:{number}: {line.strip()}"
        for path in _modules()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if needle in line
    ]
    assert found == [], f"use the QuerySet methods of scoring/models/ instead of {needle}"


def test_no_module_but_the_ledger_s_own_filters_the_merged_players_out_of_a_list():
    found = [
        f"scoring/{path.relative_to(SCORING).as_posix()}:{number}: {line.strip()}"
        for path in _modules()
        if path.relative_to(SCORING).as_posix() != UNMERGED_HOME
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if UNMERGED_LIST in line
    ]
    assert found == [], "use GroupLedger.unmerged"
    home = (SCORING / UNMERGED_HOME).read_text("utf-8")
    assert home.count(UNMERGED_LIST) == 1, "GroupLedger.unmerged is written once"


def test_a_write_inside_a_closed_period_is_refused_by_one_rule_in_one_sentence():
    """What a close covers is decided by ``PeriodClose`` (``covers_sitting``,
    ``covers_settlement`` and their SQL, ``sittings_covered``, ``wide_settlements_after``),
    and a write it covers gets one error in one sentence (services/common.py)."""
    words = "Sổ của nhóm đã chốt đến hết ngày %(d)s"
    refusing = [
        path.relative_to(SCORING).as_posix()
        for path in _modules()
        if words in path.read_text("utf-8")
    ]
    assert refusing == ["services/common.py"]
    by_hand = [
        f"scoring/{path.relative_to(SCORING).as_posix()}:{number}: {line.strip()}"
        for path in _modules()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if ".closes_through" in line and any(rule in line for rule in COVERS_BY_HAND)
    ]
    assert by_hand == [], "ask the PeriodClose what it covers"


def test_a_view_asks_for_a_fragment_one_way():
    """Whether to answer with a fragment (and which, on a page of several) is
    ``wants_fragment``'s question, and going to another page from htmx or a plain form is
    ``page_redirect``'s (tienlen_site/plumbing/http.py): no view reads ``request.htmx`` or
    ``?part=`` itself, so the page htmx restores from history is always whole."""
    found = [
        f"scoring/{path.relative_to(SCORING).as_posix()}:{number}: {line.strip()}"
        for path in _modules()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "request.htmx" in line or '.get("part")' in line or "HttpResponseClientRedirect" in line
    ]
    assert found == []


def test_a_view_hands_its_page_model_to_the_template_whole():
    """A page model reaches its template as ``page`` (``{"page": page, ...}``), never spread
    into the context: the template reads ``page.x``, so what a page shows is the model's."""
    found = [
        f"scoring/{path.relative_to(SCORING).as_posix()}:{number}: {line.strip()}"
        for path in sorted((SCORING / "views").rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "**vars(" in line
    ]
    assert found == []


def _transactions(tree: ast.AST) -> list[tuple[str, ast.expr, bool]]:
    """Each ``transaction.atomic`` of a module's functions: the function, the decorator or the
    call, and whether the function holds a durable one (then a plain one is a savepoint)."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        here: list[ast.expr] = [
            node for node in function.decorator_list if ast.unparse(node) == "transaction.atomic"
        ]
        here += [
            node
            for node in ast.walk(function)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "transaction.atomic"
        ]
        durable = any("durable=True" in ast.unparse(node) for node in here)
        found += [(function.name, node, durable) for node in here]
    return found


def test_a_service_s_transaction_is_the_whole_write():
    """A service's transaction is durable: run inside another, it raises rather than letting
    its locks, its history and its news on commit belong to a write it does not know. Inside
    it, a plain ``atomic()`` is a savepoint (in a helper, said just above). The few that
    another write composes say so, and which, on the line above; common.py's lock helpers run
    in the transaction of the service that calls them."""
    composed = []
    for path in sorted((SCORING / "services").glob("*.py")):
        if path.name == "common.py":
            continue
        source = path.read_text("utf-8")
        lines = source.splitlines()
        for function, node, durable in _transactions(ast.parse(source)):
            if durable:
                continue
            above = lines[node.lineno - 2].strip()
            if above.startswith("# Not durable: "):
                composed.append(function)
                continue
            if any(
                line.strip().startswith("# A savepoint")
                for line in lines[node.lineno - 4 : node.lineno - 1]
            ):
                continue  # inside the write of the service that calls this helper
            pytest.fail(f"scoring/services/{path.name}:{node.lineno} ({function}) is not durable")
    assert sorted(set(composed)) == [
        "_set_status",
        "archive_import",
        "group_answer",
        "group_import",
        "player_merge",
        "sitting_open",
    ]
