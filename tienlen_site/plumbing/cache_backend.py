"""The shared Redis cache, best-effort: Redis down never turns a page or a save into an error.

Nothing the site keeps in the cache is the truth. A live link's version is the sitting row's
``version`` column, memoised for a second (``scoring.ledger.live_cache``); a live board is a
rendering of one version, keyed by it. So when Redis cannot be reached the right answer is
the one a cold cache gives: a read misses, a write is dropped, and the request goes to the
database and renders for itself. Django's own Redis backend has no setting for that (every
error reaches the view), hence this client around it.

Only Redis's own errors are absorbed (connection refused or lost, a timeout, a server that
refuses writes); a bug such as an unpicklable value still raises. After an error the client
leaves Redis alone for ``RETRY_SECONDS``, so a Redis that hangs rather than refuses costs one
timed-out request per process and pause, not every request. When Redis is back the cache
fills again on the next miss, and since every version in it is read from the database and
lives a second, nothing missed while it was down can linger.

``cache_status()`` is what ``/healthz`` reports: a round trip to Redis made whatever the
pause says.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# How long a process leaves Redis alone after an error before trying it again.
RETRY_SECONDS = 1.0

T = TypeVar("T")
# The key and expiry types Django's Redis client declares.
type _Key = str | bytes | memoryview
type _Expiry = int | timedelta


class BestEffortRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._pause_until = 0.0
        self._lock = threading.Lock()

    def _try(self, what: str, call: Callable[[], T], fallback: T) -> T:
        if time.monotonic() < self._pause_until:
            return fallback
        try:
            return call()
        except RedisError as error:
            with self._lock:
                first = time.monotonic() >= self._pause_until
                self._pause_until = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning("cache unavailable, going without it (%s): %s", what, error)
            return fallback

    def get(self, key: _Key, default: Any) -> Any:
        return self._try("get", partial(super().get, key, default), default)

    def get_many(self, keys: Iterable[_Key]) -> dict[_Key, Any]:
        return self._try("get_many", partial(super().get_many, keys), {})

    def has_key(self, key: _Key) -> bool:
        return self._try("has_key", partial(super().has_key, key), False)

    def set(self, key: _Key, value: Any, timeout: _Expiry | None) -> None:
        self._try("set", partial(super().set, key, value, timeout), None)

    def set_many(self, data: Mapping[_Key, Any], timeout: _Expiry) -> None:
        self._try("set_many", partial(super().set_many, data, timeout), None)

    def add(self, key: _Key, value: Any, timeout: _Expiry | None) -> bool:
        # True: with no cache nobody can hold the key, so the caller goes ahead (get_or_set
        # then returns the value it computed).
        return self._try("add", partial(super().add, key, value, timeout), True)

    def touch(self, key: _Key, timeout: _Expiry) -> bool:
        return self._try("touch", partial(super().touch, key, timeout), False)

    def delete(self, key: _Key) -> bool:
        return self._try("delete", partial(super().delete, key), False)

    def delete_many(self, keys: Iterable[_Key]) -> None:
        self._try("delete_many", partial(super().delete_many, keys), None)

    def ping(self) -> bool:
        try:
            return bool(self.get_client(None, write=True).ping())
        except RedisError:
            return False


class BestEffortRedisCache(RedisCache):
    """Django's Redis cache, with ``BestEffortRedisCacheClient`` underneath. ``incr``,
    ``decr`` and ``clear`` still raise: they have no answer that would not be a lie."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = BestEffortRedisCacheClient

    def ping(self) -> bool:
        client = self._cache
        return isinstance(client, BestEffortRedisCacheClient) and client.ping()


def cache_status() -> str:
    """``"local"`` for each process's own memory, ``"ok"`` when Redis answers, ``"degraded"``
    when it does not (pages then render uncached)."""
    ping = getattr(cache, "ping", None)
    if ping is None:
        return "local"
    return "ok" if ping() else "degraded"
