"""docs/rules.md cannot drift from the engine: every worked example scores as written, the preset
tables hold the shipped values, both halves say the same, and every citation of a section
points at a heading that exists."""

from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import PRESETS, load_rules, score_game
from scoring.rulesbook import BOOK, HALVES, half, headings, slugify

ROOT = BOOK.parent.parent
TEXT = BOOK.read_text(encoding="utf-8")
FENCE = re.compile(r"^```json (example|payments)\n(.*?)^```$", re.M | re.S)


def worked_examples(text: str) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(line, example, expected payments) of every ``json example`` block and the
    ``json payments`` block right after it."""
    found: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    pending: tuple[int, dict[str, Any]] | None = None
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        data = json.loads(match.group(2))
        if match.group(1) == "example":
            assert pending is None, f"line {line}: the example at line {pending[0]} has no payments"
            pending = (line, data)
        else:
            assert pending is not None, f"line {line}: payments without an example before them"
            found.append((pending[0], pending[1], data))
            pending = None
    assert pending is None, f"line {pending[0]}: an example without payments after it"
    return found


EXAMPLES = worked_examples(TEXT)


@pytest.mark.parametrize(
    ("example", "expected"),
    [(e, p) for _, e, p in EXAMPLES],
    ids=[f"line {n}" for n, *_ in EXAMPLES],
)
def test_every_worked_example_scores_as_written(example, expected):
    rules = load_rules(example["rules"])
    result = score_game(rules, example["record"], example["stake"])
    assert result.net == expected["net"]
    assert sum(result.net.values()) == 0
    if "transfers" in expected:
        got = [[t.payer, t.payee, t.amount, t.reason] for t in result.transfers]
        assert got == expected["transfers"]


def test_it_holds_the_hoi_quan_bai_example_and_enough_examples():
    assert len(EXAMPLES) >= 30
    nets = [p["net"] for _, _, p in EXAMPLES]
    assert {"A": -75000, "B": 245000, "C": -40000, "D": -130000} in nets
    assert "49 lá = 245 000 đ" in TEXT


def test_both_halves_give_the_same_worked_examples():
    vi = [(e, p) for _, e, p in worked_examples(half(TEXT, "vi"))]
    en = [(e, p) for _, e, p in worked_examples(half(TEXT, "en"))]
    assert vi == en
    assert len(vi) * 2 == len(EXAMPLES)


ROWS = {  # first cell of a preset-table row → the engine's value for that row
    "2♠": lambda r: r.penalties["2S"],
    "2♣": lambda r: r.penalties["2C"],
    "2♦": lambda r: r.penalties["2D"],
    "2♥": lambda r: r.penalties["2H"],
    "3 đôi thông": lambda r: r.penalties["3dt"],
    "tứ quý": lambda r: r.penalties["tq"],
}


def amount(cell: str) -> Fraction:
    cell = cell.replace("−", "-").strip()
    whole, half_sign, _ = cell.partition("½")
    return Fraction(int(whole) if whole not in ("", "-") else 0) + (
        Fraction(1, 2) if half_sign else 0
    )


@pytest.mark.parametrize("lang", HALVES)
def test_the_preset_tables_hold_the_shipped_values(lang):
    lines = half(TEXT, lang).splitlines()
    header = next(line for line in lines if " | `dem-la` | `nhat-nhi-ba-bet` |" in line)
    assert re.findall(r"`([a-z0-9-]+)`", header) == list(PRESETS)
    for first, value_of in ROWS.items():
        row = next(line for line in lines if line.startswith(f"| {first} |"))
        cells = [c.strip() for c in row.strip("|").split("|")][1:]
        assert [amount(c) for c in cells] == [value_of(r) for r in PRESETS.values()], row


@pytest.mark.parametrize("lang", HALVES)
def test_the_dem_la_26_table_holds_its_nine_rows(lang):
    rules = PRESETS["dem-la-26"]
    lines = half(TEXT, lang).splitlines()
    header = {"vi": "| thứ | giá (cược) |", "en": "| item | price (cược) |"}[lang]
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("| "):
            break
        rows.append(line)
    assert len(rows) == 9
    numbers = [int(re.findall(r"\d+", row.split("|")[2])[-1]) for row in rows]
    assert numbers == [
        rules.card_value,
        rules.penalties["2S"],
        rules.penalties["2D"],
        rules.penalties["3dt"],
        rules.penalties["tq"],
        rules.penalties["4dt"],
        13 * rules.card_value * rules.cong_multiplier,
        rules.ket_3_bich,
        rules.ket_3_bich,
    ]
    assert rules.penalties["2S"] == rules.penalties["2C"]
    assert rules.penalties["2D"] == rules.penalties["2H"]


def test_every_link_inside_the_book_points_at_one_of_its_headings():
    anchors = {slugify(title) for _, title in headings(TEXT)}
    links = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert links
    assert sorted(set(links) - anchors) == []


def test_every_citation_of_the_book_names_a_section_that_exists():
    anchors = {slugify(title) for _, title in headings(TEXT)}
    files = subprocess.run(
        ["git", "ls-files", "scoring", "tests", "bench", "docs", "README.md", "templates"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    cited: dict[str, str] = {}
    for name in files:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".html"} or not path.is_file():
            continue
        for anchor in re.findall(r"rules\.md#([\w\-]+)", path.read_text(encoding="utf-8")):
            cited[anchor] = name
    assert len(cited) >= 5  # the record format's sections are cited from record-format.md
    missing = {a: f for a, f in cited.items() if a not in anchors}
    assert missing == {}


RECORD_FORMAT = ROOT / "docs" / "record-format.md"


def test_every_citation_of_the_record_format_names_a_section_that_exists():
    anchors = {slugify(t) for _, t in headings(RECORD_FORMAT.read_text(encoding="utf-8"))}
    files = subprocess.run(
        ["git", "ls-files", "scoring", "tests", "docs", "README.md"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    cited: dict[str, str] = {}
    for name in files:
        path = ROOT / name
        if path.suffix not in {".py", ".md"} or not path.is_file():
            continue
        for anchor in re.findall(r"record-format\.md#([\w\-]+)", path.read_text("utf-8")):
            cited[anchor] = name
    assert {"game-record-format", "bad-records", "engine-choices"} <= set(cited)
    assert {a: f for a, f in cited.items() if a not in anchors} == {}


@pytest.mark.parametrize("lang", HALVES)
def test_the_players_book_leaves_the_record_format_to_the_integrators_document(lang):
    # The "Luật chơi" page is for players: no JSON record format, bad records or score command.
    titles = [t for _, t in headings(half(TEXT, lang))]
    for title in ("Cách ghi một ván", "Ván ghi sai", "Lệnh score", "Game record format",
                  "Bad records", "The score command", "Engine choices"):  # fmt: skip
        assert title not in titles
    assert "\\ud800" not in half(TEXT, lang) and "stderr" not in half(TEXT, lang)
    assert "record-format.md" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", HALVES)
def test_every_house_choice_of_the_book_is_starred_and_explained(lang):
    text = half(TEXT, lang)
    house = {"vi": "Lựa chọn của dự án", "en": "House choices"}[lang]
    section = text.split(f"### {house}\n", 1)[1]
    for option in ("ket_3_bich_mode", "chan_ket_keeps_cards", "two_out", "count_special_cards",
                   "toi_trang_outside_opening", "any_cong", "doi_heo"):  # fmt: skip
        assert option in section, option
    assert section.count("\\*") >= 9


EXTERNAL = "RULES" + ".md"  # the rules file that used to live outside the repository


def test_nothing_cites_a_rules_file_outside_the_repository():
    files = subprocess.run(
        ["git", "ls-files", "scoring", "tests", "bench", "docs", "README.md", "templates"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    offenders = [
        name
        for name in files
        if Path(ROOT / name).suffix in {".py", ".md", ".html"}
        and (ROOT / name).is_file()
        and EXTERNAL in (ROOT / name).read_text(encoding="utf-8")
    ]
    assert offenders == []
