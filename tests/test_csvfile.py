"""scoring.text.csvfile: the one CSV writer."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.text.csvfile import csv_text


def _read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def test_it_starts_with_a_bom_and_ends_lines_with_crlf():
    text = csv_text(("player", "balance"), [("Dũng", 5000)])
    assert text == "\ufeffplayer,balance\r\nDũng,5000\r\n"


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "-2+3", "-30000", "\tA", "\rA"]
)
def test_it_escapes_text_that_would_start_a_formula(name):
    assert _read(csv_text(("player",), [(name,)])) == [["player"], ["'" + name]]


def test_it_keeps_amounts_as_numbers():
    assert _read(csv_text(("amount",), [(-30000,), (0,), (12000,)]))[1:] == [
        ["-30000"],
        ["0"],
        ["12000"],
    ]


@pytest.mark.parametrize("text", ["An", "Bình", "", "a=b", "Tối thứ Bảy", "2026-11-28"])
def test_it_leaves_other_text_alone(text):
    assert _read(csv_text(("x",), [(text,)])) == [["x"], [text]]


def test_it_quotes_commas_quotes_and_line_breaks():
    text = 'An, "Bình"\nChi'
    assert _read(csv_text(("x",), [(text,)])) == [["x"], [text]]
