"""The JSON stream reader gives what ``json.loads`` gives, however the bytes are cut into
chunks, and refuses the first thing out of place: bad JSON (with its line and column), too
deep, too many items at a place, too many values in a part, a token too long, a NUL, a gzip
stream past its cap or damaged."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from tienlen_site.plumbing.jsonstream import Document, StreamError, inflated

VALID = [
    "{}",
    "[]",
    '{"a": 1}',
    '{"a": [1, 2, {"b": "x\\u00e9\\n"}], "c": null, "d": true, "e": -1.5e3, "f": false}',
    "[1, 2, 3]",
    '"x"',
    '{"s": [1, 2, {"a": []}]}',
    '{"x": 1, "s": []}',
    '{"a": "Tiến Lên", "s": [{}]}',
    '  {"a" : [ ] , "b" : { } }  \n',
    '\ufeff{"bom": 0}',
]


def _read(raw: bytes, chunk: int = 7, **limits: Any) -> Any:
    chunks = [raw[i : i + chunk] for i in range(0, len(raw), chunk)]
    options: dict[str, Any] = {"depth": 40, "items": lambda path: 100_000, "values": 10**6}
    options.update(limits)
    head, items = Document(chunks, **options).read("s")
    if items is not None:
        head = {**head, "s": list(items)}
    return head


@pytest.mark.parametrize("text", VALID)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 4096])
def test_it_reads_what_json_loads_reads(text, chunk):
    assert _read(text.encode(), chunk) == json.loads(text.lstrip("\ufeff"))


@pytest.mark.parametrize(
    ("text", "column", "said"),
    [
        ('{"a":1,}', 8, "Expecting property name"),
        ("[1,]", 4, "Expecting value"),
        ('{"a"}', 5, "Expecting ':' delimiter"),
        ("[1 2]", 4, "Expecting ',' delimiter"),
        ('{"a":1}x', 8, "Unexpected character"),
        ("", 1, "Expecting value"),
        ('"\\q"', 5, "Invalid \\escape"),
        ("[", 2, "Expecting value"),
        ("nul", 1, "Unexpected character"),
    ],
)
def test_bad_json_is_refused_with_its_place(text, column, said):
    with pytest.raises(StreamError) as raised:
        _read(text.encode(), 2)
    assert raised.value.kind == "json"
    assert said in raised.value.detail
    assert (raised.value.line, raised.value.column) in ((1, column), (1, column + 1))


def test_a_line_is_counted_across_chunks():
    with pytest.raises(StreamError) as raised:
        _read(b'{\n"a": 1,\n"b": [1,\n2,,]}', 3)
    assert (raised.value.kind, raised.value.line) == ("json", 4)


def test_each_limit_names_its_place():
    with pytest.raises(StreamError) as raised:
        _read(b'{"p": [' + b"{}," * 10 + b"{}]}", items=lambda path: 5)
    assert (raised.value.kind, raised.value.path, raised.value.limit) == ("items", "p", 5)
    with pytest.raises(StreamError) as raised:
        _read(b"[" * 50 + b"]" * 50, depth=40)
    assert raised.value.kind == "depth"
    with pytest.raises(StreamError) as raised:
        _read(b'{"s": [1, [' + b"[]," * 100 + b"[]]]}", values=50)
    assert raised.value.kind == "values" and raised.value.path.startswith("s[1][")
    with pytest.raises(StreamError) as raised:
        _read(b'{"a": "x\\u0000"}')
    assert (raised.value.kind, raised.value.path) == ("string", "a")
    with pytest.raises(StreamError) as raised:
        _read(b'{"a": "' + b"x" * 70_000 + b'"}', 4096)
    assert raised.value.kind == "token"


def test_the_streamed_list_comes_last():
    with pytest.raises(StreamError) as raised:
        _read(b'{"s": [1], "t": 2}')
    assert raised.value.kind == "order"


def test_gzip_is_capped_as_it_inflates():
    packed = gzip.compress(b" " * 5_000_000)
    with pytest.raises(StreamError) as raised:
        for _chunk in inflated(packed, most=1_000_000):
            pass
    assert (raised.value.kind, raised.value.detail) == ("size", "unpacked")
    assert b"".join(inflated(gzip.compress(b"[1]") + gzip.compress(b""), most=10)) == b"[1]"
    with pytest.raises(StreamError) as raised:
        list(inflated(gzip.compress(b"[1, 2, 3]")[:-6], most=100))
    assert raised.value.kind == "gzip"
