"""Per-line timings of the Derivation checker: lines with sums, products and family members in
the same run as today's scalar lines (issue 24's goal: p50 <= 5 ms, p99 <= 100 ms per line).

Each case is one derivation request with a start and one line (so one line's check), graded
in-process by `grader.check` as the app does; the classes take turns, PASSES times, and the
per-line times of every pass are pooled. Prints p50/p99/max per class and the load average
(the machine is shared: figures are only comparable within one run).

Run: .venv/bin/python bench/bench_derivation_lines.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grader  # noqa: E402 - needs the path above

PASSES = 15
RESIDUAL = {"functions": ["F"], "families": ["x", "F"], "integers": ["L", "l"],
            "relations": ["x_{l+1} = x_l + F_l(x_l)"]}
MATRICES = {"matrices": ["W"], "families": ["W"], "integers": ["L"]}

# (class, start, line, declarations): each right and wrong, as students write them.
CASES = [
    ("scalar", "d/dx (x + F(x))", "1 + F'(x)", {"functions": ["F"]}),
    ("scalar", "d/dx (x + F(x))", "F'(x)", {"functions": ["F"]}),
    ("scalar", "(1 + a)^2", "1 + 2a + a^2", {"symbols": ["a"]}),
    ("scalar", "(1 + a)^2", "1 + a^2", {"symbols": ["a"]}),
    ("scalar", "sigmoid(z) (1 - sigmoid(z))", "sigmoid(z) - sigmoid(z)^2", {}),
    ("scalar", "(I + W)^T g", "g + W^T g", {"matrices": ["W", "g"]}),
    ("sums", r"\sum_{i=1}^{n} i", r"\frac{n(n+1)}{2}", {}),
    ("sums", r"\sum_{i=1}^{n} i", r"\frac{n(n-1)}{2}", {}),
    ("sums", r"\sum_{k=0}^{L}\binom{L}{k}", "2^L", {}),
    ("sums", r"\sum_{k=0}^{L} k\binom{L}{k}", "L 2^{L-1}", {}),
    ("sums", r"\sum_{k=0}^{n}\binom{n}{k} a^k", "(1+a)^n", {"symbols": ["a"]}),
    ("sums", r"\sum_{i=1}^{n}\sum_{j=1}^{i} j", r"\sum_{i=1}^{n} \frac{i(i+1)}{2}", {}),
    ("products", r"\prod_{l=1}^{20} 0.5", "0.5^{20}", {}),
    ("products", r"\prod_{l=1}^{L} (1 + a)", "(1+a)^L", {"symbols": ["a"]}),
    ("products", r"\prod_{l=L}^{1} W_l", r"W_L \prod_{l=L-1}^{1} W_l", MATRICES),
    ("products", r"\prod_{l=L}^{1} W_l", r"\prod_{l=1}^{L} W_l", MATRICES),
    ("families", "x_L", r"x_l + \sum_{i=l}^{L-1} F_i(x_i)", RESIDUAL),
    ("families", "x_L", r"x_l + \sum_{i=l}^{L} F_i(x_i)", RESIDUAL),
    ("families", "x_L", r"x_0 + \sum_{i=0}^{L-1} F_i(x_i)", RESIDUAL),
    ("families", "F_l(x_l)", "x_{l+1} - x_l", RESIDUAL),
]


def time_case(start: str, line: str, declared: dict) -> float:
    request = {"kind": "derivation", "start": start, "answer": [line], **declared}
    began = time.perf_counter()
    grader.check(request)
    return (time.perf_counter() - began) * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    load_before = os.getloadavg()
    for _, start, line, declared in CASES:  # warm: imports and per-question caches
        time_case(start, line, declared)
    times: dict[str, list[float]] = {}
    for _ in range(PASSES):
        for kind, start, line, declared in CASES:
            times.setdefault(kind, []).append(time_case(start, line, declared))
    load_after = os.getloadavg()
    print("| class | lines timed | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, values in times.items():
        print(f"| {kind} | {len(values)} | {statistics.median(values):.2f} | "
              f"{percentile(values, 0.99):.2f} | {max(values):.2f} |")
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs); goal per line: p50 <= 5 ms, p99 <= 100 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
