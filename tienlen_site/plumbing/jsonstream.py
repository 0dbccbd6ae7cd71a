"""A JSON document read as it arrives, under limits checked as it is read.

``json.loads`` builds the whole document before anyone can look at it: 64 MB of ``[{},{},…]``
become some twenty million objects (gigabytes) before a check can say "too many". Here the
bytes are inflated (gzip, capped as they inflate), decoded and tokenized a chunk at a time,
and each value is built only after the limits of where it stands have been checked: the
nesting depth, the number of items of each list or object (by its place in the document), the
number of values one part of the document may hold in all, the length of one token. The
first thing out of place raises :class:`StreamError` at once, with the bytes read so far the
only cost.

The top level must be an object; its members are read whole, but for one list member named
by the caller (:meth:`Document.stream_key`), whose items are handed out one at a time as they
are read, so that a document of any length is held one item at a time. That member must be
the last of the object: what comes after it could not be handed out in order.

Standard library only: a regular expression finds each token (strings, numbers, literals and
punctuation); strings with an escape are decoded by ``json.loads`` itself.
"""

from __future__ import annotations

import codecs
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

CHUNK = 256 * 1024
# No string, number or run of spaces in the documents read here comes near this: a longer
# token (a 60 MB string) is refused instead of being collected.
LONGEST_TOKEN = 64 * 1024

_TOKEN = re.compile(
    r"""[ \t\n\r]*(?:
      ([{}\[\],:])
    | ("[^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*")
    | (-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
    | (true|false|null)
    )""",
    re.VERBOSE,
)
_SPACE = re.compile(r"[ \t\n\r]*")
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
_GZIP_MAGIC = b"\x1f\x8b"


class StreamError(Exception):
    """What stopped the reading: ``kind`` is one of ``gzip``, ``size``, ``utf8``, ``json``,
    ``depth``, ``items``, ``values``, ``token``, ``string``, ``order``; ``path`` where (as
    ``players[3].name``); ``line``/``column`` in the text for ``json``; ``limit`` the limit
    passed."""

    def __init__(
        self,
        kind: str,
        *,
        path: str = "",
        line: int = 0,
        column: int = 0,
        limit: int = 0,
        detail: str = "",
    ) -> None:
        super().__init__(f"{kind} at {path or 'top'}: {detail or limit}")
        self.kind, self.path, self.limit, self.detail = kind, path, limit, detail
        self.line, self.column = line, column


def inflated(source: bytes | IO[bytes], *, most: int) -> Iterator[bytes]:
    """The bytes of ``source``, gunzipped when they start as gzip does; ``size`` raised as
    soon as more than ``most`` bytes come out (gzip is inflated at most a chunk at a time)."""
    read = _reader(source)
    first = read()
    if first[:2] != _GZIP_MAGIC:
        total = 0
        chunk = first
        while chunk:
            total += len(chunk)
            if total > most:
                raise StreamError("size", limit=most)
            yield chunk
            chunk = read()
        return
    total = 0
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pending = first
    try:
        while True:
            while pending:
                out = unpack.decompress(pending, CHUNK)
                pending = unpack.unconsumed_tail
                if unpack.eof and unpack.unused_data:
                    # Another gzip member follows (``cat a.gz b.gz``), as gzip reads it.
                    pending = unpack.unused_data + pending
                    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
                total += len(out)
                if total > most:
                    raise StreamError("size", detail="unpacked", limit=most)
                if out:
                    yield out
            pending = read()
            if not pending:
                break
    except zlib.error:
        raise StreamError("gzip") from None
    if not unpack.eof:
        raise StreamError("gzip")


def _reader(source: bytes | IO[bytes]) -> Callable[[], bytes]:
    if isinstance(source, bytes | bytearray | memoryview):
        view = memoryview(source)
        place = 0

        def take() -> bytes:
            nonlocal place
            chunk = bytes(view[place : place + CHUNK])
            place += len(chunk)
            return chunk

        return take
    return lambda: source.read(CHUNK)


