"""Counters for the load test (``LOAD_PROBE=1``): each response says, in headers, how many SQL
statements it ran (``X-Probe-SQL``) and how many live boards it rendered (``X-Probe-Renders``),
so a test driving several server processes can add them up from the outside, and which
process answered (``X-Probe-Pid``). Off by default.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

RENDERS = "tienlen.probe.renders"


def note_render(request: HttpRequest) -> None:
    """A view rendered a live board for this request (counted only with the probe on)."""
    request.META[RENDERS] = request.META.get(RENDERS, 0) + 1


class ProbeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        statements = 0

        def count(
            execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
        ) -> Any:
            nonlocal statements
            statements += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            response = self.get_response(request)
        response["X-Probe-SQL"] = str(statements)
        response["X-Probe-Renders"] = str(request.META.get(RENDERS, 0))
        response["X-Probe-Pid"] = str(os.getpid())
        return response
