"""CPU time of the processes a load run starts, and of the whole machine, read from /proc.

A load figure means little without what else the machine was doing: ``Clock`` samples, at the
start and the end of the measured window, the CPU time of each group of processes (an app
server, nginx and Redis each run in a session of their own; PostgreSQL's backends are told
apart by the database name in their title), this process's own, and the whole machine's busy
time, so a report can say how much of the machine the run had. Linux only; elsewhere every
figure is absent rather than wrong.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


def _ticks() -> int:
    try:
        return os.sysconf("SC_CLK_TCK")
    except (ValueError, OSError):
        return 100


@dataclass(frozen=True)
class Sample:
    groups: dict[str, float]
    own: float
    machine: float | None
    load: tuple[float, float, float]


def _process_seconds(stat: str, tick: int) -> tuple[int, float]:
    """(session id, CPU seconds of the process and of its children it has waited for)."""
    fields = stat[stat.rindex(")") + 2 :].split()
    # After the name: state, ppid, pgrp, session, …, utime (14th field of the line), stime,
    # cutime, cstime.
    session = int(fields[3])
    seconds = sum(int(f) for f in fields[11:15]) / tick
    return session, seconds


def _machine_busy(tick: int) -> float | None:
    try:
        first = (PROC / "stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    values = [int(v) for v in first[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle and iowait
    # guest time is already counted in user time.
    return (sum(values[:8]) - idle) / tick


def process_seconds() -> float:
    """CPU seconds this process has used so far (user and system): what an in-process
    benchmark compares on a machine shared with other work, where wall time is not its own."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


class Clock:
    """``sessions``: a group name for each session leader's pid; ``database``: the name of the
    run's PostgreSQL database, whose backends make the group "postgres"."""

    def __init__(self, sessions: Mapping[str, Sequence[int]], database: str | None = None) -> None:
        self.sessions = {pid: name for name, pids in sessions.items() for pid in pids}
        self.database = database
        self.tick = _ticks()

    def sample(self) -> Sample:
        groups = {name: 0.0 for name in self.sessions.values()}
        if self.database:
            groups["postgres"] = 0.0
        for entry in PROC.glob("[0-9]*"):
            try:
                session, seconds = _process_seconds((entry / "stat").read_text(), self.tick)
                name = self.sessions.get(session)
                if name is None and self.database:
                    title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    if title.startswith("postgres: ") and f" {self.database} " in title:
                        name = "postgres"
            except (OSError, ValueError, IndexError):
                continue  # gone meanwhile, or not ours to read
            if name is not None:
                groups[name] += seconds
        return Sample(groups, process_seconds(), _machine_busy(self.tick), os.getloadavg())


def report(before: Sample, after: Sample, seconds: float) -> str:
    """CPU seconds used between two samples, by group, by the load generator, and by
    everything else on the machine; with the load average at both ends."""
    used = {
        name: after.groups.get(name, 0.0) - before.groups.get(name, 0.0) for name in after.groups
    }
    own = after.own - before.own
    cores = os.cpu_count() or 1
    parts = [f"{name} {value:.1f} s" for name, value in used.items()]
    parts.append(f"load generator {own:.1f} s")
    line = f"CPU over {seconds:.0f} s on {cores} cores ({seconds * cores:.0f} core-seconds): "
    line += ", ".join(parts)
    if before.machine is not None and after.machine is not None:
        busy = after.machine - before.machine
        others = busy - own - sum(used.values())
        line += (
            f"; the machine was busy {busy:.1f} s ({100 * busy / (seconds * cores):.0f} %), "
            f"{max(0.0, others):.1f} s of it other processes"
        )
    loads = " / ".join(f"{v:.2f}" for v in before.load)
    loads_after = " / ".join(f"{v:.2f}" for v in after.load)
    return line + f"\nload average (1/5/15 min): {loads} at the start, {loads_after} at the end"
