"""Numbers from forms, query strings and the command line, all read by
``engine.readnumbers``.

Form fields here turn the engine's refusal into a form error in the user's language; query
parameters that do not read as a number count as not given; commands get a
``CommandError``.
docs/numbers.md says what is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.management.base import CommandError
from django.utils.translation import gettext_lazy as _

from scoring.engine import readnumbers as numbers
from scoring.engine.limits import MAX_AMOUNT
from scoring.engine.readnumbers import NotANumber
from scoring.text.typed import engine_language

#: Largest value a ``bigint`` column holds; ids and versions above it cannot exist.
BIGINT = 2**63 - 1


class IntegerField(forms.Field):
    """A whole number, read by ``engine.readnumbers.parse_int`` (Django's own reads ``²`` as an
    error only by luck and ``١٢`` as 12)."""

    widget = forms.NumberInput

    def __init__(
        self, *, min_value: int | None = None, max_value: int | None = None, **kwargs: Any
    ) -> None:
        self.min_value = min_value
        self.max_value = BIGINT if max_value is None else max_value
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        if isinstance(widget, forms.NumberInput):
            if self.min_value is not None:
                attrs["min"] = self.min_value
            attrs["max"] = self.max_value
        return attrs

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        try:
            return numbers.parse_int(value, low=self.min_value, high=self.max_value)
        except NotANumber as error:
            raise forms.ValidationError(error.message(engine_language()), code=error.code) from None


class MoneyField(forms.Field):
    """Whole đồng as people type them: 200000, 200.000, 200 000 ₫ or 200k, at most
    ``limits.MAX_AMOUNT`` (the one limit on any amount)."""

    widget = forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"})
    default_error_messages = {"required": _("Hãy ghi số tiền.")}

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        try:
            return numbers.parse_money(value, high=MAX_AMOUNT)
        except NotANumber as error:
            raise forms.ValidationError(error.message(engine_language()), code=error.code) from None


def int_param(params: Mapping[str, object], key: str) -> int | None:
    """A positive id from a query string or form, or None when missing or unreadable."""
    raw = params.get(key)
    return numbers.read_int(raw, low=1, high=BIGINT) if isinstance(raw, str) else None


def parse_id(value: object) -> int:
    """An id chosen from a list (``TypedChoiceField(coerce=parse_id)``); its ``ValueError``
    is the field's "not one of the choices"."""
    return numbers.parse_int(value, low=1, high=BIGINT)


def command_int(text: str, what: str, *, low: int | None = 1, high: int = BIGINT) -> int:
    """A number given on the command line, or a ``CommandError`` saying what is wrong."""
    try:
        return numbers.parse_int(text, low=low, high=high)
    except NotANumber as error:
        raise CommandError(f"{what}: {error.message('en')}") from None
