"""Per-line cost of the Derivation checker: issue 24's and issue 25's lines beside today's scalar
lines, in one run (the goals: p50 <= 5 ms and p99 <= 100 ms per line for issue 24's classes;
p50 <= 10 ms and p99 <= 200 ms for issue 25's moments).

Classes: scalar lines written as before issue 24 (diff(), F'(x), matrices: the baseline), sums
and products (closed forms, binomial sums, ordered matrix products), families (members and
relations), Leibniz with arguments (\\frac{\\partial F(x, W)}{\\partial x}, \\partial_x, mixed
partials, the chain rule through F(g(x)), members through a relation) and pasted blocks (aligned,
$$a = b = c$$, remarks, and the texts' derivations of quizbank/text_derivations.yaml as a learner
pastes them), and moments (E, Var, Cov, D over declared random variables, with and without
independence and zero means, He et al.'s variance argument at concrete n; a broken step also
pays for its counterexample and for the search of the assumptions that would make it hold).
Each case is one derivation request graded in-process by `grader.check` (the app's
path); a line's cost is the request's time divided by the lines it checks. After one warm-up pass
(imports, per-question caches) the cases take turns PASSES times, so load changes hit every class
alike; the times of every pass are pooled. Each case has a right and a wrong line.

Issue 25 adds the class "vectors" (Jacobians, gradients with transposes, norms, shape mistakes,
and the texts' vector derivations), whose goal is p50 <= 10 ms and p99 <= 200 ms per line.

Run: .venv/bin/python bench/bench_derivation_lines.py   (prints a table and the load average;
figures are only comparable within one run on a shared machine)
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
from quizbank.text_derivations import text_derivations  # noqa: E402

PASSES = 15
GOAL_P50_MS, GOAL_P99_MS = 5.0, 100.0
PART2_GOAL_P50_MS, PART2_GOAL_P99_MS = 10.0, 200.0  # issue 25: moments and vectors
RESIDUAL = {"functions": ["F"], "families": ["x", "F"], "integers": ["L", "l"],
            "relations": ["x_{l+1} = x_l + F_l(x_l)"]}
HE = {"functions": ["F"], "families": ["x", "W"], "integers": ["L", "l"],
      "relations": ["x_{l+1} = x_l + F(x_l, W_l)"]}
MATRICES = {"matrices": ["W"], "families": ["W"], "integers": ["L"]}
F = {"symbols": ["x", "W", "alpha"], "functions": ["F", "g"]}
XF = {"random": ["x", "f"]}
XF_INDEPENDENT = {"random": ["x", "f"], "independent": [["x", "f"]]}
WX = {"random": ["w", "x"], "independent": [["w", "x"]], "zero_mean": ["w", "x"]}
HE_INIT = {"random": ["w", "x"], "families": ["w", "x"], "integers": ["n"],
           "independent": [["w", "x"]], "zero_mean": ["w"]}
VAR = r"\operatorname{Var}"

# (class, start or None, the answer: a list of lines or one pasted text, declarations)
CASES = [
    ("scalar", "d/dx (x + F(x))", ["1 + F'(x)"], {"functions": ["F"]}),
    ("scalar", "d/dx (x + F(x))", ["F'(x)"], {"functions": ["F"]}),
    ("scalar", "(1 + a)^2", ["1 + 2a + a^2"], {"symbols": ["a"]}),
    ("scalar", "(1 + a)^2", ["1 + a^2"], {"symbols": ["a"]}),
    ("scalar", "sigmoid(z) (1 - sigmoid(z))", ["sigmoid(z) - sigmoid(z)^2"], {}),
    ("scalar", "(I + W)^T g", ["g + W^T g"], {"matrices": ["W", "g"]}),
    ("scalar", None, ["diff(x + alpha F(x), x)", "1 + alpha F'(x)", "1 + alpha F(x)"], F),
    ("scalar", None, ["d/dx F(g(x))", "F'(g(x)) g'(x)", "g'(x) F'(g(x))"], F),
    ("sums", r"\sum_{i=1}^{n} i", [r"\frac{n(n+1)}{2}"], {}),
    ("sums", r"\sum_{i=1}^{n} i", [r"\frac{n(n-1)}{2}"], {}),
    ("sums", r"\sum_{k=0}^{L}\binom{L}{k}", ["2^L"], {}),
    ("sums", r"\sum_{k=0}^{L} k\binom{L}{k}", ["L 2^{L-1}"], {}),
    ("sums", r"\sum_{k=0}^{n}\binom{n}{k} a^k", ["(1+a)^n"], {"symbols": ["a"]}),
    ("sums", r"\sum_{i=1}^{n}\sum_{j=1}^{i} j", [r"\sum_{i=1}^{n} \frac{i(i+1)}{2}"], {}),
    ("products", r"\prod_{l=1}^{20} 0.5", ["0.5^{20}"], {}),
    ("products", r"\prod_{l=1}^{L} (1 + a)", ["(1+a)^L"], {"symbols": ["a"]}),
    ("products", r"\prod_{l=L}^{1} W_l", [r"W_L \prod_{l=L-1}^{1} W_l"], MATRICES),
    ("products", r"\prod_{l=L}^{1} W_l", [r"\prod_{l=1}^{L} W_l"], MATRICES),
    ("families", "x_L", [r"x_l + \sum_{i=l}^{L-1} F_i(x_i)"], RESIDUAL),
    ("families", "x_L", [r"x_l + \sum_{i=l}^{L} F_i(x_i)"], RESIDUAL),
    ("families", "x_L", [r"x_0 + \sum_{i=0}^{L-1} F_i(x_i)"], RESIDUAL),
    ("families", "F_l(x_l)", ["x_{l+1} - x_l"], RESIDUAL),
    ("leibniz", None, [r"\frac{\partial}{\partial x}(x + F(x))",
                       r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}",
                       "1+F'(x)"], F),
    ("leibniz", None, [r"\frac{\partial}{\partial x}(x + F(x, W))",
                       r"1 + \frac{\partial F(x, W)}{\partial x}", r"1 + \partial_x F(x, W)"], F),
    ("leibniz", None, [r"\frac{\partial^2 F(x, W)}{\partial x \partial W}",
                       r"\partial_W \partial_x F(x, W)",
                       r"\frac{\partial^2 F(x, W)}{\partial x^2}"], F),
    ("leibniz", None, [r"\frac{d}{dx}F(g(x), x W)", r"\partial_x F(g(x), x W)",
                       r"\frac{\partial F(g(x), x W)}{\partial x}"], F),
    ("leibniz", r"\frac{\partial x_L}{\partial x_l}",
     [r"\prod_{i=l}^{L-1} (1 + F_i'(x_i))"], RESIDUAL),
    ("leibniz", r"\frac{\partial x_L}{\partial x_l}", [r"1 + \sum_{i=l}^{L-1} F_i'(x_i)"],
     RESIDUAL),
    ("pasted_block", None,
     "\\begin{aligned} \\frac{\\partial y}{\\partial x} &= \\frac{\\partial x}{\\partial x}"
     "+\\frac{\\partial F(x)}{\\partial x} && \\text{linearity} \\\\ &= 1 + F'(x) \\end{aligned}",
     F),
    ("pasted_block", None,
     "因为 y = x + \\alpha F(x)\n$$\\frac{\\partial y}{\\partial x}=\\frac{\\partial x}"
     "{\\partial x}+\\alpha\\frac{\\partial F(x)}{\\partial x}=1+\\alpha F'(x)$$", F),
    ("pasted_block", None,
     "\\begin{aligned} x_L &= x_{L-1} + F(x_{L-1}, W_{L-1}) \\\\ \\text{where} \\\\ "
     "&= x_l + \\sum_{i=l}^{L} F(x_i, W_i) \\end{aligned}", HE),
]
# issue 25: moments (right and broken lines)
CASES += [
    ("moments", f"{VAR}(x+f)", [f"{VAR}(x)+{VAR}(f)+2\\operatorname{{Cov}}(x,f)"], XF),
    ("moments", f"{VAR}(x+f)", [f"{VAR}(x)+{VAR}(f)"], XF),
    ("moments", f"{VAR}(x+f)", [f"{VAR}(x)+{VAR}(f)"], XF_INDEPENDENT),
    ("moments", None, ["E[(x+f)^2]-E[x+f]^2", "E[x^2]-E[x]^2+E[f^2]-E[f]^2+2(E[xf]-E[x]E[f])"],
     XF),
    ("moments", None, ["D(2x+1)", "4D(x)", "2D(x)"], XF),
    ("moments", f"{VAR}(wx)", [f"{VAR}(w){VAR}(x)"], WX),
    ("moments", f"{VAR}(wx)", [f"{VAR}(w){VAR}(x)"], {"random": ["w", "x"]}),
    ("moments", f"{VAR}\\left(\\sum_{{i=1}}^{{n}} w_i x_i\\right)",
     [f"\\sum_{{i=1}}^{{n}} {VAR}(w_i x_i)", f"n{VAR}(wx)", f"n{VAR}(w)E[x^2]"], HE_INIT),
    ("moments", f"{VAR}\\left(\\sum_{{i=1}}^{{n}} w_i x_i\\right)",
     [f"n{VAR}(w){VAR}(x)"], HE_INIT),
]


def _text_class(entry) -> str:
    """The texts' derivations, pasted as written: the vector and moment ones in their classes."""
    for notation in ("vectors", "moments"):
        if notation in entry.notation:
            return notation
    return "pasted_block"