class Document:
    """One JSON document from chunks of UTF-8 bytes (a BOM allowed).

    ``depth``: the deepest nesting allowed (the top object is level 1). ``items(path)``: how
    many items the list or object at ``path`` may hold (``path`` a tuple of member names,
    ``"*"`` for any list item: ``("sittings", "*", "games")``). ``values``: how many values
    (containers and scalars) each member of the top object, and each streamed item, may hold in
    all; what that costs in memory is what one such part can cost."""

    def __init__(
        self,
        chunks: Iterable[bytes],
        *,
        depth: int,
        items: Callable[[tuple[str, ...]], int],
        values: int,
    ) -> None:
        self._chunks = iter(chunks)
        self._decode = codecs.getincrementaldecoder("utf-8-sig")("strict")
        self._buffer = ""
        self._at = 0
        self._done = False
        self._lines_before = 0  # newlines in the text dropped from the buffer
        self._line_start = 0  # offset of the current line's start, relative to the buffer
        self.depth, self.items, self.values = depth, items, values
        self._budget = 0

    # --- Tokens -----------------------------------------------------------------------

    def _more(self) -> bool:
        """Read the next chunk into the buffer (dropping what was read); False at the end."""
        if self._done:
            return False
        kept = self._buffer[self._at :]
        dropped = self._buffer[: self._at]
        newlines = dropped.count("\n")
        if newlines:
            self._lines_before += newlines
            self._line_start = dropped.rindex("\n") + 1 - self._at
        else:
            self._line_start -= self._at
        try:
            chunk = next(self._chunks, None)
            if chunk is None:
                self._done = True
                text = self._decode.decode(b"", final=True)
            else:
                text = self._decode.decode(chunk)
        except UnicodeDecodeError:
            raise StreamError("utf8") from None
        self._buffer, self._at = kept + text, 0
        return True

    def _token(self) -> tuple[int, str]:
        """The next token: (its group in :data:`_TOKEN`, its text); (0, "") at the end."""
        while True:
            match = _TOKEN.match(self._buffer, self._at)
            # A token near the end of what was read may go on in the next chunk ("1.5" of
            # "1.5e3" matches before "e3" arrives).
            if match is not None and (match.end() + 3 < len(self._buffer) or self._done):
                self._at = match.end()
                return match.lastindex or 0, match.group(match.lastindex or 0)
            if len(self._buffer) - self._at > LONGEST_TOKEN:
                raise StreamError("token", limit=LONGEST_TOKEN)
            if not self._more():
                if match is not None:
                    self._at = match.end()
                    return match.lastindex or 0, match.group(match.lastindex or 0)
                self._at = _SPACE.match(self._buffer, self._at).end()  # type: ignore[union-attr]
                if self._at < len(self._buffer):
                    raise self._invalid("Unexpected character")
                return 0, ""

    def _invalid(self, message: str) -> StreamError:
        column = self._at - self._line_start + 1
        line = self._lines_before + self._buffer.count("\n", 0, self._at) + 1
        if "\n" in self._buffer[: self._at]:
            column = self._at - self._buffer.rindex("\n", 0, self._at)
        return StreamError("json", line=line, column=column, detail=message)

    def _scalar(self, group: int, text: str, path: Callable[[], str]) -> Any:
        if group == 2:
            if "\\" not in text:
                return text[1:-1]
            try:
                value = json.loads(text)
            except ValueError:
                raise self._invalid("Invalid \\escape") from None
            if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
                raise StreamError("string", path=path())
            return value
        if group == 3:
            return float(text) if any(c in text for c in ".eE") else int(text)
        return _LITERALS[text]

    # --- Values -----------------------------------------------------------------------

    def _count(self, path: Callable[[], str]) -> None:
        self._budget -= 1
        if self._budget < 0:
            raise StreamError("values", path=path(), limit=self.values)

    def _value(
        self,
        group: int,
        text: str,
        where: tuple[str, ...],
        level: int,
        at: Iterable[str | int] | None = None,
    ) -> Any:
        """The value starting with the token just read, at ``where`` (``at``: the same place
        with its list indices), nested ``level`` deep (1 for a member of the top object).
        Built without recursion."""
        names: list[str | int] = list(where if at is None else at)

        def path() -> str:
            return _spell(names)

        self._count(path)
        if group != 1 or text in "]},:":
            if group == 1:
                raise self._invalid("Expecting value")
            if group == 0:
                raise self._invalid("Expecting value")
            return self._scalar(group, text, path)
        # Each open container: [value, its shape path, items so far, its limit, key waiting].
        stack: list[list[Any]] = []
        shape = list(where)

        def open_(opener: str) -> None:
            if level + len(stack) + 1 > self.depth:
                raise StreamError("depth", path=path(), limit=self.depth)
            stack.append([[] if opener == "[" else {}, self.items(tuple(shape)), 0])

        open_(text)
        while True:
            top = stack[-1]
            container = top[0]
            is_list = isinstance(container, list)
            group, text = self._token()
            if group == 1 and text == ("]" if is_list else "}"):
                finished = stack.pop()[0]
                if not stack:
                    return finished
                self._attach(stack, finished, names)
                names.pop()
                shape.pop()
                continue
            if top[2]:
                if group != 1 or text != ",":
                    raise self._invalid(f"Expecting ',' delimiter or '{']' if is_list else '}'}'")
                group, text = self._token()
            top[2] += 1
            if top[2] > top[1]:
                raise StreamError("items", path=path(), limit=top[1])
            if is_list:
                names.append(len(container))
                shape.append("*")
            else:
                if group != 2:
                    raise self._invalid("Expecting property name enclosed in double quotes")
                key = self._scalar(group, text, path)
                if self._token() != (1, ":"):
                    raise self._invalid("Expecting ':' delimiter")
                names.append(key)
                shape.append(key)
                group, text = self._token()
            self._count(path)
            if group == 1 and text in "[{":
                open_(text)
                continue
            if group in (0, 1):
                raise self._invalid("Expecting value")
            self._attach(stack, self._scalar(group, text, path), names)
            names.pop()
            shape.pop()

    @staticmethod
    def _attach(stack: list[list[Any]], value: Any, names: list[str | int]) -> None:
        container = stack[-1][0]
        if isinstance(container, list):
            container.append(value)
        else:
            container[names[-1]] = value

    # --- The document -----------------------------------------------------------------

    def read(self, stream_key: str) -> tuple[Any, Iterator[Any] | None]:
        """The top object's members up to ``stream_key`` (the whole document when it is not
        an object, or has no such member), and an iterator over that member's items (None
        when it is absent); the rest of the document is checked as the iterator ends."""
        group, text = self._token()
        if (group, text) != (1, "{"):
            self._budget = self.values
            value = self._value(group, text, (), 0)
            self._end()
            return value, None
        head: dict[str, Any] = {}
        while True:
            group, text = self._token()
            if (group, text) == (1, "}") and not head:
                self._end()
                return head, None
            if head:
                if (group, text) == (1, "}"):
                    self._end()
                    return head, None
                if (group, text) != (1, ","):
                    raise self._invalid("Expecting ',' delimiter or '}'")
                group, text = self._token()
            if group != 2:
                raise self._invalid("Expecting property name enclosed in double quotes")
            key = self._scalar(group, text, lambda: "")
            if len(head) >= self.items(()):
                raise StreamError("items", limit=self.items(()))
            if self._token() != (1, ":"):
                raise self._invalid("Expecting ':' delimiter")
            group, text = self._token()
            if key == stream_key and (group, text) == (1, "["):
                return head, self._stream(key)
            self._budget = self.values
            head[key] = self._value(group, text, (key,), 1)

    def _stream(self, key: str) -> Iterator[Any]:
        most = self.items((key,))
        count = 0
        while True:
            group, text = self._token()
            if (group, text) == (1, "]"):
                break
            if count:
                if (group, text) != (1, ","):
                    raise self._invalid("Expecting ',' delimiter or ']'")
                group, text = self._token()
            count += 1
            if count > most:
                raise StreamError("items", path=key, limit=most)
            self._budget = self.values
            yield self._value(group, text, (key, "*"), 2, (key, count - 1))
        group, text = self._token()
        if (group, text) == (1, ","):
            raise StreamError("order", path=key)
        if (group, text) != (1, "}"):
            raise self._invalid("Expecting ',' delimiter or '}'")
        self._end()

    def _end(self) -> None:
        if self._token() != (0, ""):
            raise self._invalid("Extra data")


def _spell(names: Iterable[str | int]) -> str:
    out = ""
    for name in names:
        if isinstance(name, int):
            out += f"[{name}]"
        else:
            out += f".{name}" if out else name
    return out
