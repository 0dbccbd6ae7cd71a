"""The ``score`` command end to end against a naive reference scorer, on the same games.

For each preset it draws the same seeded records (6 000 by default), writes them to one JSON
array, and runs, each as its own process: ``tienlen-score`` (the console script, Django-free;
run here as ``python -m scoring.engine.cli``, what the script calls) with compact output, the
default for an array, and with ``--indent 2`` (indented output, for people);
``manage.py score`` (the same command inside Django, which sets the site up first); and
``bench/reference_score.py`` (plain ``Fraction`` arithmetic, no validation). It checks that
the command and the reference agree on every player's net in every game, then prints each
one's CPU time (the best of a few runs, the programs taking turns; CPU time, so other work on
the machine counts less) and how many times faster than the reference ``tienlen-score`` is. It
fails (exit code 1) when ``tienlen-score`` is slower than the reference (``--min-speed-up``,
1) on any preset: the engine validates every record and must still be at least as fast as a
scorer that validates nothing.

Each program runs once before it is timed, with Python allowed to keep the compiled modules
(``PYTHONDONTWRITEBYTECODE`` is dropped for the children): a package installed by pip is used
compiled, and compiling the engine's source on every run would be measured otherwise.

    .venv/bin/python bench/bench_score.py [--games N] [--runs R] [--preset ID ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import PRESETS, ruleset_to_dict
from scoring.engine.samples import random_record

ROOT = Path(__file__).resolve().parent.parent

STAKE = "1000"  # even, so the ½ values of "cuoc" are whole đồng


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_run(args: list[str]) -> tuple[float, bytes]:
    """(CPU seconds of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, capture_output=True, check=True, cwd=ROOT, env=CHILD_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def best(programs: list[list[str]], runs: int) -> list[tuple[float, bytes]]:
    """(best CPU seconds, stdout) of each program. The programs take turns, run after run, so
    that a machine slower for a while (shared by other work) slows each of them alike."""
    for args in programs:
        cpu_run(args)  # warm up: files in the page cache, modules compiled
    times: list[list[float]] = [[] for _ in programs]
    outputs: list[bytes] = [b""] * len(programs)
    for _ in range(runs):
        for i, args in enumerate(programs):
            cpu, outputs[i] = cpu_run(args)
            times[i].append(cpu)
    return [(min(t), out) for t, out in zip(times, outputs, strict=True)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="records per preset")
    parser.add_argument("--runs", type=int, default=5, help="runs of each program (best kept)")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS), help="only these")
    parser.add_argument(
        "--min-speed-up",
        type=float,
        default=1.0,
        help="fail when the command is less than this many times as fast as the reference",
    )
    args = parser.parse_args()
    python = sys.executable
    print(f"{args.games} games per preset, CPU seconds (best of {args.runs} after a warm-up run)")
    print(f"{'preset':<16} {'reference':>9} {'score':>7} {'--indent 2':>10} {'manage.py':>9} "
          f"{'speed-up':>9}")  # fmt: skip
    worst = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for preset in args.preset or list(PRESETS):
            rules = PRESETS[preset]
            rng = random.Random(f"bench-score-{preset}")
            records = [random_record(rules, rng) for _ in range(args.games)]
            games = Path(tmp, f"{preset}.json")
            games.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
            rules_file = Path(tmp, f"{preset}.rules.json")
            rules_file.write_text(json.dumps(ruleset_to_dict(rules), ensure_ascii=False))
            options = ["--rules", preset, "--stake", STAKE, str(games)]
            score = [python, "-m", "scoring.engine.cli", *options]
            manage = [python, "manage.py", "score", *options]
            reference = [python, "bench/reference_score.py", str(rules_file), STAKE, str(games)]
            (ref_time, ref_out), (cmd_time, cmd_out), (indent_time, _), (django_time, dj_out) = (
                best([reference, score, [*score, "--indent", "2"], manage], args.runs)
            )
            if dj_out != cmd_out:
                print(f"{preset}: manage.py score and tienlen-score print different results")
                return 1
            ref_nets = [r["net"] for r in json.loads(ref_out)]
            cmd_nets = [r["net"] for r in json.loads(cmd_out)]
            if ref_nets != cmd_nets:
                bad = next(
                    i for i, (a, b) in enumerate(zip(ref_nets, cmd_nets, strict=True)) if a != b
                )
                print(f"{preset}: the reference and the command disagree on game {bad}: "
                      f"{ref_nets[bad]} != {cmd_nets[bad]}")  # fmt: skip
                return 1
            speed = ref_time / cmd_time
            worst = min(worst, speed)
            print(f"{preset:<16} {ref_time:>8.2f}s {cmd_time:>6.2f}s {indent_time:>9.2f}s "
                  f"{django_time:>8.2f}s {speed:>8.2f}×")  # fmt: skip
    print(f"slowest speed-up over the reference: {worst:.2f}× (wanted: at least "
          f"{args.min_speed_up:.2f}×)")  # fmt: skip
    if worst < args.min_speed_up:
        print(f"FAIL: tienlen-score is only {worst:.2f}× as fast as the reference scorer")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
