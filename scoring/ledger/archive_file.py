"""A group's archive file (``scoring.ledger.archive``) read and checked, nothing written.

:func:`archive_read` turns the bytes into JSON (gzip or not) under the same kind of limits as
a session file: a size cap, a nesting cap, UTF-8, no character a database cannot hold. The
field readers (:func:`field`, :func:`text`, :func:`item_list`, :func:`ref`) check one value
each and refuse it (:class:`Refused`) naming where it is; ``scoring.services.group_archive``
reads the archive with them as it writes the group.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import IO, Any, cast

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.engine import limits
from scoring.engine import readtext as engine_text
from scoring.ledger.sessionfile import refused
from scoring.models import MAX_GAMES, MAX_MEMBERS, MAX_SETTLEMENTS
from scoring.text.typed import engine_language
from tienlen_site.plumbing import jsonstream

# One cap for the export and the import (scoring.engine.limits). The archive is read as a
# stream (memory follows one sitting, not the file), so the cap is on time, not memory. The
# site's upload is smaller (the request limit): a large archive goes there gzipped, as the
# site writes it.
MAX_ARCHIVE_BYTES = limits.MAX_ARCHIVE_BYTES
# An archive nests about a dozen levels (a chặt's steps inside a record inside an entry).
MAX_DEPTH = 40
MAX_SITTINGS = 10_000
MAX_PLAYERS = 2_000
GZIP_MAGIC = b"\x1f\x8b"


class Refused(Exception):
    """A value of the archive refused: where it is, and why (``refused`` makes it a problem)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


