"""Build answers.jsonl: realistic learner answers to formulas from the three source texts, each
with the verdict a careful human grader gives it. Run: python bench/corpus/build_answers.py

Every line is a `python -m grader check` request plus `verdict` ("correct" / "wrong"), which the
grader ignores and the benchmark compares against.
"""

from __future__ import annotations

import json
from pathlib import Path

C, W = "correct", "wrong"

# (request fields shared by the answers, [(answer, verdict), ...])
EXPRESSIONS = [
    ({"expected": "1 + F_l'(x_l)", "functions": ["F_l"], "symbols": ["x_l"]}, [
        ("1 + F_l'(x_l)", C), ("1+F_l'(x_l)", C), ("F_l'(x_l) + 1", C), ("1 + F_l′(x_l)", C),
        ("1 ＋ F_l′（x_l）", C), ("1 + diff(F_l(x_l), x_l)", C), (r"1+F_{l}'(x_{l})", C),
        ("F_l'(x_l)", W), ("1 + F_l(x_l)", W), ("x_l + F_l'(x_l)", W), ("1 - F_l'(x_l)", W),
        ("1 + F_l'(x_l", W), ("2 F_l'(x_l)", W)]),
    ({"expected": "1 + F'(x)", "functions": ["F"], "symbols": ["x"]}, [
        ("1+F'(x)", C), ("F'(x)+1", C), ("d/dx (x + F(x))", C), ("diff(x + F(x), x)", C),
        (r"\frac{d}{dx}\left(x+F(x)\right)", C), ("1+F′(x)", C), ("（1＋F′(x)）", C),
        ("F'(x)", W), ("1+F(x)", W), ("x + F'(x)", W), ("1 + F''(x)", W), ("1·F'(x)", W)]),
    ({"expected": "(I + J_F)^T g", "matrices": ["J_F", "g"]}, [
        ("(I + J_F)^T g", C), ("(I+J_F)^T g", C), ("g + J_F^T g", C), (r"(I+J_F)^\top g", C),
        (r"\left(I+J_F\right)^{\top} g", C), ("(J_F + I)' g", C), ("transpose(I + J_F) g", C),
        ("(I + J_F^T) g", C), ("（I＋J_F）ᵀ g", C), (r"(\mathbf{I}+\mathbf{J}_F)^T \mathbf{g}", C),
        ("(I + J_F) g", W), ("g^T (I + J_F)", W), ("J_F^T g", W), ("(I + J_F)^T", W),
        ("g + J_F g", W), ("g (I + J_F)^T", W)]),
    ({"expected": "(I + W)^T g", "matrices": ["W", "g"], "malrules": [
        {"answer": "(I + W) g", "feedback": "You forgot the transpose."}]}, [
        ("(I+W)^T g", C), ("(W+I)^T g", C), ("W^T g + g", C), ("(I+W)' g", C),
        ("(I + W^T) g", C), ("g + W' g", C), (r"\left(I+W\right)^{T}g", C), ("（I＋W）^T g", C),
        ("(I+W) g", W), ("(I+W)g", W), ("W g + g", W), ("W^T g", W), ("g^T(I+W)", W),
        ("(I+W)^T", W), ("(I-W)^T g", W)]),
    ({"expected": "g F_l'(x_l)", "functions": ["F_l"], "symbols": ["g", "x_l"]}, [
        ("g F_l'(x_l)", C), ("F_l'(x_l) g", C), ("g*F_l'(x_l)", C), ("g·F_l′(x_l)", C),
        ("g (1 + F_l'(x_l))", W), ("g + F_l'(x_l)", W), ("F_l'(x_l)", W)]),
    ({"expected": "g (1 + F_l'(x_l))", "functions": ["F_l"], "symbols": ["g", "x_l"]}, [
        ("g(1+F_l'(x_l))", C), ("g + g F_l'(x_l)", C), ("(1+F_l'(x_l)) g", C),
        ("g*(1 + diff(F_l(x_l), x_l))", C), ("g F_l'(x_l)", W), ("g + F_l'(x_l)", W),
        ("1 + g F_l'(x_l)", W)]),
    ({"expected": "H(x) - x", "functions": ["H"], "symbols": ["x"]}, [
        ("H(x) - x", C), ("-x + H(x)", C), ("H(x)−x", C), ("x - H(x)", W), ("H(x) + x", W),
        ("H(x)", W)]),
    ({"expected": "I + J_F J_LN", "matrices": ["J_F", "J_LN"]}, [
        ("I + J_F J_LN", C), ("J_F J_LN + I", C), ("I + J_F*J_LN", C), ("I+J_F·J_LN", C),
        ("I + J_LN J_F", W), ("J_LN (I + J_F)", W), ("(I + J_F) J_LN", W)]),
    ({"expected": "J_LN (I + J_F)", "matrices": ["J_F", "J_LN"]}, [
        ("J_LN (I + J_F)", C), ("J_LN + J_LN J_F", C), ("J_LN*(I+J_F)", C),
        ("(I + J_F) J_LN", W), ("I + J_F J_LN", W), ("J_LN + J_F J_LN", W)]),
    ({"expected": "I + alpha J_F", "matrices": ["J_F"], "symbols": ["alpha"]}, [
        ("I + alpha J_F", C), ("I + α J_F", C), (r"I + \alpha J_F", C), ("J_F α + I", C),
        ("I + J_F", W), ("alpha (I + J_F)", W), ("1 + α J_F", W)]),
    ({"expected": "(I + J_2)(I + J_1)", "matrices": ["J_1", "J_2"]}, [
        ("(I + J_2)(I + J_1)", C), ("I + J_1 + J_2 + J_2 J_1", C), ("(I+J_2)*(I+J_1)", C),
        ("(I + J_1)(I + J_2)", W), ("I + J_1 + J_2 + J_1 J_2", W), ("I + J_1 + J_2", W)]),
    # n is a depth (the product of n residual multipliers 1 + a): a whole number, so the
    # question declares it; for a real n, (1+a)^n is |1+a|^n wherever it is real (issue 29's
    # one real-domain rule) and the forgotten bars would not show
    ({"expected": "abs(1 + a)^n", "symbols": ["a"], "integers": ["n"]}, [
        ("|1 + a|^n", C), ("abs(a+1)^n", C), (r"\left|1+a\right|^{n}", C), ("|1+a|**n", C),
        ("|a|^n", W), ("(1+a)^n", W), ("|1 + a| n", W), ("1 + |a|^n", W)]),
    ({"expected": "abs(a)^n", "symbols": ["a"], "integers": ["n"]}, [
        ("|a|^n", C), ("abs(a)^n", C), ("|a|**n", C), ("a^n", W), ("|1+a|^n", W)]),
    ({"expected": "var_x + var_F + 2 cov", "symbols": ["var_x", "var_F", "cov"]}, [
        ("var_x + var_F + 2 cov", C), ("var_F + var_x + 2*cov", C), ("var_x + var_F", W),
        ("var_x + var_F + cov", W)]),
    ({"expected": "sigmoid(z) (1 - sigmoid(z))", "symbols": ["z"]}, [
        ("sigmoid(z)(1-sigmoid(z))", C), ("diff(sigmoid(z), z)", C), ("σ(z)(1−σ(z))", C),
        ("exp(-z)/(1+exp(-z))^2", C), ("sigmoid(z)^2", W), ("sigmoid(z)(1+sigmoid(z))", W)]),
    ({"expected": "1 - tanh(x)^2", "symbols": ["x"]}, [
        ("sech(x)^2", C), ("1 - tanh(x)^2", C), ("diff(tanh(x), x)", C), ("1/cosh(x)^2", C),
        ("1 + tanh(x)^2", W), ("tanh(x)^2", W), ("sech(x)", W)]),
    ({"expected": "x + W_2 sigmoid(W_1 x + b_1) + b_2",
      "symbols": ["x", "W_1", "W_2", "b_1", "b_2"]}, [
        ("x + W_2 σ(W_1 x + b_1) + b_2", C), ("W_2 sigmoid(W_1 x+b_1) + b_2 + x", C),
        ("W_2 σ(W_1 x + b_1) + b_2", W), ("x + W_2 σ(W_1 x) + b_2", W)]),
    ({"expected": "(x + 1)^2", "symbols": ["x"]}, [
        ("x^2 + 2x + 1", C), ("(1+x)^2", C), ("x² + 2x + 1", C), ("(x+1)(x+1)", C),
        ("x^2 + 1", W), ("x^2 + 2x", W), ("(x-1)^2", W)]),
    ({"expected": "x_0 + F_0(x_0) + F_1(x_1)", "functions": ["F_0", "F_1"],
      "symbols": ["x_0", "x_1"]}, [
        ("x_0 + F_0(x_0) + F_1(x_1)", C), ("F_1(x_1) + F_0(x_0) + x_0", C),
        ("x_0 + F_0(x_0)", W), ("x_1 + F_1(x_1)", W)]),
]

