"""``make bench`` runs every benchmark, and says so loudly when one is missing."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def run():
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_lists_every_benchmark_of_the_folder(run):
    assert sorted(run.BENCHES) == sorted(p.name for p in BENCH.glob("bench_*.py"))
    assert run.missing() == []


def test_a_missing_benchmark_stops_it_before_anything_runs(run, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(run.subprocess, "call", lambda args: ran.append(args) or 0)
    monkeypatch.setattr(run, "BENCHES", [*run.BENCHES, "bench_gone.py"])
    assert run.main() != 0
    assert "bench_gone.py" in capsys.readouterr().err
    assert ran == []


def test_a_failing_benchmark_fails_the_run_and_is_named(run, monkeypatch, capsys):
    monkeypatch.setattr(run.subprocess, "call", lambda args: int("bench_web" in args[-1]))
    assert run.main() == 1
    assert "failed: bench_web.py" in capsys.readouterr().err


def test_the_script_exits_non_zero_naming_the_missing_one(tmp_path):
    (tmp_path / "run.py").write_text((BENCH / "run.py").read_text())
    done = subprocess.run(
        [sys.executable, str(tmp_path / "run.py")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "bench_engine.py" in done.stderr and "== " not in done.stdout
