"""A process's own peak resident memory, for the benchmarks and the tests that measure one.

``VmHWM`` (``/proc/self/status``) is the high-water mark of this process's own address space
since it started. ``getrusage``'s ``ru_maxrss`` is not: on Linux a process started from
another (``subprocess``, through fork or vfork and exec) keeps the high-water mark of the
process it was started from, so a small import started by a big test runner or a bench that
has just built a five-year group would report the parent's peak. ``ru_maxrss`` stays the
answer where ``/proc`` is not there.
"""

from __future__ import annotations

import resource


def peak_mb() -> float:
    """This process's peak resident memory in MB (MiB), Django and everything included."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
