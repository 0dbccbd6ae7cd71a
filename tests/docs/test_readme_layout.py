"""README's layout shows the folders in about a dozen rows; docs/layout.md names every module
a newcomer may open, one section per folder.

A module is named when a section's heading (or a README row's path cell) gives its own path
(`scoring/engine/settle.py`), or gives its folder (`scoring/ledger/`, `static/js/`) and the
section's text names it in backticks (`standing`, `pending.js`, `score` for a management
command).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "tienlen_site")


def _names(text: str) -> set[str]:
    return {
        name for quoted in re.findall(r"`([^`]+)`", text) for name in re.findall(r"[\w.-]+", quoted)
    }


def _sections() -> list[tuple[set[str], set[str]]]:
    """(paths in the heading, backticked names in the text) for each folder's section of
    docs/layout.md (a ``## `` heading; the page's own ``# `` parts are not folders)."""
    text = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    found = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        body = re.split(r"^# ", body, flags=re.M)[0]
        found.append((set(re.findall(r"`([^`]+)`", heading)), _names(body)))
    return found


def _rows(section: str) -> list[tuple[set[str], set[str]]]:
    """(paths in the first cell, backticked names in the second) for each row of a table."""
    rows = []
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or set(cells[1].strip()) <= {"-"}:
            continue
        rows.append((set(re.findall(r"`([^`]+)`", cells[1])), _names(cells[2])))
    return rows


def _modules() -> list[Path]:
    found = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and path.name != "__init__.py"
    ]
    found += (ROOT / "static" / "js").glob("*.js")
    return sorted(found)


def _named(path: Path, rows: list[tuple[set[str], set[str]]]) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    inside = [parent for parent in path.parents if ROOT in parent.parents]
    folders = [parent.relative_to(ROOT).as_posix() + "/" for parent in inside]
    for paths, names in rows:
        if relative in paths:
            return True
        if any(folder in paths for folder in folders) and {path.stem, path.name} & names:
            return True
    return False


def test_the_layout_page_is_read():
    rows = _sections()
    assert len(rows) > 15
    assert any("scoring/engine/" in paths for paths, _ in rows)


def test_every_module_is_named_in_the_layout_page():
    rows = _sections()
    modules = _modules()
    assert len(modules) > 80
    missing = [path.relative_to(ROOT).as_posix() for path in modules if not _named(path, rows)]
    assert missing == []


def test_the_other_top_level_folders_have_a_row():
    paths = set().union(*(paths for paths, _ in _sections()))
    for folder in ("templates/", "static/js/", "locale/", "tests/", "bench/", "docs/"):
        assert any(path.startswith(folder) for path in paths), folder


def _readme_rows() -> list[tuple[set[str], set[str]]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return _rows(text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0])


def test_the_readme_shows_the_folders_in_a_dozen_rows():
    rows = _readme_rows()
    assert 8 <= len(rows) <= 13
    paths = set().union(*(paths for paths, _ in rows))
    for folder in (
        "tienlen_site/plumbing/",
        "scoring/engine/",
        "scoring/text/",
        "scoring/ledger/",
        "scoring/services/",
        "scoring/forms/",
        "scoring/views/",
        "templates/",
        "static/",
        "tests/",
        "bench/",
        "docs/",
    ):
        assert folder in paths, folder


def test_the_readme_rows_follow_the_layers():
    """The README's rows of the Python packages come in the order of tests/test_layers.py,
    lowest first, so reading down the table is reading up the house."""
    from tests.test_layers import _layer

    order = []
    for paths, _ in _readme_rows():
        for path in sorted(paths):
            if path.endswith(".py") or path.endswith("/"):
                name = path.removesuffix("/").removesuffix(".py").replace("/", ".")
                if name.startswith(("scoring.", "tienlen_site.plumbing")):
                    layer = _layer(name)
                    if layer is not None:
                        order.append((layer, name))
                        break
    layers = [layer for layer, _ in order]
    assert len(order) >= 6
    assert layers == sorted(layers), order
