"""The import graph of scoring/: no circle, and no module importing one of a higher layer.

Read from the source (``ast``), not by importing: every ``import`` counts, also one inside a
function or under ``TYPE_CHECKING`` (a late import is how a circle hides). Each module belongs
to one layer of :data:`LAYERS`, lowest first; a module may import its own layer and the ones
below. A new module fails :func:`test_every_module_has_a_layer` until it is placed here.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[1] / "scoring"

#: Lowest first: each layer's modules (a name stands for itself and every module under it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the engine (pure Python)", ("scoring.engine",)),
    (
        "helpers that know nothing of the ledger",
        (
            "scoring",  # the package's own __init__
            "scoring.after_response",
            "scoring.apps",
            "scoring.cache_backend",
            "scoring.chain",
            "scoring.clientip",
            "scoring.csvfile",
            "scoring.http",
            "scoring.middleware",
            "scoring.moneytext",
            "scoring.oneatatime",
            "scoring.poll",
            "scoring.probe",
            "scoring.rulesbook",
            "scoring.settle",
            "scoring.unavailable",
            "scoring.vietqr",
        ),
    ),
    ("typed text and numbers", ("scoring.text", "scoring.numbers")),
    ("models", ("scoring.models",)),
    (
        "words, access, the live version, forms of the game",
        (
            "scoring.access",
            "scoring.charts",
            "scoring.live_cache",
            "scoring.recordform",
            "scoring.ruleform",
            "scoring.rulesummary",
            "scoring.wording",
        ),
    ),
    ("reads", ("scoring.ledger", "scoring.stats")),
    ("the session file", ("scoring.sessionfile",)),
    ("writes", ("scoring.services",)),
    ("filters and forms", ("scoring.templatetags", "scoring.forms", "scoring.bodylimit")),
    ("entry points", ("scoring.views", "scoring.urls", "scoring.admin", "scoring.management")),
)  # fmt: skip


def _name(path: Path) -> str:
    parts = list(path.relative_to(SCORING.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {
        _name(path): path
        for path in SCORING.rglob("*.py")
        if "migrations" not in path.relative_to(SCORING).parts
    }


def _imports(name: str) -> set[str]:
    """The modules of scoring/ that ``name`` imports, wherever in the file."""
    path = _modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return _imports_in(path.read_text("utf-8"), name, package)


def _imports_in(source: str, name: str, package: str) -> set[str]:
    modules = _modules()
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                # "from scoring import ledger" imports a module; "from scoring.x import y" a name.
                if f"{source}.{alias.name}" in modules:
                    found.add(f"{source}.{alias.name}")
                elif source in modules:
                    found.add(source)
    found.discard(name)
    return found


def _layer(name: str) -> int | None:
    best: tuple[int, int] | None = None  # (length of the matching prefix, layer)
    for index, (_title, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            matches = name == prefix or (prefix != "scoring" and name.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def _graph() -> dict[str, set[str]]:
    return {name: _imports(name) for name in _modules()}


def test_the_sweep_reads_the_whole_package():
    graph = _graph()
    assert len(graph) > 80
    assert "scoring.engine.rules" in graph["scoring.engine.limits"]
    assert "scoring.ledger.standing" in graph["scoring.services.groups"]
    # "from scoring import chain, engine, settle" names three modules.
    assert {"scoring.chain", "scoring.engine", "scoring.settle"} <= graph["scoring.sessionfile"]


def test_every_module_has_a_layer():
    assert [name for name in _modules() if _layer(name) is None] == []


def test_no_module_imports_a_higher_layer():
    def title(module: str) -> str:
        return f"{module} ({LAYERS[_layer(module) or 0][0]})"

    upward = [
        f"{title(name)} imports {title(target)}"
        for name, targets in sorted(_graph().items())
        for target in sorted(targets)
        if (_layer(target) or 0) > (_layer(name) or 0)
    ]
    assert upward == []


def test_there_is_no_import_circle():
    graph = _graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert [" → ".join(circle) for circle in circles] == []


def test_the_engine_imports_no_django():
    engine = [name for name in _modules() if name.startswith("scoring.engine")]
    found = [
        name
        for name in engine
        for node in ast.walk(ast.parse(_modules()[name].read_text("utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        and any(
            (getattr(node, "module", None) or alias.name).startswith("django")
            for alias in node.names
        )
    ]
    assert found == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import scoring.ledger.standing\n", {"scoring.ledger.standing"}),
        ("def late():\n    from scoring import services\n", {"scoring.services"}),
        ("from scoring.services.common import InvalidInput\n", {"scoring.services.common"}),
        ("from ..services import common\n", {"scoring.services.common"}),
        ("from .balances import Ledger\n", {"scoring.ledger.balances"}),
        ("if TYPE_CHECKING:\n    from scoring.models import Game\n", {"scoring.models"}),
        ("import json\nfrom django import forms\n", set()),
    ],
)
def test_it_sees_each_way_of_importing(source, expected):
    assert _imports_in(source, "scoring.ledger.board", "scoring.ledger") == expected
