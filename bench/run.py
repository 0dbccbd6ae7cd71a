"""``make bench``: every benchmark of the project, one after the other.

A benchmark listed here that is missing is an error, not something to skip: a renamed or
deleted file would otherwise make ``make bench`` report fewer figures and still succeed.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = [
    "bench_engine.py",
    "bench_score.py",
    "bench_settle.py",
    "bench_web.py",
    "bench_ledger.py",
    "bench_live.py",
    "bench_import.py",
    "bench_groups.py",
    "bench_chain.py",
    "bench_backup.py",
    "bench_archive.py",
    "bench_archive_scale.py",
    "bench_story.py",
    "bench_growth.py",
]


def missing() -> list[str]:
    return [name for name in BENCHES if not (HERE / name).is_file()]


def main() -> int:
    absent = missing()
    if absent:
        print(f"make bench: missing benchmark(s): {', '.join(absent)}", file=sys.stderr)
        return 2
    failed = []
    for name in BENCHES:
        print(f"\n== {name}", flush=True)
        if subprocess.call([sys.executable, str(HERE / name)]) != 0:
            failed.append(name)
    if failed:
        print(f"make bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