HALF_POW_20 = 0.5**20
NUMERICS = [
    ({"expected": HALF_POW_20, "sigfigs": 3}, [
        ("9.54e-7", C), ("9.54×10^-7", C), ("9.54*10^(-7)", C), ("9.54 × 10⁻⁷", C),
        ("0.5^20", C), ("9.537e-7", C), ("9.5e-7", W), ("9.55e-7", W), ("1e-6", W),
        ("0.000000954", C), ("９．５４ｅ－７", C), ("9.54", W)]),
    ({"expected": 0.8**40, "rtol": 5e-3}, [
        ("1.33e-4", C), ("0.000133", C), ("0.8^40", C), ("1.3e-3", W), ("0.8*40", W)]),
    ({"expected": 1.01, "rtol": 1e-6}, [("1.01", C), ("1+0.01", C), ("0.01", W), ("1.1", W)]),
    ({"expected": [0.5, 0.5], "rtol": 1e-3}, [
        ("[0.5, 0.5]", C), ("[0.5; 0.5]", C), ("(0.5, 0.5)", C), ("[0.1*1+0.2*2, -0.1*1+0.3*2]", C),
        ("[0.5, 0.7]", W), ("0.5", W)]),
    ({"expected": [1.5, 2.5], "rtol": 1e-3}, [
        ("[1.5, 2.5]", C), ("1.5, 2.5", C), ("[1.5 2.5]", C), ("［1.5，2.5］", C),
        (r"\begin{bmatrix}1.5\\2.5\end{bmatrix}", C), ("[2.5, 1.5]", W), ("[1.5, 2.5, 0]", W)]),
    ({"expected": 1.25, "rtol": 1e-3}, [
        ("1.25", C), ("5/4", C), ("0.5*((1.5-1)^2+(2.5-1)^2)", C), ("2.5", W), ("1.2", W)]),
    ({"expected": [0.5, 1.5], "rtol": 1e-3}, [
        ("[0.5, 1.5]", C), ("(0.5, 1.5)", C), ("[0.5; 1.5]", C), ("[1.5, 0.5]", W)]),
    ({"expected": [[1.1, -0.1], [0.2, 1.3]], "rtol": 1e-3}, [
        ("[[1.1, -0.1], [0.2, 1.3]]", C), ("[1.1 -0.1; 0.2 1.3]", C),
        (r"\begin{bmatrix}1.1 & -0.1 \\ 0.2 & 1.3\end{bmatrix}", C),
        ("[[1.1, 0.2], [-0.1, 1.3]]", W), ("[1.1 - 0.1; 0.2 1.3]", W)]),
    ({"expected": [0.4, 2.05], "rtol": 1e-3}, [
        ("[0.4, 2.05]", C), ("0.4, 2.05", C), ("[0.4; 2.05]", C), ("[0.4 2.05]", C),
        ("(0.4, 2.05)", C), ("［0.4，2.05］", C), ("[0.4，2.05]", C),
        ("[1.1*0.5-0.1*1.5, 0.2*0.5+1.3*1.5]", C), ("[0.40, 2.050]", C),
        ("[0.4, 2.5]", W), ("[2.05, 0.4]", W), ("[0.5, 2.05]", W), ("[0.4]", W),
        ("[0.4, 2.05", W)]),
    ({"expected": [-0.1, 0.55], "rtol": 1e-3}, [
        ("[-0.1, 0.55]", C), ("-0.1, 0.55", C), ("[-0.1 0.55]", C), ("[0.1, 0.55]", W),
        ("[-0.1 - 0.55]", W)]),
    ({"expected": [0.5, -0.2, 0.1], "rtol": 1e-3}, [
        ("[0.5, -0.2, 0.1]", C), ("[2.5-2, 4.8-5, 3.1-3]", C), ("0.5, -0.2, 0.1", C),
        ("[0.5, 0.2, 0.1]", W), ("[-0.5, 0.2, -0.1]", W)]),
    ({"expected": 1.3, "atol": 1e-6}, [("1.3", C), ("1+0.5-0.2", C), ("1.5", W)]),
    ({"expected": 2**40, "rtol": 1e-3}, [("2^40", C), ("1.0995e12", C), ("1099511627776", C),
                                        ("2*40", W)]),
]

