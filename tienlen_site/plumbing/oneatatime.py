"""Work that grows with the games runs one at a time per person, in a few site-wide slots.

The what-if over a range the cache does not hold yet and the "Kiểm tra sổ" pages can each take
a second or more of a worker's CPU on a group with years of games. A person who sends a dozen
of them at once (a held-down reload key, a script) would take every worker, and a few people
each sending one could too. So such work takes a *turn* first:

* one per person: "a person" is the signed-in account; for a page open to visitors without
  an account it is their session, else their address (``tienlen_site.plumbing.clientip``);
* one of ``settings.HEAVY_SLOTS`` site-wide slots (fewer than the app servers' workers, so
  the others always answer everyone else);
* when every slot is taken, ONE request (the one holding the *doorway*) waits up to
  ``settings.HEAVY_WAIT_SECONDS`` for a slot; the next turn goes to it, not to the person
  whose page just finished and who asks again at once. Any other request is answered at once
  with 429 "Đang tính, thử lại sau vài giây." and a ``Retry-After``, and computes nothing. So
  heavy work holds at most ``HEAVY_SLOTS`` + 1 workers, whoever asks and however often.

Only the work takes a turn, not the page: a view is wrapped in :func:`heavy_page`, and the
ledger calls :func:`take_turn` just before the part that grows with the games (the what-if's
pricing of sittings the cache does not hold). An answer read from the cache never takes one.
A page whose whole work is heavy (the checks) is wrapped in :func:`one_at_a_time`, which takes
the turn before the view runs. Outside a wrapped view (a command, a test calling the ledger)
``take_turn`` does nothing.

The turns are locks that end with their holder, so a worker killed in the middle of a page
frees its turn within moments, not after a time-out:

* on PostgreSQL, session advisory locks (``pg_try_advisory_lock``) on the worker's own
  connection: they count across every app server without Redis, and the server lets them go
  when the connection ends; a killed worker's connection ends with it (and a statement still
  running for it is stopped within ``client_connection_check_interval``, settings.py);
* elsewhere (SQLite, or PgBouncer in transaction mode where a session lock could outlive its
  request on a shared connection), ``flock`` on files in ``settings.HEAVY_LOCK_DIR``: the
  kernel lets them go when the process dies. They count across the processes of one machine,
  all a SQLite site has.

An earlier version kept the turns in the cache with a 30 s expiry: a killed worker's turn then
stayed taken for 30 s, refusing the person's retry and, with the slots, everyone's heavy pages.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tienlen_site.plumbing.clientip import client_ip

RETRY_AFTER_SECONDS = 5
TEMPLATE = "busy.html"
#: How often a waiting request looks for a free slot.
POLL_SECONDS = 0.05

# The kinds of lock, the high part of each advisory lock's key (a bigint). Other advisory
# locks of the site (tienlen_site.plumbing.waits) use other kinds.
SLOT, DOORWAY, PERSON = 0x7431, 0x7432, 0x7433

type View = Callable[..., HttpResponse]


class Busy(Exception):
    """No turn now: the person has one already, or every slot is taken and another request
    is the one waiting. Answered with :func:`busy_response`."""


def person(request: HttpRequest) -> str:
    """Who is asking, as the turns count them: the account, else the session, else the
    address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        return f"session:{session.session_key}"
    return f"ip:{client_ip(request) or 'unknown'}"


def person_number(who: str) -> int:
    """A person as a lock number (32 bits of a hash: two people sharing one wait for each
    other's page now and then, nothing worse)."""
    return int.from_bytes(hashlib.sha256(who.encode()).digest()[:4], "big")


# --- The locks ------------------------------------------------------------------------------


class Locks(Protocol):
    def take(self, kind: int, number: int) -> object | None: ...

    def let_go(self, held: object) -> None: ...


class AdvisoryLocks:
    """PostgreSQL session advisory locks on this thread's connection."""

    def take(self, kind: int, number: int) -> object | None:
        key = (kind << 32) | number
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
            row = cursor.fetchone()
        return key if row and row[0] else None

    def let_go(self, held: object) -> None:
        assert isinstance(held, int)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [held])
        except DatabaseError:
            # A connection that cannot say it is closed: its locks end with it.
            connection.close()


