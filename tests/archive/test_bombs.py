"""An upload that unpacks to far more than it weighs is refused at the first thing out of
place, with the importing process's memory bounded whatever it unpacks to.

Each file is read in a fresh process (``bombs_read.py``), which reports its own peak resident
memory (``ru_maxrss``, the whole process: Python, Django and the read): a bound on memory is a
fact of the code, not of the machine's load, so it is asserted; the time is printed and
bounded only far above what it takes (``docs/archive.md`` has the measured figures)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.ledger import archive

ROOT = Path(__file__).resolve().parents[2]
READER = Path(__file__).with_name("bombs_read.py")
# The whole process, Django imported; the read itself adds a few megabytes.
PEAK_MB = 200
HEAD = b'{"format": "%s", "version": 1, ' % archive.FORMAT.encode()


def _packed(head: bytes, repeated: bytes, times: int, tail: bytes) -> bytes:
    """gzip of head + repeated * times + tail, written a block at a time (the test's own
    memory stays small too)."""
    out = gzip.compress(b"", mtime=0)[:0]
    import io

    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as packed:
        packed.write(head)
        block = repeated * 65536
        for _ in range(times // 65536):
            packed.write(block)
        packed.write(repeated * (times % 65536))
        packed.write(tail)
    return out + buffer.getvalue()


BOMBS = {
    # 64 MB of empty players in 65 KB.
    "players": (HEAD + b'"players": [', b"{},", 21_000_000, b"{}]}", "players: Too many items"),
    # Millions of empty lists as one list.
    "lists": (b"[", b"[],", 21_000_000, b"[]]", "Too many items"),
    # Nested lists, as deep as the bytes go.
    "nested": (b"", b"[", 60_000_000, b"", "nested too deeply"),
    # Empty lists inside one game's record, behind a valid start.
    "record": (
        HEAD + b'"sittings": [{"n": 1, "games": [{"record": {"x": [',
        b"[],",
        21_000_000,
        b"[]]}}]}]}",
        "Too many items",
    ),
    # One string of 64 MB.
    "string": (HEAD + b'"group": {"name": "', b"a", 64_000_000, b'"}}', "longer than"),
}


def _read(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(READER), str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_bomb_is_refused_within_bounded_memory(name, tmp_path):
    head, repeated, times, tail, said = BOMBS[name]
    path = tmp_path / f"{name}.json.gz"
    path.write_bytes(_packed(head, repeated, times, tail))
    assert path.stat().st_size < 100_000  # within the site's request limit
    found = _read(path)
    print(f"{name}: {path.stat().st_size} B, {found['seconds']:.2f} s, {found['peak_mb']:.0f} MB")
    assert said in str(found["said"])
    assert found["peak_mb"] < PEAK_MB
    # Far above what the read takes (a few tenths of a second): it stops at the first thing
    # out of place instead of unpacking and parsing the whole file.
    assert found["seconds"] < 10
