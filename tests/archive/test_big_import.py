"""A five-year group (300 sittings × 200 games) imports from its archive with the importing
process's peak resident memory under 300 MB, its fingerprint kept: the archive is read one
sitting at a time, so memory follows a sitting, not the file.

Built and imported in processes of their own (``big_archive.py``); slow: building the group
takes minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("big_archive.py")
PEAK_MB = 300


@pytest.mark.slow
def test_a_five_year_archive_imports_within_bounded_memory():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "300", "200"],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in found, found
    print(f"300 × 200: {found['archive_bytes']} B gzipped, {found['seconds']:.0f} s, "
          f"{found['peak_mb']:.0f} MB")  # fmt: skip
    assert found["kept"]
    assert found["peak_mb"] < PEAK_MB
