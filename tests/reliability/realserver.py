"""A real server for the tests that must see one: gunicorn in its own process group, on a
free loopback port, against a database the test chooses, and a tiny cookie-keeping HTTP
client built on ``http.client`` (no new dependency).

Shared by the fault tests, the browser tests and ``bench/load.py`` / ``bench/weight.py``.
Everything here talks to 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[2]
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"

# Names and password the seeded ledgers use.
SCOREKEEPER = "thu_ky"
PASSWORD = "mat-khau-that-dai-2026"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server or a manage.py run against ``database_url``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW"))}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="tienlen_site.settings",
        DEBUG="1",
        PYTHONDONTWRITEBYTECODE="1",
        # Idle connections are closed at once: a killed server leaves nothing behind that
        # would stop the test database from being flushed or dropped.
        CONN_MAX_AGE="0",
    )
    env.update(extra)
    return env


def manage(database_url: str, *args: str, env: Mapping[str, str] | None = None) -> str:
    """Run ``manage.py`` against ``database_url``; return its stdout, raise with its stderr."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=server_env(database_url, **(env or {})),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def run_module(database_url: str, module: str, *args: str) -> dict:
    """Run ``python -m module args`` in its own process on the server's database; return the
    JSON of its last line of output."""
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=server_env(database_url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def dbtool(database_url: str, *args: str) -> dict:
    """Run a ``tests/reliability/dbtool.py`` command in its own process; return its JSON."""
    return run_module(database_url, "tests.reliability.dbtool", *args)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"  # an absolute path gives sqlite:////abs/path


def migrated_sqlite(directory: Path) -> Path:
    """A fresh SQLite file with every migration applied (a few seconds: copy it if reused)."""
    path = directory / "ledger.sqlite3"
    manage(sqlite_url(path), "migrate", "--no-input", "--verbosity", "0")
    return path


class ProcessGroup:
    """A child in a process group of its own: ``kill`` (SIGKILL to the group, mid-request or
    mid-task, like a power cut), ``stop`` (SIGTERM, then SIGKILL after ``stop_seconds``), its
    log's tail, and ``with`` to start and stop it. A subclass sets ``proc`` in ``start``."""

    stop_seconds = 15
    proc: subprocess.Popen[bytes] | None
    log_path: Path

    def start(self) -> Self:
        raise NotImplementedError

    def kill(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(self.stop_seconds)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None

    def log_tail(self, size: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-size:]
        except OSError:
            return ""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Server(ProcessGroup):
    """``gunicorn tienlen_site.wsgi`` in a process group of its own, so a SIGKILL to the group
    takes the master and every worker down at once, mid-request, like a power cut."""

    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        workers: int = 2,
        threads: int = 1,
        env: Mapping[str, str] | None = None,
        log_dir: Path | None = None,
        timeout: int = 60,
        preload: bool = False,
    ) -> None:
        self.database_url = database_url
        self.timeout = timeout  # gunicorn's worker timeout (its default, and make serve's, is 30)
        # Load the app once in the master before forking (as production does with --preload),
        # so every worker answers from its first request.
        self.preload = preload
        self.port = port or free_port()
        self.workers = workers
        self.threads = threads
        self.env = dict(env or {})
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="tienlen-server-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.log_dir / "gunicorn.log"

    def start(self, timeout: float = 40) -> Server:
        self.starts += 1
        log = open(self.log_path, "ab")  # noqa: SIM115 - owned by the child until it exits
        log.write(f"--- start {self.starts}\n".encode())
        log.flush()
        command = [
            str(BIN / "gunicorn"),
            # The settings production runs with; the flags below override a few for the test.
            "--config",
            str(GUNICORN_CONF),
            "tienlen_site.wsgi",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            str(self.workers),
            "--threads",
            str(self.threads),
            "--timeout",
            str(self.timeout),
            "--graceful-timeout",
            "5",
            "--backlog",
            "2048",
            # Several servers may run at once (and a killed one leaves its socket behind).
            "--no-control-socket",
            # Thousands of requests in a load test: no worker is recycled in the middle.
            "--max-requests",
            "0",
            "--access-logfile",
            "/dev/null",
        ]
        self.proc = subprocess.Popen(
            command,
            cwd=ROOT,
            # The production file preloads the app; a test that restarts its server often
            # does not.
            env=server_env(
                self.database_url, GUNICORN_PRELOAD="1" if self.preload else "0", **self.env
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start:\n{self.log_tail()}")
            try:
                status, _headers, _body = request(self.url, "GET", "/healthz", timeout=2)
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer /healthz in {timeout} s:\n{self.log_tail()}")


class Worker(ProcessGroup):
    """``manage.py db_worker`` (django-tasks-db), the process that runs the site's background
    tasks, against the same database as a :class:`Server`, in a process group of its own so a
    SIGKILL takes it down mid-task like a power cut. It polls the queue every 0.2 s."""

    stop_seconds = 30  # SIGTERM lets it finish the task it is running

    def __init__(
        self,
        database_url: str,
        *,
        env: Mapping[str, str] | None = None,
        log_dir: Path | None = None,
    ) -> None:
        self.database_url = database_url
        self.env = dict(env or {})
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="tienlen-worker-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.log_dir / "worker.log"

    def start(self) -> Worker:
        log = open(self.log_path, "ab")  # noqa: SIM115 - owned by the child until it exits
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
             "--interval", "0.2", "--verbosity", "2"],
            cwd=ROOT,
            env=server_env(self.database_url, **self.env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        return self


def request(
    base_url: str,
    method: str,
    path: str,
    *,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request on a fresh connection (gunicorn's sync workers close after each answer)."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Phone:
    """A logged-in phone: keeps cookies, sends the CSRF token the way htmx does (header)."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30

    def _headers(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        headers = {"User-Agent": "tienlen-tests"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers.update(extra or {})
        return headers

    def _keep(self, headers: http.client.HTTPMessage) -> None:
        for value in headers.get_all("Set-Cookie") or []:
            name, _eq, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]

    def get(self, path: str, headers: Mapping[str, str] | None = None):
        status, response_headers, body = request(
            self.base_url, "GET", path, headers=self._headers(headers), timeout=self.timeout
        )
        self._keep(response_headers)
        return status, response_headers, body

    def post(
        self,
        path: str,
        fields: Iterable[tuple[str, str]] | Mapping[str, str],
        headers: Mapping[str, str] | None = None,
    ):
        items = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
        body = urlencode(items).encode()
        extra = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Origin": self.base_url,
            **(headers or {}),
        }
        status, response_headers, body = request(
            self.base_url,
            "POST",
            path,
            body=body,
            headers=self._headers(extra),
            timeout=self.timeout,
        )
        self._keep(response_headers)
        return status, response_headers, body

    def upload(
        self,
        path: str,
        fields: Mapping[str, str],
        files: Mapping[str, tuple[str, bytes, str]],
        headers: Mapping[str, str] | None = None,
    ):
        """A multipart/form-data POST, as a browser sends a form with a file input.

        ``files`` maps a field name to (file name, content, content type)."""
        boundary = f"----tienlen{uuid.uuid4().hex}"
        parts: list[bytes] = []
        items = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}
        for name, value in items.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        for name, (filename, content, content_type) in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'.encode()
                + content
                + b"\r\n"
            )
        parts.append(f"--{boundary}--\r\n".encode())
        extra = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Origin": self.base_url,
            **(headers or {}),
        }
        status, response_headers, body = request(
            self.base_url,
            "POST",
            path,
            body=b"".join(parts),
            headers=self._headers(extra),
            timeout=self.timeout,
        )
        self._keep(response_headers)
        return status, response_headers, body

    def login(self, username: str = SCOREKEEPER, password: str = PASSWORD) -> Phone:
        status, _h, body = self.get("/accounts/login/")
        assert status == 200, status
        match = CSRF_FIELD.search(body)
        assert match, "the log-in page has a CSRF field"
        status, headers, _body = self.post(
            "/accounts/login/",
            [
                ("csrfmiddlewaretoken", match.group(1).decode()),
                ("username", username),
                ("password", password),
            ],
        )
        assert status == 302 and "sessionid" in self.cookies, (status, headers)
        return self


# --- The record form, as a phone fills it in ---------------------------------------------

SAVED = re.compile(rb'role="status">[^<]*<a href="/s/\d+/g/(\d+)/"')


def first_out_fields(
    members: list[str],
    *,
    winner: str,
    cards: Mapping[str, int],
    heo: Mapping[str, list[str]] | None = None,
    token: str,
    action: str = "save",
) -> list[tuple[str, str]]:
    """The POST body of the record form for a đếm lá game (see scoring/forms/record.py)."""
    played = [winner, *cards]
    fields = [("token", token), ("action", action), ("chains", "0"), ("winner", winner)]
    fields += [("played", name) for name in members if name in played]
    for index, name in enumerate(members):
        if name in cards:
            fields.append((f"cards_{index}", str(cards[name])))
        for card in (heo or {}).get(name, []):
            fields.append((f"heo_{index}", card))
    return fields


def saved_number(body: bytes) -> int | None:
    """The game number an htmx save answered with, or None if it did not say "saved"."""
    match = SAVED.search(body)
    return int(match.group(1)) if match else None


# --- The database a test's server runs against --------------------------------------------

_SQLITE_TEMPLATE: Path | None = None


def database_url_for_test(tmp_dir: Path) -> str:
    """The database URL a server started by a test should use.

    PostgreSQL: the test database pytest-django created (the caller must hold a
    ``transactional_db`` so what the server writes is visible and flushed afterwards).
    SQLite: the test database is in memory and cannot be shared with another process, so a
    file copied from one migrated template (migrating takes seconds; copying does not).
    """
    import shutil

    from django.db import connection

    if connection.vendor == "postgresql":
        s = connection.settings_dict
        auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
        return f"postgres://{auth}@{s['HOST'] or HOST}:{s['PORT'] or 5432}/{s['NAME']}"
    global _SQLITE_TEMPLATE
    if _SQLITE_TEMPLATE is None or not _SQLITE_TEMPLATE.exists():
        _SQLITE_TEMPLATE = migrated_sqlite(Path(tempfile.mkdtemp(prefix="tienlen-template-")))
    path = tmp_dir / "ledger.sqlite3"
    shutil.copyfile(_SQLITE_TEMPLATE, path)
    return sqlite_url(path)
