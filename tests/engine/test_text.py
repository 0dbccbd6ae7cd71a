"""Text people see: NFC, no hidden characters, and names that cannot pass for each other."""

from __future__ import annotations

import unicodedata

import pytest

from scoring.engine.readtext import confusable_pairs, normalise, skeleton, text_problem

NFC = unicodedata.normalize("NFC", "Bình")
NFD = unicodedata.normalize("NFD", "Bình")


def test_a_name_typed_decomposed_is_stored_like_the_composed_one():
    assert NFC != NFD
    assert normalise(NFD) == NFC
    assert normalise("  An \t  Bình ") == "An Bình"


@pytest.mark.parametrize(
    "char",
    ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u061c", "\u200b", "\u200d", "\ufeff",
     "\u00ad", "\x00", "\x07", "\x1b", "\x85\x9b", "\ud800"],
)  # fmt: skip
def test_it_refuses_control_bidi_and_zero_width_characters(char):
    problem = text_problem(f"Bình{char}")
    assert problem is not None and problem.code == "hidden_character"
    message = problem.message("en")
    assert "U+" in message and char not in message  # the character is named, not shown


def test_whitespace_is_no_problem_it_is_collapsed():
    assert text_problem("An\tBình\n") is None


def test_vietnamese_marks_pass_and_a_pile_of_marks_does_not():
    assert text_problem("Nguyễn Thị Hường") is None
    assert text_problem(NFD) is None
    problem = text_problem("a" + "\u0301" * 5)
    assert problem is not None and problem.code == "too_many_marks"


def test_cyrillic_greek_and_full_width_look_alikes_are_confusable():
    pairs = confusable_pairs(["Bình", "Вình", "An", "Ａｎ", "Oanh", "Οanh"])
    assert pairs == [("Вình", "Bình"), ("Ａｎ", "An"), ("Οanh", "Oanh")]


def test_the_same_name_in_another_case_or_form_is_not_called_a_look_alike():
    assert confusable_pairs(["An", "an", NFC, NFD]) == []


def test_marks_and_the_stroke_of_d_do_not_keep_names_apart():
    # The "Án" beside "An": a mark is easy to miss next to an amount (docs/names.md).
    assert len({skeleton(n) for n in ("An", "Án", "Ân", "Ấn", "An\u0301")}) == 1
    assert skeleton("Nguyễn Đức Hường") == "nguyen duc huong"
    assert confusable_pairs(["Bình", "Binh", "Bính"]) == [("Binh", "Bình"), ("Bính", "Bình")]
    pairs = confusable_pairs(["An", "Аn", "ＡＮ", "Án"])
    assert pairs == [("Аn", "An"), ("ＡＮ", "An"), ("Án", "An")]


def test_names_that_look_different_keep_different_skeletons():
    assert len({skeleton(n) for n in ("An", "Anh", "Ân Hà", "Bình", "Bích", "Chi", "Dũng")}) == 7
