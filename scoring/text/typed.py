"""Text people see: the engine's message language, and form fields checked by ``engine.readtext``
(docs/names.md).

Every name, sitting name, void reason and rule-set name typed into a form goes through
:class:`TextField`: stored in NFC with single spaces, and refused with a message naming the
character when it holds a control, bidi or zero-width character. :func:`names_problems` adds the
check between names of one table: two that look the same are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import get_language

from scoring.engine import readtext as text


def engine_language() -> str:
    """The language to ask the engine's messages in ("vi" or "en"): the active Django
    language, Vietnamese unless it is English."""
    return "en" if (get_language() or "vi").startswith("en") else "vi"


class TextField(forms.CharField):
    """One line of text that will be shown to people."""

    def to_python(self, value: Any) -> str:
        # CharField gives None only with empty_value=None, which no TextField is built with.
        return text.normalise(super().to_python(value) or "")

    def validate(self, value: Any) -> None:
        super().validate(value)
        problem = text.text_problem(value) if value else None
        if problem is not None:
            raise forms.ValidationError(problem.message(engine_language()), code=problem.code)


def names_problems(names: Sequence[str]) -> list[str]:
    """Messages for names that are unsafe to show or look like another name of the list."""
    lang = engine_language()
    unsafe = [p.message(lang) for p in map(text.text_problem, names) if p is not None]
    return unsafe + [
        text.confusable_problem(name, other).message(lang)
        for name, other in text.confusable_pairs(names)
    ]
