"""The import graph of the project: no circle, and no module importing one of a higher layer.

Read from the source (``ast``), not by importing: every ``import`` counts, also one inside a
function or under ``TYPE_CHECKING`` (a late import is how a circle hides). The sweep covers
scoring/, tienlen_site/ and bench/. Each module belongs to the layer of its folder in
:data:`LAYERS`, lowest first; a module may import its own layer and the ones below. A new
module in a folder gets its folder's layer; a new module at the top of scoring/ fails
:func:`test_every_module_has_a_layer` until it is placed here (the top stays small on purpose).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "tienlen_site", "bench")

#: Lowest first: each layer's folders (a name stands for itself and every module under it, but
#: ``scoring`` stands only for the package's own ``__init__``).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("site plumbing, knowing nothing of Tiến Lên", ("tienlen_site.plumbing",)),
    ("the engine (pure Python)", ("scoring.engine",)),
    ("text and numbers", ("scoring.text",)),
    ("the app, its models and who may see them",
     ("scoring", "scoring.apps", "scoring.models", "scoring.access")),
    ("reads", ("scoring.ledger",)),
    ("writes", ("scoring.services",)),
    ("forms", ("scoring.forms",)),
    ("template filters", ("scoring.templatetags",)),
    ("entry points", ("scoring.views", "scoring.urls", "scoring.admin", "scoring.management")),
    ("the site: settings, URL root, servers", ("tienlen_site",)),
    ("benchmarks", ("bench",)),
)  # fmt: skip


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {
        _name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    }


def _imports(name: str) -> set[str]:
    """The swept modules that ``name`` imports, wherever in the file."""
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
    assert len(graph) > 120
    assert "scoring.engine.rules" in graph["scoring.engine.limits"]
    assert "scoring.ledger.standing" in graph["scoring.services.groups"]
    # "from scoring.engine import chain, limits, settle" names three modules.
    assert {
        "scoring.engine.chain",
        "scoring.engine.limits",
        "scoring.engine.settle",
    } <= graph["scoring.ledger.sessionfile"]
    assert "tienlen_site.plumbing.clientip" in graph["tienlen_site.plumbing.oneatatime"]
    assert "bench.sessiondata" in graph["bench.bench_import"]


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


def test_the_site_plumbing_imports_nothing_of_the_app():
    plumbing = [name for name in _modules() if name.startswith("tienlen_site.plumbing")]
    found = [
        f"{name} imports {module}"
        for name in plumbing
        for node in ast.walk(ast.parse(_modules()[name].read_text("utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        for module in [getattr(node, "module", None) or alias.name for alias in node.names]
        if module.split(".")[0] == "scoring"
    ]
    assert len(plumbing) > 5
    assert found == []


def test_every_late_import_of_a_migration_still_resolves():
    """A migration's data step imports the project's code when it runs, which is only on a
    database that holds rows from before it: a moved module would fail there, and nowhere in
    a test run that starts from an empty database. Each name it imports must still be found."""
    import importlib

    missing = []
    for path in sorted((ROOT / "scoring" / "migrations").glob("0*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if node.module.split(".")[0] != "scoring":
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if not hasattr(module, alias.name):
                    try:
                        importlib.import_module(name)
                    except ModuleNotFoundError:
                        missing.append(f"{path.name}: {name}")
    assert missing == []


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


#: What the secret links' views share (scoring/views/links.py): the one module under
#: scoring/views that holds no view, and so the one a view module may import.
VIEWS_SHARED = "scoring.views.links"


def test_no_view_module_imports_another():
    views = [name for name in _modules() if name.startswith("scoring.views.")]
    assert len(views) > 10
    found = {
        (name, imported)
        for name in views
        for imported in _imports(name)
        if imported.startswith("scoring.views.") and imported not in (name, VIEWS_SHARED)
    }
    assert found == set(), sorted(found)
    assert not [name for name in _imports(VIEWS_SHARED) if name.startswith("scoring.views")]
    urls = _modules()["scoring.urls"].read_text("utf-8")
    assert "links." not in urls and " links," not in urls, "no URL points to the shared module"
