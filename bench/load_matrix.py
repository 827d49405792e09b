"""`make load`: the standard load matrix, each cell on a fresh `make run` server.

Learners 1, 10, 25, 50, 100, 200, each with think 0.5 s (a class hammering the server) and 10 s
(a class in a lecture); arrivals over 20 s, 5 answers each; learners answer wrong, try again and
ask for the solution as bench/load.py's default habits say. Then the heaviest cells again on the
deployment docs/server.md recommends for two cores, `make serve N=2` (two app processes behind
HAProxy: one Python process uses one core). Prints one table per deployment (see bench/load.py
for the columns) and the goals of issues 14 and 27 against the matching cells, and appends every
report to artifacts/load.jsonl.

    .venv/bin/python bench/load_matrix.py [--learners 1 10 25] [--think 0.5] [--served 200]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import run_on_own_server, run_on_served  # noqa: E402
from bench.loadgen.run import LoadReport, LoadSpec  # noqa: E402
from bench.loadgen.table import HEADER, UNITS, details, row  # noqa: E402

LEARNERS = (1, 10, 25, 50, 100, 200)
THINKS = (0.5, 10.0)
SERVED = (100, 200)  # learners at think 0.5 s on `make serve N=2`
SERVED_PROCESSES = 2


def goals(reports: list[LoadReport], where: str) -> list[str]:
    """Issue 14's and 27's done-when lines for the cells that have them (`where`: the
    deployment)."""
    lines = []
    for r in reports:
        s = r.spec
        if (s.learners, s.think) == (100, 10.0):
            ok = r.verdict_p95 <= 0.3 and r.ok
            lines.append(f"100 learners, think 10 s: p95 {r.verdict_p95 * 1000:.0f} ms <= 300, "
                         f"{r.errors} errors, {r.lost} lost: {'met' if ok else 'NOT met'}")
        if (s.learners, s.think) == (200, 0.5):
            ok = r.verdict_p95 <= 1.0 and r.ok
            lines.append(f"{where}: 200 learners, think 0.5 s: "
                         f"p95 {r.verdict_p95 * 1000:.0f} ms <= 1000, {r.errors} errors, "
                         f"{r.lost} lost: {'met' if ok else 'NOT met'}")
        if s.learners == 1 and r.cpu_per_run_median == r.cpu_per_run_median:
            ok = r.cpu_per_run_median <= 0.010
            lines.append(f"1 learner, think {s.think:g} s: server CPU per run median "
                         f"{r.cpu_per_run_median * 1000:.1f} ms <= 10: "
                         f"{'met' if ok else 'NOT met'}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="+", default=list(LEARNERS))
    parser.add_argument("--think", type=float, nargs="+", default=list(THINKS))
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "load.jsonl")
    parser.add_argument("--served", type=int, nargs="*", default=list(SERVED),
                        help=f"learners at think 0.5 s on make serve N={SERVED_PROCESSES}")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def cell(run, spec: LoadSpec) -> LoadReport:
        report = run(spec)
        print(row(report), flush=True)
        if report.error_samples or report.unfinished:
            print(details(report), flush=True)
        with args.out.open("a") as out:
            out.write(json.dumps({**report.as_dict(), "processes": processes}) + "\n")
        return report

    processes = 1
    print("one process (make run)\n" + HEADER, flush=True)
    single = [cell(run_on_own_server, LoadSpec(
        learners=learners, think=think, ramp=20.0, settle=45.0,
        # One learner answers more, so the per-run CPU median has enough runs behind it.
        answers=20 if learners == 1 else 5)) for think in args.think for learners in args.learners]
    processes = SERVED_PROCESSES
    served = []
    if args.served:
        print(f"\n{processes} processes behind HAProxy (make serve N={processes})\n" + HEADER,
              flush=True)
        served = [cell(lambda spec: run_on_served(spec, processes), LoadSpec(
            learners=learners, think=0.5, ramp=20.0, settle=45.0, answers=5))
            for learners in args.served]
    print(UNITS)
    for line in goals(single, "make run") + goals(served, f"make serve N={processes}"):
        print(line)
    return 0 if all(r.ok for r in single + served) else 1


if __name__ == "__main__":
    sys.exit(main())
