"""The one parser of typed numbers: ASCII and full-width digits, nothing else that looks like
one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.readnumbers import NotANumber, parse_fraction, parse_int, parse_money, read_int


@pytest.mark.parametrize(
    ("text", "value"),
    [("1000", 1000), (" 42 ", 42), ("-7", -7), ("−7", -7), ("+3", 3), ("１０００", 1000)],
)
def test_it_reads_ascii_and_full_width_digits(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text", ["²", "①", "1²", "١٢", "१२", "Ⅻ", "½"])
def test_it_refuses_digits_of_other_kinds_and_names_the_character(text):
    with pytest.raises(NotANumber) as error:
        parse_int(text)
    assert error.value.code == "foreign_digit"
    message = error.value.message("en")
    assert "not a digit 0–9" in message and error.value.params["char"] in message


@pytest.mark.parametrize("text", ["1e309", "inf", "NaN", "0x10", "1.5", "", " ", "\x00", "12a"])
def test_it_refuses_what_is_not_a_whole_number(text):
    with pytest.raises(NotANumber) as error:
        parse_int(text)
    assert error.value.code == "not_an_int"


def test_it_refuses_a_number_longer_than_a_bigint_before_reading_it():
    with pytest.raises(NotANumber) as error:
        parse_int("9" * 40)
    assert error.value.code == "number_too_long"
    with pytest.raises(NotANumber):
        parse_int("9" * 100_000)


def test_it_keeps_numbers_within_their_bounds_and_says_the_bound():
    assert parse_int("5", low=1, high=5) == 5
    with pytest.raises(NotANumber) as error:
        parse_int("6", low=1, high=5)
    assert error.value.code == "number_too_large" and "5" in error.value.message("en")
    with pytest.raises(NotANumber) as error:
        parse_int("0", low=1)
    assert error.value.code == "number_too_small"


def test_read_int_says_none_for_anything_unreadable():
    assert read_int("12") == 12
    assert read_int("²") is None
    assert read_int("9" * 40) is None
    assert read_int(None) is None
    assert read_int("5", high=4) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("200000", 200_000),
        ("200.000", 200_000),
        ("200 000 ₫", 200_000),
        ("200k", 200_000),
        ("２００ｋ", 200_000),
        ("１０００", 1000),
        ("9.999.999.999.999", 9_999_999_999_999),
    ],
)
def test_it_reads_money_as_people_type_it(text, value):
    assert parse_money(text, high=9_999_999_999_999) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("²", "foreign_digit"),
        ("①", "foreign_digit"),
        ("999999999999999k", "number_too_large"),
        ("9" * 40, "number_too_large"),
        ("1e309", "not_money"),
        ("0", "number_too_small"),
        ("-5", "not_money"),
        ("k", "not_money"),
        ("a\x00b", "not_money"),
    ],
)
def test_it_refuses_money_it_cannot_read_with_a_reason(text, code):
    with pytest.raises(NotANumber) as error:
        parse_money(text, high=9_999_999_999_999)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, Fraction(3)),
        ("1/2", Fraction(1, 2)),
        ("1.5", Fraction(3, 2)),
        ("1,5", Fraction(3, 2)),
        ("½", Fraction(1, 2)),
        ("1½", Fraction(3, 2)),
        ("-1½", Fraction(-3, 2)),
        ("−6", Fraction(-6)),
        ("１０", Fraction(10)),
        (2.5, Fraction(5, 2)),
    ],
)
def test_it_reads_rule_values(value, expected):
    assert parse_fraction(value) == expected


@pytest.mark.parametrize(
    "value", ["1e309", "1e5", "inf", "nan", float("inf"), "1/0", "", "x", True]
)
def test_it_refuses_rule_values_that_are_not_plain_numbers(value):
    assert parse_fraction(value) is None


def test_it_names_a_foreign_digit_in_a_rule_value():
    with pytest.raises(NotANumber):
        parse_fraction("²")