# the texts' derivations, pasted as written (both languages)
CASES += [(_text_class(entry), None, entry.lines.get(lang), entry.declared_fields())
          for entry in text_derivations().values() for lang in ("zh", "en")]

# Issue 25: vectors, Jacobians and gradients with transposes (goal per line: p50 <= 10 ms,
# p99 <= 200 ms), a right and a wrong line each (wrong values and named shape mistakes).
GRADIENT = {"matrices": ["W"], "vectors": ["x", "y"]}
BLOCK = {"functions": ["F"], "vectors": ["x", "F"]}
UPSTREAM = {"matrices": ["W"], "vectors": ["x", "y"], "functions": ["L"],
            "relations": ["y = x + Wx"]}
CASES += [
    ("vectors", r"\frac{\partial (Wx)}{\partial x}", ["W"], GRADIENT),
    ("vectors", r"\frac{\partial (Wx)}{\partial x}", ["W^T"], GRADIENT),
    ("vectors", r"\frac{\partial}{\partial x}(x+F(x))", ["I + J_F(x)"], BLOCK),
    ("vectors", r"\frac{\partial}{\partial x}(x+F(x))", ["J_F(x)"], BLOCK),
    ("vectors", r"\nabla_x \frac{1}{2}\|Wx-y\|^2", [r"W^\top(Wx-y)"], GRADIENT),
    ("vectors", r"\nabla_x \frac{1}{2}\|Wx-y\|^2", ["W(Wx-y)"], GRADIENT),
    ("vectors", r"\nabla_x L", [r"(I+W)^\top \nabla_y L"], UPSTREAM),
    ("vectors", r"\nabla_x L", [r"(\nabla_y L)^T (I+W)"], UPSTREAM),
    ("vectors", r"\nabla_x (a^\top x)", ["a"], {"vectors": ["x", "a"]}),
    ("vectors", r"\|x\|^2", ["x + 1"], {"vectors": ["x"]}),
]


