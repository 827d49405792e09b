"""Per-line cost of issue 24's Leibniz lines and pasted blocks, beside today's scalar lines.

Each derivation below is graded in-process with `grader.check` (the app's path; sympy only when
sampling cannot decide, which none of these needs), PASSES times in turn, after one warm-up
pass; a line's cost is the request's time divided by its number of lines. Three groups in the
same run: scalar lines written as before issue 24 (diff(), F'(x): the baseline), Leibniz lines
with arguments (\\frac{\\partial F(x, W)}{\\partial x}, \\partial_x, mixed partials, the chain
rule through F(g(x))), and pasted blocks (aligned, $$a = b = c$$, remarks). The issue's goal:
p50 <= 5 ms and p99 <= 100 ms per line.

Run: .venv/bin/python bench/bench_leibniz_lines.py   (prints a table; report it with
`cat /proc/loadavg`)
"""

from __future__ import annotations

import statistics
import time

import grader

PASSES = 30
F = {"symbols": ["x", "W", "alpha"], "functions": ["F", "g"]}

SCALAR = [
    ["diff(x + F(x), x)", "diff(x, x) + diff(F(x), x)", "1 + F'(x)"],
    ["d/dx F(g(x))", "F'(g(x)) g'(x)", "g'(x) F'(g(x))"],
    ["diff(x + alpha F(x), x)", "1 + alpha F'(x)", "1 + alpha F(x)"],
]
LEIBNIZ = [
    [r"\frac{\partial}{\partial x}(x + F(x))",
     r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}", "1+F'(x)"],
    [r"\frac{\partial}{\partial x}(x + F(x, W))", r"1 + \frac{\partial F(x, W)}{\partial x}",
     r"1 + \partial_x F(x, W)"],
    [r"\frac{\partial^2 F(x, W)}{\partial x \partial W}", r"\partial_W \partial_x F(x, W)",
     r"\frac{\partial^2 F(x, W)}{\partial x^2}"],
    [r"\frac{d}{dx}F(g(x), x W)", r"\partial_x F(g(x), x W)",
     r"\frac{\partial F(g(x), x W)}{\partial x}"],
]
BLOCKS = [
    "\\begin{aligned} \\frac{\\partial y}{\\partial x} &= \\frac{\\partial x}{\\partial x}"
    "+\\frac{\\partial F(x)}{\\partial x} && \\text{linearity} \\\\ &= 1 + F'(x) \\end{aligned}",
    "因为 y = x + \\alpha F(x)\n$$\\frac{\\partial y}{\\partial x}=\\frac{\\partial x}{\\partial x}"
    "+\\alpha\\frac{\\partial F(x)}{\\partial x}=1+\\alpha F'(x)$$",
]


def per_line_ms(answer) -> float:
    lines = len(answer) if isinstance(answer, list) else len(
        [p for p in grader.split_derivation(answer, **F) if not p.remark])
    start = time.perf_counter()
    grader.check({"kind": "derivation", "answer": answer, **F})
    return (time.perf_counter() - start) * 1000 / lines


def main() -> None:
    groups = {"scalar lines (baseline)": SCALAR, "Leibniz with arguments": LEIBNIZ,
              "pasted blocks": BLOCKS}
    for answers in groups.values():  # warm-up: imports, caches, the first sampling
        for answer in answers:
            per_line_ms(answer)
    times: dict[str, list[float]] = {name: [] for name in groups}
    for _ in range(PASSES):  # the groups take turns, so load changes hit all of them alike
        for name, answers in groups.items():
            times[name] += [per_line_ms(a) for a in answers]
    print(f"{'group':28s} {'n':>5s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s}")
    for name, values in times.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        print(f"{name:28s} {len(values):5d} {statistics.median(values):8.2f} {p99:8.2f} "
              f"{values[-1]:8.2f}")


if __name__ == "__main__":
    main()