def too_large_message(size: int | None) -> str:
    limit = MAX_ARCHIVE_BYTES // 1048576
    if size is None:
        return _("Bản lưu trữ quá lớn (hơn %(max)d MB khi giải nén); tối đa %(max)d MB.") % {
            "max": limit
        }
    shown = number_format(Decimal(-(-size * 10 // 1048576)) / 10, 1)
    return _("Bản lưu trữ quá lớn (%(size)s MB); tối đa %(max)d MB.") % {
        "size": shown,
        "max": limit,
    }


#: How many items each list (or members each object) of an archive may hold, by its place:
#: the rows of a group and of a sitting, their caps; any other (a record, a history entry's
#: before and after, the rules) no more than a group has players.
MAX_HISTORY = 10 * MAX_GAMES + 4 * MAX_SETTLEMENTS + 1000
_MOST: dict[tuple[str, ...], int] = {
    ("players",): MAX_PLAYERS,
    ("periods",): MAX_SETTLEMENTS,
    ("settlements",): MAX_SETTLEMENTS,
    ("history",): MAX_HISTORY,
    ("sittings",): MAX_SITTINGS,
    ("sittings", "*", "members"): MAX_MEMBERS,
    ("sittings", "*", "games"): MAX_GAMES,
    ("sittings", "*", "settlements"): MAX_SETTLEMENTS,
    ("sittings", "*", "history"): MAX_HISTORY,
}
#: Values (of any kind) in one sitting, or in one member of the archive's top object: a full
#: sitting (2 000 games, 1 000 settlements and their history) holds under a million. What one
#: such part costs in memory is what a hostile one can cost.
MAX_VALUES = 1_500_000


def _most(path: tuple[str, ...]) -> int:
    return _MOST.get(path, MAX_PLAYERS)


@dataclass
class Archive:
    """An archive as it is read: everything but its sittings, read and checked, and its
    sittings, each read (and checked against the limits) only when the import reaches it."""

    head: Any
    sittings: Iterator[Any] | None


def archive_read(raw: bytes | IO[bytes]) -> Archive:
    """An archive file (``.json`` or ``.json.gz``, UTF-8), read as a stream
    (``tienlen_site.plumbing.jsonstream``): the gzip stream capped as it inflates, the JSON
    checked for depth, counts and values as it is read, the first thing out of place refused
    at once. The sittings are read as the import (``scoring.services.group_archive``) reaches
    them."""
    if isinstance(raw, bytes) and len(raw) > MAX_ARCHIVE_BYTES and raw[:2] != GZIP_MAGIC:
        raise refused("", too_large_message(len(raw)))
    document = jsonstream.Document(
        jsonstream.inflated(raw, most=MAX_ARCHIVE_BYTES),
        depth=MAX_DEPTH,
        items=_most,
        values=MAX_VALUES,
    )
    try:
        head, sittings = document.read("sittings")
    except jsonstream.StreamError as error:
        raise refused(*_stream_problem(error)) from None
    return Archive(head, _checked(sittings) if sittings is not None else None)


def _checked(items: Iterator[Any]) -> Iterator[Any]:
    try:
        yield from items
    except jsonstream.StreamError as error:
        raise Refused(*_stream_problem(error)) from None


def _stream_problem(error: jsonstream.StreamError) -> tuple[str, str]:
    """Where the stream went wrong, and what to say of it."""
    kind, path = error.kind, error.path
    if kind == "gzip":
        return "", _("Tệp nén (gzip) bị hỏng.")
    if kind == "size":
        return "", too_large_message(None if error.detail else error.limit + 1)
    if kind == "utf8":
        return "", _("Tệp không phải văn bản UTF-8; hãy chọn tệp .json đã xuất.")
    if kind == "json":
        return "", _("Tệp không phải JSON hợp lệ (dòng %(line)d, cột %(col)d: %(msg)s).") % {
            "line": error.line,
            "col": error.column,
            "msg": error.detail,
        }
    if kind == "depth":
        return path, _("Tệp lồng quá sâu (hơn %(max)d tầng).") % {"max": MAX_DEPTH}
    if kind == "string":
        return path, _("Tệp có chuỗi chứa ký tự không lưu được (NUL hoặc nửa cặp UTF-16).")
    if kind == "items":
        return path, _("Quá nhiều mục (hơn %(max)d).") % {"max": error.limit}
    most = number_format(error.limit, force_grouping=True)
    if kind == "values":
        return path, _("Phần này của tệp có quá nhiều giá trị (hơn %(max)s).") % {"max": most}
    if kind == "token":
        return path, _("Tệp có một giá trị dài quá %(max)s ký tự.") % {"max": most}
    # "order": a member after the sittings.
    return path, _("Danh sách “sittings” phải ở cuối bản lưu trữ, như trang này ghi ra.")


def _kinds() -> dict[str, str]:
    return {
        "str": _("chuỗi"),
        "int": _("số nguyên"),
        "bool": _("đúng hoặc sai"),
        "list": _("danh sách"),
        "dict": _("đối tượng JSON"),
        "date": _("ngày (YYYY-MM-DD)"),
        "time": _("thời điểm (ISO 8601, có múi giờ)"),
    }


def wrong(path: str, kind: str) -> Refused:
    return Refused(path, _("Thiếu hoặc sai kiểu: cần %(kind)s.") % {"kind": _kinds()[kind]})


def close_through(after: Mapping[str, Any]) -> str | None:
    """The last day a close's history entry says it covers: ``closes_through``, or, written
    before closes were counted through a day, the day before its ``closes_before``."""
    through = after.get("closes_through")
    if isinstance(through, str):
        return through
    with suppress(TypeError, ValueError):
        return (date.fromisoformat(after.get("closes_before", "")) - timedelta(days=1)).isoformat()
    return None


_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "list": list, "dict": dict}


def field(obj: Mapping[str, Any], key: str, kind: str, path: str, *, null: bool = False) -> Any:
    """The value of ``key``, of ``kind`` (a key of :func:`_kinds`); ``null``: or None."""
    where = f"{path}.{key}" if path else key
    value = obj.get(key)
    if value is None and null:
        return None
    if isinstance(value, _TYPES.get(kind, ())) and not (kind == "int" and isinstance(value, bool)):
        return value
    if kind in ("date", "time") and isinstance(value, str):
        with suppress(ValueError):
            if kind == "date":
                return date.fromisoformat(value)
            at = datetime.fromisoformat(value)
            if at.tzinfo is not None:
                return at
    raise wrong(where, kind)


def text(obj: Mapping[str, Any], key: str, path: str, *, longest: int, empty: bool) -> str:
    value = cast(str, field(obj, key, "str", path))
    where = f"{path}.{key}"
    if not value.strip() and not empty:
        raise Refused(where, _("Không được để trống."))
    if len(value) > longest:
        raise Refused(where, _("Dài quá %(n)d ký tự.") % {"n": longest})
    problem = engine_text.text_problem(value)
    if problem is not None:
        raise Refused(where, problem.message(engine_language()))
    return value


def field_list(obj: Mapping[str, Any], key: str, path: str, most: int) -> list[Any]:
    items = cast(list[Any], field(obj, key, "list", path))
    if len(items) > most:
        raise Refused(
            f"{path}.{key}" if path else key,
            _("Quá nhiều mục (%(n)d); tối đa %(max)d.") % {"n": len(items), "max": most},
        )
    return items


def item_list(obj: Mapping[str, Any], key: str, path: str, most: int) -> list[dict[str, Any]]:
    """A list of objects (the rows of a group or a sitting)."""
    items = field_list(obj, key, path, most)
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise wrong(f"{path}.{key}[{index}]" if path else f"{key}[{index}]", "dict")
    return items


def ref(value: Any, known: Mapping[int, Any], path: str, what: str) -> Any:
    """The row numbered ``value`` in the archive (None stays None)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value in known:
        return known[value]
    raise Refused(path, _("Không có %(what)s số %(n)s trong tệp.") % {"what": what, "n": value})


def revision(item: Mapping[str, Any], path: str, *, null: bool = False) -> int | None:
    value = field(item, "revision", "int", path, null=null)
    if value is not None and not 0 < value <= 1_000_000:
        raise wrong(f"{path}.revision", "int")
    return cast(int | None, value)
