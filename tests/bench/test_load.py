"""``bench/load.py``'s pace and verdict: a real table's saves, a save inside the burst, and a
missed target that fails the run unless asked not to."""

import itertools
import random

import pytest

from bench.load import PLANNED_CLEARANCE, SAVE_EVERY, Result, exit_status, save_times, targets


def _row(kind: str, p99_ms: float) -> dict:
    return {"kind": kind, "requests": 10, "p99_ms": p99_ms}


def _result(*rows: dict, errors: dict | None = None) -> Result:
    return Result(
        seconds=150,
        rows=list(rows),
        errors=errors or {},
        saves=1,
        audit={"problems": [], "games": [1]},
    )


def test_it_fails_a_run_that_missed_a_target():
    result = _result(_row("poll", 150.0))
    met = targets(result)
    assert met == [("poll p99 < 100 ms", False)]
    assert exit_status(result, met, allow_missed=False, slow_polls=False) == 1


def test_it_reports_a_missed_target_without_failing_when_asked():
    result = _result(_row("poll", 150.0))
    assert exit_status(result, targets(result), allow_missed=True, slow_polls=False) == 0


def test_an_error_fails_the_run_even_when_misses_are_allowed():
    result = _result(_row("poll", 20.0), errors={"poll": ["status 500"]})
    assert exit_status(result, targets(result), allow_missed=True, slow_polls=False) == 1


def test_a_run_meeting_every_target_passes():
    result = _result(_row("poll", 40.0), _row("burst page", 90.0), _row("record during burst", 80))
    assert all(ok for _name, ok in targets(result))
    assert exit_status(result, targets(result), allow_missed=False, slow_polls=False) == 0


def test_a_burst_without_a_save_in_it_is_a_missed_target():
    result = _result(_row("poll", 40.0), _row("burst page", 90.0))
    assert ("a save answered during the burst", False) in targets(result)
    assert exit_status(result, targets(result), allow_missed=False, slow_polls=False) == 1


@pytest.mark.parametrize("seed", range(50))
def test_a_scorekeeper_saves_at_a_tables_pace(seed):
    times = save_times(random.Random(seed), 0.0, 600.0, SAVE_EVERY, [])
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(60 <= gap <= 180 for gap in gaps)
    assert times and 0 <= times[0] <= 180


def test_a_short_run_still_has_several_saves():
    # Four scorekeepers over 150 s: the first save of each falls anywhere in its first gap.
    counts = [
        sum(
            len(save_times(random.Random(f"{run}-{k}"), 0.0, 150.0, SAVE_EVERY, []))
            for k in range(4)
        )
        for run in range(200)
    ]
    assert 3 <= sum(counts) / len(counts) <= 8


def test_the_planned_save_is_kept_inside_the_burst():
    burst = 60.0
    times = save_times(random.Random(1), 0.0, 150.0, SAVE_EVERY, [burst + 0.3])
    assert burst + 0.3 in times
    assert times == sorted(times)


@pytest.mark.parametrize("seed", range(50))
def test_no_other_save_of_that_scorekeeper_comes_near_the_planned_one(seed):
    planned = 60.0
    times = save_times(random.Random(seed), 0.0, 150.0, SAVE_EVERY, [planned])
    others = [t for t in times if t != planned]
    assert all(abs(t - planned) > PLANNED_CLEARANCE for t in others)
