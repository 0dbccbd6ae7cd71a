"""A group of years moved through the commands, and archives built to exhaust the importer.

For groups of 50, 250 and 300 sittings × 200 games (``bench/grow.py``), each step in a fresh
process of its own, so its peak resident memory (``bench.memory.peak_mb``: the whole process,
Django included) is the step's alone:

- ``export_group ID --format archive --output F.json.gz``: wall time, peak memory, the sizes;
- ``import_group F.json.gz --owner U``: wall time, peak memory, and every fingerprint (the
  group's and each sitting's) against the original's.

Then each malformed upload of docs/archive.md's list (a few kilobytes gzipped, small enough for
the site's request limit) read and imported as the worker does (``archive_read``, then
``group_import``): the time until it is refused and the process's peak memory.

Targets (exit 1 when one is missed, the figures printed either way): every fingerprint kept;
an import's peak under 300 MB; a malformed upload refused within 2 s under 200 MB. A child
process may use at most 3 GB of address space (1.5 GB for a malformed upload), so a runaway
one is stopped and counted as a miss rather than taking the machine down.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_archive \\
        .venv/bin/python bench/bench_archive_scale.py [--sizes 50 250 300] [--games 200]

``BENCH_DATABASE_URL`` names an empty PostgreSQL database the bench migrates and fills (the
figures in docs/archive.md); without it a throwaway SQLite file, removed at the end.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory import peak_mb  # noqa: E402

IMPORT_PEAK_MB = 300
BOMB_SECONDS = 2.0
BOMB_PEAK_MB = 200
GUARD_BYTES = 3 * 1024**3
BOMB_GUARD_BYTES = 3 * 1024**3 // 2


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()


# --- The child processes ------------------------------------------------------------------


def child_export(group_id: str, out: str) -> dict[str, Any]:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("export_group", group_id, "--format", "archive", "--output", out)
    wall = time.perf_counter() - started
    with gzip.open(out, "rb") as unpacked:
        plain = sum(len(chunk) for chunk in iter(lambda: unpacked.read(1 << 20), b""))
    return {"wall": wall, "peak": peak_mb(), "gz": os.path.getsize(out), "plain": plain}


def child_import(path: str, owner: str, original_id: str) -> dict[str, Any]:
    from io import StringIO

    from django.core.management import call_command

    from scoring.ledger import verify
    from scoring.models import Group

    out = StringIO()
    started = time.perf_counter()
    call_command("import_group", path, "--owner", owner, stdout=out, stderr=StringIO())
    wall = time.perf_counter() - started
    peak = peak_mb()
    new = Group.objects.get(pk=int(out.getvalue().strip().splitlines()[-1]))
    old = Group.objects.get(pk=int(original_id))

    def prints(group: Group) -> list[str]:
        sittings = [verify.fingerprint_of(s) for s in group.sittings.order_by("date", "id")]
        return [verify.fingerprint_of(group), *sittings]

    kept = prints(new) == prints(old)
    return {"wall": wall, "peak": peak, "kept": kept}


def child_bomb(path: str, owner: str) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import translation

    from scoring.ledger import archive_file
    from scoring.ledger.sessionfile import SessionFileError
    from scoring.services import group_archive

    user = get_user_model().objects.get(username=owner)
    raw = Path(path).read_bytes()
    started = time.perf_counter()
    said = ""
    try:
        with translation.override("en"), transaction.atomic():
            data = archive_file.archive_read(raw)
            group_archive.group_import(owner=user, data=data)
            transaction.set_rollback(True)
        refused = False
    except SessionFileError as error:
        refused, said = True, str(error.problems[0])[:100]
    return {"wall": time.perf_counter() - started, "peak": peak_mb(), "refused": refused,
            "said": said}  # fmt: skip


CHILDREN = {"export": child_export, "import": child_import, "bomb": child_bomb}


def run_child(kind: str, *args: str, guard: int = GUARD_BYTES) -> dict[str, Any]:
    """One step in a fresh process under an address-space guard; its JSON, or what stopped it."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (guard, guard))

    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, __file__, "--child", kind, *args],
        capture_output=True,
        text=True,
        preexec_fn=limit,  # the bench's parent runs no threads
        check=False,
    )
    if result.returncode != 0:
        return {
            "failed": (result.stderr.strip().splitlines() or ["?"])[-1][:160],
            "wall": time.perf_counter() - started,
            "peak": None,
        }
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- Malformed uploads --------------------------------------------------------------------

HEAD = b'{"format":"so-tien-len/group-archive","version":1,'


