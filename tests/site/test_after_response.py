"""Work left for after the response: started once the response is closed, in its own thread;
a failure is logged, never raised into the request that left it."""

import threading

from django.core.signals import request_finished
from django.db import close_old_connections

from tienlen_site.plumbing.after_response import after_response


def _response_closed():
    # What the server's closing a response sends; without the database receiver, as Django's
    # test client does, since these tests have no database.
    request_finished.disconnect(close_old_connections)
    try:
        request_finished.send(sender=None)
    finally:
        request_finished.connect(close_old_connections)


def _join(name):
    for thread in threading.enumerate():
        if thread.name == name:
            thread.join(timeout=10)


def test_it_runs_the_job_in_its_own_thread_once_the_response_is_closed():
    ran = []
    after_response(lambda: ran.append(threading.current_thread().name), name="test-after")
    _join("test-after")
    assert ran == [], "nothing runs before the response is closed"
    _response_closed()
    _join("test-after")
    assert ran == ["test-after"]
    _response_closed()  # a job runs once
    _join("test-after")
    assert ran == ["test-after"]


def test_it_logs_a_failing_job(caplog):
    def broken():
        raise RuntimeError("mail server gone")

    after_response(broken, name="test-after-broken")
    _response_closed()
    _join("test-after-broken")
    assert "work after the response failed" in caplog.text
    assert "mail server gone" in caplog.text
