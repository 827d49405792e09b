"""The time bounds that used to be asserted inside unit tests (issue 27, item 4): a wall-clock
assert on a shared machine fails with the load, not with the code, so the tests keep the
functional assertion and the bound is measured here, each against a baseline in the same run:

- hostile answers (the corpus of tests/grader/test_hostile.py, both kinds) through the contained
  worker and through `grader.check`: every one back within 2 s (baseline: `x*x` against `x^2`);
  a worker that hangs is killed and answered for within 2 s;
- `(x + 1)^10000` against `(1 + x)^10000` (tests/grader/test_exact_arithmetic.py): within 1 s
  (baseline: `x + 1` against `1 + x`);
- switching a fresh SQLite file to WAL while another connection holds a lock for 0.3 s
  (tests/tutor/test_store_errors.py): the switch waits the lock out, and lands soon after the
  release (baseline: the same switch on an unlocked file).

Run: .venv/bin/python bench/bench_time_bounds.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.engine import make_url  # noqa: E402 - needs the path above

import grader  # noqa: E402
from grader import api  # noqa: E402
from grader.worker import Worker  # noqa: E402
from tests.grader.test_hostile import hostile_answers  # noqa: E402 - the corpus the test grades
from tutor.store.engine import build_engine, enable_wal  # noqa: E402

HOLD_S = 0.3


def timed(action: Callable[..., object], *arguments: object) -> float:
    began = time.perf_counter()
    action(*arguments)
    return time.perf_counter() - began


def row(name: str, times: list[float], baseline: list[float], bound: str, met: bool) -> None:
    print(f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
          f"{max(times) * 1000:.1f} | {statistics.median(baseline) * 1000:.1f} | {bound} | "
          f"{'met' if met else '**not met**'} |")


def hostile_rows(repeats: int) -> None:
    requests = [{"kind": kind, "expected": expected, "answer": answer, "functions": ["F"]}
                for answer in hostile_answers(Path(tempfile.gettempdir()) / "never-written")
                for kind, expected in (("expression", "x + F(x)"), ("numeric", 1.0))]
    plain = {"kind": "expression", "expected": "x^2", "answer": "x*x"}
    worker = Worker(test_hooks=True)
    worker.start()
    try:
        api.shared_worker = lambda: worker  # grader.check's contained fallback: this worker
        for name, grade in (("hostile answers, contained worker", worker.grade),
                            ("hostile answers, grader.check", grader.check)):
            times = [timed(grade, r) for _ in range(repeats) for r in requests]
            baseline = [timed(grade, plain) for _ in range(20)]
            row(name, times, baseline, "each <= 2 s", max(times) <= 2.0)
        hangs = [timed(worker.call, "sleep", 30) for _ in range(repeats)]
        baseline = [timed(worker.grade, plain) for _ in range(20)]
        row("a hung worker killed and answered for", hangs, baseline, "<= 2 s", max(hangs) <= 2)
    finally:
        worker.close()


def exponent_row(repeats: int) -> None:
    def check(expected: str, answer: str) -> grader.Result:
        return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                             "symbols": ["x"]})

    times = [timed(lambda: check("(x + 1)^10000", "(1 + x)^10000")) for _ in range(repeats * 5)]
    baseline = [timed(lambda: check("x + 1", "1 + x")) for _ in range(repeats * 5)]
    row("(x + 1)^10000 against (1 + x)^10000", times, baseline, "<= 1 s", max(times) <= 1.0)


def wal_switch(folder: Path, name: str, hold: float | None) -> float:
    """Seconds from the lock's release (or the start, with no lock) to the file being in WAL."""
    path = folder / name
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    engine = build_engine(make_url(f"sqlite:///{path}"), busy_timeout_ms=0)
    released = time.perf_counter()
    if hold is not None:
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN")
        holder.execute("SELECT * FROM t").fetchall()
        moments: list[float] = []

        def release() -> None:
            holder.execute("COMMIT")
            moments.append(time.perf_counter())

        timer = threading.Timer(hold, release)
        timer.start()
    try:
        enable_wal(engine)
        done = time.perf_counter()
    finally:
        if hold is not None:
            timer.join()
            holder.close()
            released = moments[0]
        engine.dispose()
    return done - released


def wal_row(repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        waits = [wal_switch(Path(folder), f"locked{i}.db", HOLD_S) for i in range(repeats * 3)]
        baseline = [wal_switch(Path(folder), f"free{i}.db", None) for i in range(repeats * 3)]
    # The switch must come after the release (waits >= 0) and not long after it.
    row(f"WAL switch after a {HOLD_S} s lock, from its release", waits, baseline,
        "after the release, <= 0.5 s", min(waits) >= 0 and max(waits) <= 0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load_before = os.getloadavg()
    print("| case | n | median ms | worst ms | baseline median ms | bound | |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    hostile_rows(args.repeats)
    exponent_row(args.repeats)
    wal_row(args.repeats)
    load_after = os.getloadavg()
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
