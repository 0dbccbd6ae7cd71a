"""Read one archive file as the import does, in a process of its own, and print what was said,
the time it took and the process's peak resident memory (MB) as one JSON line. Run by
test_bombs.py; not a test module (no ``test_`` prefix)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

# This checkout's code, not whichever copy an installed package points at (argv[2]: another
# checkout, to measure it the same way).
sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")

import django

django.setup()

from django.utils import translation  # noqa: E402

from scoring.ledger import archive_file  # noqa: E402
from scoring.ledger.sessionfile import SessionFileError  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/ of this checkout
from bench.memory import peak_mb  # noqa: E402


def main(path: str) -> None:
    raw = open(path, "rb").read()  # noqa: SIM115
    start = time.monotonic()
    with translation.override("en"):
        try:
            read = archive_file.archive_read(raw)
            for _sitting in getattr(read, "sittings", None) or ():
                pass
            said = "read"
        except SessionFileError as error:
            said = str(error)
        except archive_file.Refused as problem:  # a sitting refused as it is read
            said = f"{problem.path}: {problem.message}"
    seconds = time.monotonic() - start
    peak = peak_mb()
    print(json.dumps({"said": said[:300], "seconds": seconds, "peak_mb": peak}))


if __name__ == "__main__":
    main(sys.argv[1])
