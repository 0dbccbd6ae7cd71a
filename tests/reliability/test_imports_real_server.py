"""Imports and big bodies against real gunicorn, with its real 30 s worker timeout.

- Two scorekeepers upload a 2 000-game file (the largest the app accepts) at the same moment
  to a server of two sync workers: both get their new sitting, and both ledgers are whole.
  (Before the bulk import each took 26–30 s on PostgreSQL and both hit the timeout.)
- A request declaring a 200 MB body is answered 413 after a few kilobytes have been sent:
  the server never waits for, reads or stores the rest, and keeps serving.
- A chunked body without a length is answered 411.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from bench.sessiondata import session_data
from tests.reliability.realserver import PASSWORD, Phone, Server, dbtool, request

pytestmark = pytest.mark.slow

GAMES = 2000


def test_two_uploads_of_the_largest_file_at_once_both_succeed(ledger_url):
    for n in range(2):
        dbtool(ledger_url, "seed", "--username", f"nhap_{n}", "--password", PASSWORD)
    body = json.dumps(session_data(GAMES), ensure_ascii=False).encode()
    with Server(ledger_url, workers=2, timeout=30) as server:
        phones = [Phone(server.url, timeout=60).login(f"nhap_{n}") for n in range(2)]
        answers: list[tuple[int, str]] = [(0, "")] * 2
        barrier = threading.Barrier(2)

        def upload(n: int) -> None:
            barrier.wait()
            status, headers, _body = phones[n].upload(
                "/import/", {}, {"file": ("ban.json", body, "application/json")}
            )
            answers[n] = (status, headers.get("Location", ""))

        threads = [threading.Thread(target=upload, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(90)
        assert [status for status, _ in answers] == [302, 302], server.log_tail()
        for phone, (_status, location) in zip(phones, answers, strict=True):
            assert re.fullmatch(r"/s/\d+/", location), location
            status, _headers, raw = phone.get(location + "export/session.json")
            assert status == 200
            exported = json.loads(raw)
            assert len(exported["games"]) == GAMES
            assert len(exported["settlements"]) == len(json.loads(body)["settlements"])
            assert sum(exported["totals"].values()) == 0


def raw_exchange(url: str, head: bytes, body: bytes) -> bytes:
    """Send a request head and part of a body; return what the server answered."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as sock:
        sock.sendall(head)
        try:
            sock.sendall(body)
        except OSError:
            pass  # the server may already have answered and closed
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_huge_declared_body_is_refused_without_being_read(ledger_url):
    with Server(ledger_url, workers=1, timeout=30) as server:
        host = urlsplit(server.url).netloc
        started = time.monotonic()
        answer = raw_exchange(
            server.url,
            (
                f"POST /accounts/login/ HTTP/1.1\r\nHost: {host}\r\n"
                "Content-Type: multipart/form-data; boundary=abc\r\n"
                f"Content-Length: {200 * 1024 * 1024}\r\n\r\n"
            ).encode(),
            b"x" * 65536,
        )
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert time.monotonic() - started < 10
        # The worker is free again at once.
        status, _headers, _body = request(server.url, "GET", "/healthz")
        assert status == 200


def test_a_chunked_body_without_a_length_is_refused(ledger_url):
    with Server(ledger_url, workers=1, timeout=30) as server:
        host = urlsplit(server.url).netloc
        answer = raw_exchange(
            server.url,
            (
                f"POST /accounts/login/ HTTP/1.1\r\nHost: {host}\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\n"
                "Transfer-Encoding: chunked\r\n\r\n"
            ).encode(),
            b"8\r\nusername\r\n0\r\n\r\n",
        )
        assert answer.startswith(b"HTTP/1.1 411"), answer[:200]
