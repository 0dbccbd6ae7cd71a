"""Every CSV the site writes, download or command, goes through ``csv_text``.

The text starts with a UTF-8 byte-order mark, so a spreadsheet reads Vietnamese names right,
and ends each line with CRLF (RFC 4180). Names, sitting names and details are typed at the
table, so a text cell a spreadsheet would run as a formula (one starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return: OWASP's rule against CSV injection) is written with
a leading apostrophe. Only text is escaped: an amount is an ``int``, so a debt of -30000
stays a number a spreadsheet can add up.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

BOM = "\ufeff"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """The value as the file holds it: text a spreadsheet would run gets an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """``header`` then ``rows`` as CSV text, byte-order mark first."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(name) for name in header])
    writer.writerows([cell(value) for value in row] for row in rows)
    return out.getvalue()
