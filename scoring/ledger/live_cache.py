"""What a live link's poll reads before anything else: the sitting's version, cache first.

Every watching phone asks for the version every 2 seconds; almost every time nothing has
changed. So the version is kept in the cache under the link's token, and a poll that finds it
there runs no SQL at all. It gets there two ways:

* after each write commits, the write puts the new version in (``publish``, called by the
  services' ``bump``), so watchers see a save on their very next poll;
* a poll that misses reads it with one indexed query and puts it in.

A cached version is never trusted for long: each entry lives ``VERSION_SECONDS`` (1 s), less
than the interval between two polls of a phone. Whatever makes the cache wrong — two writes'
after-commit updates landing out of order, a poll filling in what it read just before a commit,
a write from a process with its own memory cache (another gunicorn worker without a shared
cache, a management command), a server killed between commit and update — is gone before that
phone polls again: a stale cache never hides a change for longer than one poll.

That holds with Redis down too. The shared cache is best-effort
(``tienlen_site.plumbing.cache_backend``): an unreachable Redis is a miss on read and a dropped
write, so a poll reads the database and a write commits without its cache update; when Redis is
back, whatever it still holds is at most a second old, and the next poll reads the version the
database has.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Field

from scoring.models import Sitting

# Shorter than a phone's poll interval (2 s, give or take the drift of its timer).
VERSION_SECONDS = 1


def _key(token: str) -> str:
    return f"live-version:{token}"


def live_version(token: str) -> int | None:
    """The version of the sitting whose live link is ``token``; None if no sitting has it."""
    key = _key(token)
    version = cache.get(key)
    if version is not None:
        return int(version)
    version = version_from_database(token)
    if version is not None:
        cache.set(key, version, VERSION_SECONDS)
    return version


def version_from_database(token: str) -> int | None:
    """One indexed query, written as SQL: building the equivalent ORM query costs some fifteen
    times more than running it."""
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(connection.vendor), [token])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


@functools.cache
def _version_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote(_column('version'))} FROM {quote(Sitting._meta.db_table)} "
        f"WHERE {quote(_column('live_token'))} = %s"
    )


def _column(name: str) -> str:
    field = Sitting._meta.get_field(name)
    # Only a relation's reverse side or a many-to-many has no column of its own.
    if not isinstance(field, Field) or field.column is None:
        raise LookupError(f"Sitting.{name} has no column")
    return field.column


def publish(sittings: Iterable[Sitting], *, known: bool = False) -> None:
    """Called inside a write's transaction, with the sitting rows it locked.

    Now: forget the version cached under their current links, so a poll in this transaction
    (or one that lands after the commit but before the update below) reads it from the
    database. After the commit: put the committed versions in under the links, and forget a
    link the write replaced or turned off. ``known``: the rows as given are what the write
    commits (``services.common.bump``), so they are not read again after the commit.
    """
    sittings = list(sittings)
    old = {s.live_token for s in sittings if s.live_token}
    if old:
        cache.delete_many([_key(t) for t in old])
    if known:
        committed = {s.live_token: s.version for s in sittings if s.live_token}
        transaction.on_commit(functools.partial(_put, committed, set()))
    else:
        ids = [s.pk for s in sittings]
        transaction.on_commit(functools.partial(_after_commit, ids, old))


def _after_commit(ids: list[int], old: set[str]) -> None:
    rows = Sitting.objects.filter(pk__in=ids, live_token__isnull=False).values_list(
        "live_token", "version"
    )
    # Every token here is a string (isnull=False), which the column's type cannot tell.
    current = {token: version for token, version in rows if token is not None}
    _put(current, old - current.keys())


def _put(current: dict[str, int], gone: set[str]) -> None:
    if gone:
        cache.delete_many([_key(t) for t in gone])
    if current:
        cache.set_many({_key(t): v for t, v in current.items()}, VERSION_SECONDS)