def _gzip_stream(parts: Iterator[bytes]) -> bytes:
    """Gzip what ``parts`` yields without holding it all: a bomb's unpacked size is never in
    this process's memory."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    out = [packer.compress(part) for part in parts]
    out.append(packer.flush())
    return b"".join(out)


def _repeat(head: bytes, unit: bytes, total: int, tail: bytes) -> Iterator[bytes]:
    yield head
    chunk = unit * (1 << 16)
    left = (total - len(head) - len(tail)) // len(unit)
    while left > 0:
        n = min(left, 1 << 16)
        yield chunk if n == 1 << 16 else unit * n
        left -= n
    yield tail


def bombs(cap: int) -> dict[str, bytes]:
    """Each malformed upload of docs/archive.md, gzipped: every one unpacks to just under the
    import's cap (or far past it), and fits the request limit."""
    under = cap - 1024
    return {
        "players: millions of {}": _gzip_stream(
            _repeat(HEAD + b'"players":[{}', b",{}", under, b"]}")
        ),
        "millions of empty lists": _gzip_stream(_repeat(b"[[]", b",[]", under, b"]")),
        "a list nested a million deep": _gzip_stream(_nested(10**6)),
        "1 GB of spaces (past the cap)": _gzip_stream(_repeat(b"", b" ", 1024**3, b"")),
    }


def _nested(depth: int) -> Iterator[bytes]:
    yield b"[" * depth
    yield b"]" * depth


# --- The parent ---------------------------------------------------------------------------


def build(owner: Any, group: Any, have: int, want: int, games: int) -> None:
    from bench import grow

    started = time.perf_counter()
    grow.add_sittings(group, owner, have, want, games)
    print(f"  built sittings {have + 1}–{want} in {time.perf_counter() - started:.0f} s",
          flush=True)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 250, 300])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _setup()
        print(json.dumps(CHILDREN[args.child[0]](*args.child[1:])))
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="bench-archive-scale-"))
    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["DATABASE_URL"] = url
    try:
        return _main(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _main(args: argparse.Namespace, workdir: Path) -> int:
    _setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from scoring import services
    from scoring.engine import limits

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    owner = users.create_user("bench", password="bench-archive-scale-password")
    users.create_user("mover", password="bench-archive-scale-password")
    group = services.group_create(owner=owner, name="Năm năm").value
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{connection.vendor}, {os.cpu_count()} CPU (load {load}); wall time, peak resident "
          f"memory of each step's own process", flush=True)  # fmt: skip
    misses: list[str] = []
    rows: list[str] = []
    have = 0
    for size in sorted(set(args.sizes)):
        build(owner, group, have, size, args.games)
        have = size
        out = workdir / f"{size}.json.gz"
        export = run_child("export", str(group.pk), str(out))
        if "failed" in export:
            misses.append(f"{size} sittings: export failed: {export['failed']}")
            rows.append(f"  {size:4d} × {args.games}  export FAILED ({export['failed']})")
            continue
        imported = run_child("import", str(out), "mover", str(group.pk))
        sizes = f"{export['plain'] / 1048576:6.1f} MiB JSON, {export['gz'] / 1048576:5.2f} MiB gz"
        line = (f"  {size:4d} × {args.games}  {sizes}   export {export['wall']:6.1f} s "
                f"{export['peak']:6.0f} MB   import ")  # fmt: skip
        if "failed" in imported:
            line += f"FAILED after {imported['wall']:.0f} s ({imported['failed']})"
            misses.append(f"{size} sittings: import failed: {imported['failed']}")
        else:
            line += (f"{imported['wall']:6.1f} s {imported['peak']:6.0f} MB   fingerprints "
                     f"{'kept' if imported['kept'] else 'CHANGED'}")  # fmt: skip
            if not imported["kept"]:
                misses.append(f"{size} sittings: the imported fingerprints differ")
            if imported["peak"] >= IMPORT_PEAK_MB:
                misses.append(
                    f"{size} sittings: import peak {imported['peak']:.0f} MB "
                    f"(target < {IMPORT_PEAK_MB} MB)"
                )
        rows.append(line)
        print(line, flush=True)
        out.unlink()
    print(f"malformed uploads (each unpacks to about the cap, {limits.MAX_ARCHIVE_BYTES // 1048576}"
          f" MiB, or past it), read and imported as the worker does:", flush=True)  # fmt: skip
    for name, raw in bombs(limits.MAX_ARCHIVE_BYTES).items():
        path = workdir / "bomb.json.gz"
        path.write_bytes(raw)
        result = run_child("bomb", str(path), "mover", guard=BOMB_GUARD_BYTES)
        upload = f"{len(raw) / 1024:7.1f} KiB"
        if "failed" in result:
            line = (f"  {name:32s} {upload}  stopped after {result['wall']:.1f} s: "
                    f"{result['failed']}")  # fmt: skip
            misses.append(f"{name}: not refused ({result['failed']})")
        else:
            verdict = "refused" if result["refused"] else "ACCEPTED"
            line = (
                f"  {name:32s} {upload}  {verdict} in {result['wall']:5.2f} s, "
                f"peak {result['peak']:5.0f} MB  {result['said']}"
            )
            if not result["refused"]:
                misses.append(f"{name}: accepted")
            if result["wall"] >= BOMB_SECONDS or result["peak"] >= BOMB_PEAK_MB:
                misses.append(
                    f"{name}: {result['wall']:.2f} s, {result['peak']:.0f} MB "
                    f"(target < {BOMB_SECONDS:g} s and < {BOMB_PEAK_MB} MB)"
                )
        print(line, flush=True)
    for miss in misses:
        print(f"missed: {miss}", file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