class FileLocks:
    """``flock`` on one file per lock in ``directory``: held while the open file is."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def take(self, kind: int, number: int) -> object | None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        # People share 65 536 files: a file per account ever seen would only grow.
        name = f"{kind:x}-{number % 65536 if kind == PERSON else number}"
        fd = os.open(self.directory / name, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return fd

    def let_go(self, held: object) -> None:
        assert isinstance(held, int)
        os.close(held)  # closing the file lets its lock go


def lock_dir() -> Path:
    """Where the file locks live: ``HEAVY_LOCK_DIR``, else a folder per database in memory
    (/dev/shm) or the temporary folder, so two sites on one machine never share a slot."""
    configured: str = getattr(settings, "HEAVY_LOCK_DIR", "")
    if configured:
        return Path(configured)
    name = str(connection.settings_dict.get("NAME") or "")
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    base = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    return Path(base) / f"tienlen-turns-{os.getuid()}-{digest}"


def locks() -> Locks:
    if connection.vendor == "postgresql" and not settings.DATABASES["default"].get(
        "DISABLE_SERVER_SIDE_CURSORS"
    ):
        return AdvisoryLocks()
    return FileLocks(lock_dir())


# --- Turns ----------------------------------------------------------------------------------


@dataclass
class Turn:
    """A wrapped view's request: who asks, and the locks its turn holds once taken."""

    who: str
    held: list[object] = field(default_factory=list)
    backend: Locks | None = None

    @property
    def taken(self) -> bool:
        return bool(self.held)


_current: ContextVar[Turn | None] = ContextVar("heavy_turn", default=None)


def take_turn() -> None:
    """Take this request's turn before work that grows with the games, or raise ``Busy``.
    Once per request (a second call keeps the turn taken); nothing outside a wrapped view."""
    turn = _current.get()
    if turn is None or turn.taken:
        return
    backend = locks()
    deadline = time.monotonic() + settings.HEAVY_WAIT_SECONDS
    mine = _wait_for(backend, PERSON, person_number(turn.who), deadline)
    if mine is None:
        raise Busy
    slot = _any_slot(backend)
    if slot is None:
        slot = _wait_at_the_doorway(backend, deadline)
    if slot is None:
        backend.let_go(mine)
        raise Busy
    turn.backend = backend
    turn.held = [slot, mine]


def _wait_for(backend: Locks, kind: int, number: int, deadline: float) -> object | None:
    """The person's own lock, waited for until ``deadline``: a page of theirs that just
    ended, or whose worker was killed and its retry came at once, lets it go within
    moments."""
    while True:
        held = backend.take(kind, number)
        if held is not None or time.monotonic() >= deadline:
            return held
        time.sleep(POLL_SECONDS)


def _any_slot(backend: Locks) -> object | None:
    for number in range(settings.HEAVY_SLOTS):
        held = backend.take(SLOT, number)
        if held is not None:
            return held
    return None


def _wait_at_the_doorway(backend: Locks, deadline: float) -> object | None:
    """Every slot taken: wait for one only as the one request holding the doorway, so a
    waiter is served before anyone who asks later, and waiting holds one worker at most."""
    door = backend.take(DOORWAY, 0)
    if door is None:
        return None
    try:
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            slot = _any_slot(backend)
            if slot is not None:
                return slot
        return None
    finally:
        backend.let_go(door)


@contextlib.contextmanager
def _turn_for(request: HttpRequest) -> Iterator[Turn]:
    turn = Turn(person(request))
    token = _current.set(turn)
    try:
        yield turn
    finally:
        _current.reset(token)
        if turn.backend is not None:
            for held in turn.held:
                turn.backend.let_go(held)


def busy_response(request: HttpRequest) -> HttpResponse:
    """429 with the page in the site's look; for htmx, only its message, to swap in place."""
    fragment = bool(getattr(request, "htmx", False))
    template = f"{TEMPLATE}#busy" if fragment else TEMPLATE
    context = {"retry_after": RETRY_AFTER_SECONDS}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def heavy_page(view: View) -> View:
    """A view whose work may grow with the games: the ledger takes the turn
    (:func:`take_turn`) when it comes to that work; ``Busy`` is answered with 429."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with _turn_for(request):
            try:
                return view(request, *args, **kwargs)
            except Busy:
                return busy_response(request)

    return wrapped


def one_at_a_time(view: View) -> View:
    """A view whose whole work grows with the games: the turn is taken before it runs."""

    def first_the_turn(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        take_turn()
        return view(request, *args, **kwargs)

    return heavy_page(functools.wraps(view)(first_the_turn))
