"""The load script's core for a few seconds: phones polling the live link while scorekeepers
record, against real gunicorn on the test database. No latency is asserted (CI machines
vary); every request must succeed and the ledger must audit clean. ``make load`` is the
full run (bench/load.py)."""

import os

import pytest

from bench.load import run_load, seed
from tests.reliability.realserver import Server

pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("LOAD_TEST_SECONDS", "5"))


def test_phones_polling_while_scorekeepers_record_see_no_error(ledger_url, tmp_path):
    seeded = seed(ledger_url)
    with Server(ledger_url, workers=2, threads=2, log_dir=tmp_path) as server:
        result = run_load(
            server,
            seeded,
            seconds=SECONDS,
            phones=30,
            keepers=4,
            think=0.3,
            taps=2,
            save_every=(1, 2),
        )
    print("\n" + result.table())
    assert not any(result.errors.values()), result.errors
    assert result.audit["problems"] == []
    assert result.saves > 0, "the scorekeepers recorded games while the phones polled"
    polls = next(row for row in result.rows if row["kind"] == "poll")
    assert set(polls["statuses"]) <= {200, 304}