DERIVATIONS = [
    ({"expected": "1 + F'(x)", "start": "d/dx (x + F(x))", "functions": ["F"],
      "symbols": ["x"]}, [
        (["diff(x, x) + diff(F(x), x)", "1 + F'(x)"], C), (["1 + F'(x)"], C),
        (["1 + diff(F(x), x)", "1 + F'(x)"], C), (["x' + F'(x)", "1 + F'(x)"], W),
        (["1 + F(x)", "1 + F'(x)"], W), (["diff(x,x) + diff(F(x),x)", "F'(x)"], W)]),
    ({"expected": "g + J_F^T g", "start": "(I + J_F)^T g", "matrices": ["J_F", "g"]}, [
        (["(I^T + J_F^T) g", "(I + J_F^T) g", "I g + J_F^T g", "g + J_F^T g"], C),
        (["(I + J_F^T) g", "g + J_F^T g"], C), (["(I + J_F) g", "g + J_F g"], W),
        (["(I + J_F^T) g", "g + J_F g"], W)]),
    ({"expected": "I + J_1 + J_2 + J_2 J_1", "start": "(I + J_2)(I + J_1)",
      "matrices": ["J_1", "J_2"]}, [
        (["I(I + J_1) + J_2 (I + J_1)", "I + J_1 + J_2 + J_2 J_1"], C),
        (["I + J_1 + J_2 + J_1 J_2"], W), (["I + J_1 + J_2 + J_2 J_1"], C)]),
    ({"expected": "x^2 + 2x + 1", "start": "(x + 1)^2", "symbols": ["x"]}, [
        (["(x+1)(x+1)", "x^2 + x + x + 1", "x^2 + 2x + 1"], C), (["x^2 + 1"], W),
        (["(x+1)(x+1)", "x^2 + 2x + 1"], C), (["x^2 + 2x + 2", "x^2 + 2x + 1"], W)]),
]


def build() -> list[dict]:
    rows = []
    for kind, table in (("expression", EXPRESSIONS), ("numeric", NUMERICS),
                        ("derivation", DERIVATIONS)):
        for q, (shared, answers) in enumerate(table):
            for k, (answer, verdict) in enumerate(answers):
                rows.append({"id": f"{kind[:3]}-{q:02d}-{k:02d}", "kind": kind, **shared,
                             "answer": answer, "verdict": verdict})
    return rows


if __name__ == "__main__":
    out = Path(__file__).with_name("answers.jsonl")
    rows = build()
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                   encoding="utf-8")
    print(f"{len(rows)} answers -> {out}")
