"""``make bench``: every benchmark of the project, one after the other."""

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
]


def main() -> int:
    failed = 0
    for name in BENCHES:
        path = HERE / name
        if not path.exists():
            continue
        print(f"\n== {name}", flush=True)
        failed |= subprocess.call([sys.executable, str(path)]) != 0
    return failed


if __name__ == "__main__":
    sys.exit(main())
