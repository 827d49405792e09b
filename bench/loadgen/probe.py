"""The server's CPU time and memory, read from outside through /proc (Linux).

CPU time comes from the process's CPU-time clock (`clock_gettime` on the clock id Linux gives
every process: nanosecond resolution, all threads, exited ones included), so one script run's
cost can be read with a single learner; /proc/<pid>/stat would give 10 ms ticks. RSS is sampled
in a background thread so the peak between two reads is seen.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path


def cpu_clock_id(pid: int) -> int:
    """Linux's CPU-time clock of a whole process (MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED))."""
    return ((~pid) << 3) | 2


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) the process has used so far."""
    return time.clock_gettime(cpu_clock_id(pid))


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def children(pid: int) -> list[int]:
    """Direct and indirect child processes (the grader's worker, a compute pool...)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                kids = [int(x) for x in task.read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of the process's children still alive (the server's own is `cpu_seconds`)."""
    total = 0.0
    for child in children(pid):
        try:
            total += cpu_seconds(child)
        except OSError:
            pass
    return total


def tree_rss_bytes(pid: int) -> int:
    total = 0
    for child in children(pid):
        try:
            total += rss_bytes(child)
        except OSError:
            pass
    return total


class RssSampler:
    """Samples the RSS of some processes every `interval` seconds; keeps the peak of the sum."""

    def __init__(self, pids: list[int], interval: float = 0.25) -> None:
        self.pids = pids
        self.interval = interval
        self.peak = 0
        self.children_peak = 0
        self.samples: list[tuple[float, int]] = []  # (time, server RSS)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="rss-sampler", daemon=True)

    def now(self) -> int:
        return sum(rss_bytes(p) for p in self.pids)

    def children_now(self) -> int:
        return sum(tree_rss_bytes(p) for p in self.pids)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                value, kids = self.now(), self.children_now()
            except OSError:  # a process went away: the run reports it
                return
            self.samples.append((time.monotonic(), value))
            self.peak = max(self.peak, value)
            self.children_peak = max(self.children_peak, kids)
            self._stop.wait(self.interval)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join()
