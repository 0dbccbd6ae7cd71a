"""README's layout table names every module a newcomer may open.

A module is named when a row's path cell gives its own path (`scoring/engine/settle.py`), or gives
its folder (`scoring/ledger/`, `static/js/`) and the row's text names it in backticks
(`groups`, `pending.js`, `score` for a management command).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "tienlen_site")


def _rows() -> list[tuple[set[str], set[str]]]:
    """(paths in the first cell, backticked names in the second) for each row of Layout."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or set(cells[1].strip()) <= {"-"}:
            continue
        paths = set(re.findall(r"`([^`]+)`", cells[1]))
        names = {name for quoted in re.findall(r"`([^`]+)`", cells[2]) for name in
                 re.findall(r"[\w.-]+", quoted)}  # fmt: skip
        rows.append((paths, names))
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


def test_the_layout_table_is_read():
    rows = _rows()
    assert len(rows) > 15
    assert any("scoring/engine/" in paths for paths, _ in rows)


def test_every_module_is_named_in_the_layout_table():
    rows = _rows()
    modules = _modules()
    assert len(modules) > 80
    missing = [path.relative_to(ROOT).as_posix() for path in modules if not _named(path, rows)]
    assert missing == []


def test_the_other_top_level_folders_have_a_row():
    paths = set().union(*(paths for paths, _ in _rows()))
    for folder in ("templates/", "static/js/", "locale/", "tests/", "bench/", "docs/"):
        assert any(path.startswith(folder) for path in paths), folder
