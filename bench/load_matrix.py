"""`make load`: the standard load matrix, each cell on a fresh `make run` server.

Learners 1, 10, 25, 50, 100, 200, each with think 0.5 s (a class hammering the server) and 10 s
(a class in a lecture); arrivals over 20 s, 5 answers each. Prints one table (see bench/load.py
for the columns) and the goals of issue 14 against the matching cells, and appends every report
to artifacts/load.jsonl.

    .venv/bin/python bench/load_matrix.py [--learners 1 10 25] [--think 0.5]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import run_on_own_server  # noqa: E402
from bench.loadgen.run import LoadReport, LoadSpec  # noqa: E402
from bench.loadgen.table import HEADER, UNITS, details, row  # noqa: E402

LEARNERS = (1, 10, 25, 50, 100, 200)
THINKS = (0.5, 10.0)


def goals(reports: list[LoadReport]) -> list[str]:
    """Issue 14's done-when lines for the cells that have them."""
    lines = []
    for r in reports:
        s = r.spec
        if (s.learners, s.think) == (100, 10.0):
            ok = r.verdict_p95 <= 0.3 and r.ok
            lines.append(f"100 learners, think 10 s: p95 {r.verdict_p95 * 1000:.0f} ms <= 300, "
                         f"{r.errors} errors, {r.lost} lost: {'met' if ok else 'NOT met'}")
        if (s.learners, s.think) == (200, 0.5):
            ok = r.verdict_p95 <= 1.0 and r.ok
            lines.append(f"200 learners, think 0.5 s: p95 {r.verdict_p95 * 1000:.0f} ms <= 1000, "
                         f"{r.errors} errors, {r.lost} lost: {'met' if ok else 'NOT met'}")
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
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)

    reports = []
    print(HEADER, flush=True)
    for think in args.think:
        for learners in args.learners:
            # One learner answers more, so the per-run CPU median has enough runs behind it.
            spec = LoadSpec(learners=learners, think=think, ramp=20.0,
                            answers=20 if learners == 1 else 5, settle=45.0)
            report = run_on_own_server(spec)
            reports.append(report)
            print(row(report), flush=True)
            if report.error_samples or report.unfinished:
                print(details(report), flush=True)
            with args.out.open("a") as out:
                out.write(json.dumps(report.as_dict()) + "\n")
    print(UNITS)
    for line in goals(reports):
        print(line)
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
