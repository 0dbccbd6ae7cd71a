"""Work a response must not wait for, run in a thread of its own once the response is out.

Sending a password-reset mail takes as long as the mail server does, and only known addresses
get one: a response that waited for it would tell anyone with a stopwatch which addresses have
an account. ``after_response(job)`` keeps the job until the server has written the response
and closed it (Django's ``request_finished``, sent from the thread that served the request),
then starts it in a new thread. Nothing of the job, not even starting its thread, happens
before the client has its answer.

The thread is not a daemon: a worker shutting down finishes sending first. Only a request
closes a response: a job left outside one (a management command) would wait for the next
request this thread serves, so leave none there.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.core.signals import request_finished
from django.db import connections

logger = logging.getLogger(__name__)

# The jobs the request served by this thread has left for after its response.
_pending = threading.local()


def after_response(job: Callable[[], None], *, name: str) -> None:
    """Run ``job`` in a thread called ``name`` once the current response has been sent."""
    jobs: list[tuple[str, Callable[[], None]]] = _pending.__dict__.setdefault("jobs", [])
    jobs.append((name, job))


def _start_pending(**_kwargs: object) -> None:
    jobs: list[tuple[str, Callable[[], None]]] = _pending.__dict__.pop("jobs", [])
    for name, job in jobs:
        threading.Thread(target=_run, args=(job,), name=name).start()


def _run(job: Callable[[], None]) -> None:
    try:
        job()
    except Exception:
        logger.exception("work after the response failed")
    finally:
        # A job that touched the database opened this thread's own connection; close it
        # rather than leave it to the garbage collector.
        connections.close_all()


request_finished.connect(_start_pending, dispatch_uid="tienlen_site.plumbing.after_response")
