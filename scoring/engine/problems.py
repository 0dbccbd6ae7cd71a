"""What is wrong with a record, a rule set or a stake, said so a scorekeeper can fix it.

Validation never stops at the first problem: it collects every :class:`Problem` and raises one
exception carrying them all, so a form can mark every bad field at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import render


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing to fix. ``path`` names the field (``hands.An.cards``, ``chat[0].steps[2].play``,
    ``stake``); ``code`` is stable for machines; ``params`` fill the message."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    def message(self, lang: str = "vi") -> str:
        return render(self.code, self.params, lang)

    def __str__(self) -> str:
        return f"{self.path}: {self.message('en')}" if self.path else self.message("en")

    def __reduce__(self) -> tuple[type[Problem], tuple[str, str, dict[str, Any]]]:
        # Pickled as its three fields: the what-if keeps thousands of problems in the cache,
        # and a frozen dataclass's own state is slow to read back.
        return (Problem, (self.path, self.code, self.params))


class _Invalid(Exception):
    """Every problem found; said in English (``str``) only when asked: a what-if or a check
    refusing thousands of stored records reads the problems, not the sentence."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(problems)  # as the arguments, so the exception pickles

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.problems)


class InvalidRecord(_Invalid):
    """A game record (or the stake it is scored at) that cannot be scored."""


class InvalidRuleSet(_Invalid):
    """A rule set that does not make sense."""