def per_line_ms(start: str | None, answer, declared: dict) -> float:
    lines = len(answer) if isinstance(answer, list) else len(
        [p for p in grader.split_derivation(answer, **declared) if not p.remark])
    request = {"kind": "derivation", "answer": answer, **declared}
    if start is not None:
        request["start"] = start
    began = time.perf_counter()
    grader.check(request)
    return (time.perf_counter() - began) * 1000 / max(lines, 1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    load_before = os.getloadavg()
    for _, start, answer, declared in CASES:
        per_line_ms(start, answer, declared)
    times: dict[str, list[float]] = {}
    for _ in range(PASSES):
        for kind, start, answer, declared in CASES:
            times.setdefault(kind, []).append(per_line_ms(start, answer, declared))
    load_after = os.getloadavg()
    base50, base99 = statistics.median(times["scalar"]), percentile(times["scalar"], 0.99)
    print("| class | requests timed | p50 ms/line | p99 ms/line | max ms/line | "
          "p50 / scalar | p99 / scalar |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for kind, values in times.items():
        p50, p99 = statistics.median(values), percentile(values, 0.99)
        print(f"| {kind} | {len(values)} | {p50:.2f} | {p99:.2f} | {max(values):.2f} | "
              f"{p50 / base50:.1f}x | {p99 / base99:.1f}x |")
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs); goal per line: p50 <= {GOAL_P50_MS:g} ms, "
          f"p99 <= {GOAL_P99_MS:g} ms (moments and vectors: p50 <= {PART2_GOAL_P50_MS:g} ms, "
          f"p99 <= {PART2_GOAL_P99_MS:g} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
