"""What ``/healthz`` tells of the operator's routines: how old the last backup and the last
whole check of the books are, and whether that is past ``HEALTH_*_MAX_HOURS`` ("stale").

``/healthz`` is polled constantly (load balancer, uptime monitor), so the routines' two rows
are read at most once every ``HEALTH_CACHE_SECONDS`` per process, and kept in the process's
memory, not the shared cache: Redis being down must not change what the health check reads.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from scoring.models import Routine

_lock = threading.Lock()
_kept: tuple[float, dict[str, tuple[datetime, int]]] | None = None


@dataclass(frozen=True)
class Watched:
    """One routine as /healthz shows it."""

    status: str  # "fresh", "stale", "never" or "unwatched"
    finished_at: datetime | None
    problems: int

    def as_json(self) -> dict[str, object]:
        age = None
        if self.finished_at is not None:
            age = round((timezone.now() - self.finished_at).total_seconds() / 3600, 2)
        return {
            "status": self.status,
            "at": self.finished_at.isoformat() if self.finished_at else None,
            "age_hours": age,
            "problems": self.problems,
        }


def forget() -> None:
    """Read the rows again on the next call (after a write in the same process, in tests)."""
    global _kept
    with _lock:
        _kept = None


def _rows() -> dict[str, tuple[datetime, int]]:
    global _kept
    now = time.monotonic()
    with _lock:
        if _kept is not None and now < _kept[0]:
            return _kept[1]
    rows = {
        name: (at, problems)
        for name, at, problems in Routine.objects.values_list("name", "finished_at", "problems")
    }
    with _lock:
        _kept = (now + settings.HEALTH_CACHE_SECONDS, rows)
    return rows


def routines() -> dict[str, Watched]:
    """The backup's and the books' check's state, by their JSON name."""
    rows = _rows()
    out = {}
    for key, name, hours in (
        ("backup", Routine.Name.BACKUP, settings.HEALTH_BACKUP_MAX_HOURS),
        ("books", Routine.Name.BOOKS, settings.HEALTH_BOOKS_MAX_HOURS),
    ):
        at, problems = rows.get(name, (None, 0))
        if hours <= 0:
            status = "unwatched"
        elif at is None:
            status = "never"
        elif (timezone.now() - at).total_seconds() > hours * 3600:
            status = "stale"
        else:
            status = "fresh"
        out[key] = Watched(status, at, problems)
    return out
