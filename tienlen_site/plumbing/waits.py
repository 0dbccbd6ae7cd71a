"""Few requests wait for one row: the rest are told "thử lại" at once.

A write to a sitting holds its row for a few milliseconds. If the holder hangs (a worker
stopped in the middle of its transaction), every save to that sitting waits for it, each in a
worker of its own, up to ``lock_timeout`` (settings.py): eight phones saving at once would
hold eight workers and leave none for anyone else. So before waiting for a row, a write takes
one of ``PLACES`` places in that row's queue, a transaction-level advisory lock that the
database lets go when the transaction ends, however it ends. With every place taken, the
write fails at once with :class:`RowBusy`, which the site answers like a lock that timed out:
503 "Sổ đang bận, thử lại" (tienlen_site/plumbing/unavailable.py), and the page's pending-save
queue sends it again by itself. A hung holder thus costs at most ``PLACES`` workers, itself
included.

PostgreSQL only: SQLite has one lock for the whole file, which its busy timeout bounds.
"""

from __future__ import annotations

from django.db import OperationalError, connection

#: The places in one row's queue, its holder's included: two phones of one table saving the
#: same moment both land; a third is asked to send again (its page does, two seconds later).
#: Two, not more: a request waits inside a sync worker, and with three waiting on one
#: instance of three workers, everything else sent to that instance would queue behind them
#: (nginx balances connections, not free workers), one lock timeout after another.
PLACES = 2

# The kinds of row, the high byte of each advisory lock's key (tienlen_site.plumbing.oneatatime
# uses kinds 0x7431…, far from these).
SITTING_ROW = 0x51


class RowBusy(OperationalError):
    """Every place in the row's queue is taken: nothing was written, send again soon."""


#: Takes the first free place of row ``pk`` of ``kind`` (parameters: places - 1, kind, pk) and
#: gives its number, or no row when every place is taken. One statement: the scan stops at the
#: first lock it gets (``LIMIT 1``), so a request never holds two places. A save folds it into
#: the statement that locks its group (``scoring.services.common``), no statement of its own.
TAKE_A_PLACE = (
    "SELECT place FROM generate_series(0, %s) AS place WHERE pg_try_advisory_xact_lock("
    "((%s::bigint << 56) | ((%s::bigint & 1099511627775) << 8)) + place) LIMIT 1"
)


def busy(kind: int, pk: int, places: int = PLACES) -> RowBusy:
    return RowBusy(f"row {pk} of kind {kind:#x}: its {places} places are taken")


def queue_for(kind: int, pk: int, places: int = PLACES) -> None:
    """Take a place in the queue for row ``pk`` of ``kind`` until this transaction ends, or
    raise ``RowBusy`` (``TAKE_A_PLACE``)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(TAKE_A_PLACE, [places - 1, kind, pk])
        if cursor.fetchone() is None:
            raise busy(kind, pk, places)
