"""How many examples a Hypothesis test tries, under the profile in force (tests/conftest.py).

A test that needs its own count writes it as what the thorough ``ci`` profile runs:
``@settings(max_examples=examples(150))`` tries 150 examples in CI and the same share of the
quick ``dev`` profile's count on a developer's machine (a fifth: 30), never fewer than
``FLOOR``. A test that names no count takes the profile's own.
"""

from __future__ import annotations

from hypothesis import settings

# The ci profile's max_examples: the count a test's own figure is relative to.
CI_EXAMPLES = 100
# Even the quick profile tries a few examples of every test.
FLOOR = 5


def examples(in_ci: int) -> int:
    return max(min(FLOOR, in_ci), in_ci * settings.default.max_examples // CI_EXAMPLES)
