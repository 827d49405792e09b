"""Worst times of hostile derivations (issues 24 and 25: refused or bounded within 2 s, with a
clear message; issue 25 adds hostile vector lines). The bounds are counts (tests/grader/test_hostile_derivations.py checks the messages);
this script only measures: each case REPEATS times in-process through `grader.check`, the worst
time printed with the first message, and the load average (a shared machine).

Run: .venv/bin/python bench/bench_hostile_lines.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grader  # noqa: E402 - needs the path above

REPEATS = 5
BUDGET_S = 2.0
RESIDUAL = {"functions": ["F"], "families": ["x", "F"], "integers": ["L", "l", "n"],
            "relations": ["x_{l+1} = x_l + F_l(x_l)"]}
LETTERS = "abcdfghkmpqrstuvyzAB"  # random variables' names (no e, i, j, l, n, o, x, w)
NESTED = "".join(f"\\sum_{{{v}=1}}^{{n}}" for v in "abcd")
CASES = {
    "huge constant bound": {"answer": [r"\sum_{i=1}^{10^{9}} i", "5"]},
    "huge symbolic bound": {"answer": [r"\sum_{i=1}^{10^9 n} i", r"\frac{n(n+1)}{2}"]},
    "4 nested sums (at the limit)": {"answer": [NESTED + " 1", "n^4"]},
    "5 nested sums": {"answer": [NESTED + r"\sum_{e=1}^{n} 1", "n^5"]},
    "200 nested brackets": {"answer": ["(" * 200 + "x" + ")" * 200, "x"]},
    "9,999-character block": {"answer": ("x + x = 2x\n" * 909)[:9999], "symbols": ["x"]},
    "10,127-character block": {"answer": "x + x = 2x\n" * 920 + "2x = 3x", "symbols": ["x"]},
    "40 members in one chain": {"answer": " = ".join(["x + x"] * 40), "symbols": ["x"]},
    "300 members in one chain": {"answer": " = ".join(["x + x"] * 300), "symbols": ["x"]},
    "relation run to index 64": {"answer": ["x_{64}", r"x_0 + \sum_{i=0}^{63} F_i(x_i)"],
                                 **RESIDUAL},
    "relation asked for index 1000": {"answer": ["x_{1000}",
                                                 r"x_0 + \sum_{i=0}^{999} F_i(x_i)"], **RESIDUAL},
    "gradient through 64 layers": {"answer": [r"\frac{\partial x_{64}}{\partial x_0}",
                                              r"\prod_{i=0}^{63} (1 + F_i'(x_i))"], **RESIDUAL},
    # issue 25: moments (many random variables, deep nesting, many outcomes, the search of
    # the assumptions that would make a broken step hold)
    "Var of 12 independent random variables": {
        "answer": [r"\operatorname{Var}(" + "+".join(LETTERS[:12]) + ")",
                   "+".join(rf"\operatorname{{Var}}({v})" for v in LETTERS[:12])],
        "random": list(LETTERS[:12]), "independent": [list(LETTERS[:12])]},
    "Var of 11 independent random variables (2,048 outcomes)": {
        "answer": [r"\operatorname{Var}(" + "+".join(LETTERS[:11]) + ")",
                   "+".join(rf"\operatorname{{Var}}({v})" for v in LETTERS[:11])],
        "random": list(LETTERS[:11]), "independent": [list(LETTERS[:11])]},
    "Var of 20 dependent random variables, broken": {
        "answer": [r"\operatorname{Var}(" + "+".join(LETTERS[:20]) + ")",
                   "+".join(rf"\operatorname{{Var}}({v})" for v in LETTERS[:20])],
        "random": list(LETTERS[:20])},
    "30 random variables in 10 independent triples (3^10 groups)": {
        "answer": [r"\operatorname{Var}(" + "+".join(f"r_{k}" for k in range(30)) + ")",
                   "+".join(rf"\operatorname{{Var}}(r_{k})" for k in range(30))],
        "random": [f"r_{k}" for k in range(30)],
        "independent": [[f"r_{k}" for k in range(t, 30, 3)] for t in range(3)]},
    "E nested 15 deep (at the depth limit)": {"answer": ["E[" * 15 + "x" + "]" * 15, "E[x] + 1"],
                                              "random": ["x"]},
    "E nested 30 deep": {"answer": ["E[" * 30 + "x" + "]" * 30, "E[x] + 1"], "random": ["x"]},
    "Var of a sum of 40 members": {
        "answer": [r"\operatorname{Var}\left(\sum_{i=1}^{40} w_i\right)",
                   r"40\operatorname{Var}(w)"], "random": ["w"], "families": ["w"]},
    "broken step, 6 assumptions searched": {
        "answer": [r"\operatorname{Var}(a b c)", r"\operatorname{Var}(a)\operatorname{Var}(b)"
                   r"\operatorname{Var}(c) + 1"], "random": ["a", "b", "c"]},
}

# Issue 25: hostile vector input (huge nesting, long lines of Jacobians, 10,000 characters).
VECTORS = {"matrices": ["W"], "vectors": ["x", "y", "F"], "functions": ["F"]}
_GRADIENT_LINE = r"\nabla_x (" + " + ".join([r"x^\top W^\top W x"] * 40) + ")"  # 800 chars
_LONG_JACOBIAN = r"\frac{\partial}{\partial x}(" + " + ".join(["F(W x)"] * 40) + ")"
CASES.update({
    "30 nested norms": {"answer": ["\\|" * 30 + "x" + "\\|" * 30, "x"], **VECTORS},
    "25 nested vector functions, Jacobian": {
        "answer": [r"\frac{\partial}{\partial x}" + "F(" * 25 + "x" + ")" * 25, "I"],
        **VECTORS},
    "gradient of 40 quadratic forms": {"answer": [_GRADIENT_LINE, "80 W^T W x"], **VECTORS},
    "Jacobian of 40 vector functions": {"answer": [_LONG_JACOBIAN, "40 J_F(Wx) W"], **VECTORS},
    "40 gradients in one line": {"answer": [" + ".join([r"\nabla_x \|x\|^2"] * 40), "80 x"],
                                 **VECTORS},
    "Jacobian in a 1000-term sum": {"answer": [r"\sum_{i=1}^{1000} \nabla_x (i x^T x)",
                                               "1001000 x"], **VECTORS},
    "25 distinct lines of 40 Jacobians (9,700 characters)": {
        "answer": "\n".join(_LONG_JACOBIAN.replace("W x", f"W x + {k} y", 1) for k in range(25)),
        **VECTORS},
    "10,000+-character block of gradients": {
        "answer": (r"\nabla_x \|x\|^2 = 2x" + "\n") * 500, **VECTORS},
})


def first_message(result) -> str:
    for step in result.steps:
        if step.feedback and step.status.value != "verified":
            return step.feedback.splitlines()[0]
    return (result.error or result.feedback or "").splitlines()[0]


def main() -> int:
    load_before = os.getloadavg()
    print("| case | worst s | message |")
    print("| --- | ---: | --- |")
    worst_all = 0.0
    for name, request in CASES.items():
        worst, result = 0.0, None
        for _ in range(REPEATS):
            began = time.perf_counter()
            result = grader.check({"kind": "derivation", "lang": "en", **request})
            worst = max(worst, time.perf_counter() - began)
        worst_all = max(worst_all, worst)
        print(f"| {name} | {worst:.3f} | {first_message(result)[:110]} |")
    load_after = os.getloadavg()
    print(f"\nworst {worst_all:.3f} s (budget {BUDGET_S:g} s); load average before "
          f"{load_before[0]:.2f}, after {load_after[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
