"""Every timed figure is taken with DEBUG off, as production runs.

The benchmarks set Django up with the development settings (their throwaway database, the
plain static-files storage: nothing is collected for a benchmark) and then turn DEBUG off
before anything is timed or rendered: no SQL log growing with every query, the templates
without their debug information. A query count is taken with Django's
``CaptureQueriesContext``, which logs for its own span whatever DEBUG says.
"""

from __future__ import annotations

from django.conf import settings


def debug_off() -> None:
    """Call right after ``django.setup()``, before the first request or render."""
    settings.DEBUG = False
    for engine in settings.TEMPLATES:
        engine.setdefault("OPTIONS", {})["debug"] = False
