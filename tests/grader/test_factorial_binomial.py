"""Issue 10, item 4: factorials and binomials as maths, not only as numbers.

`n!` of a formula is Gamma(n + 1) (DLMF 5.4.1), `binomial(n, k)` is
Gamma(n+1) / (Gamma(k+1) Gamma(n-k+1)) (DLMF 1.2.6 extended by the gamma function); constant
arguments are whole numbers and are computed exactly up to 1000!. Each verdict is justified in
the test: exact integers (`math`), mpmath's gamma at 50 digits, or an argument in a comment.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

import grader
from grader.reading.limits import MAX_FACTORIAL


def check(expected: str, answer: str, symbols=("n", "k")) -> grader.Result:
    return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                         "symbols": list(symbols)})


def gamma_factorial(x):
    return mpmath.gamma(mpmath.mpf(x) + 1)


@pytest.mark.parametrize(("expected", "answer", "verdict", "at"), [
    # Gamma(x + 3) = (x + 2)(x + 1) Gamma(x + 1) (DLMF 5.5.1, twice)
    ("(k + 2)!", "(k + 2)*(k + 1)*k!", "correct",
     lambda x: gamma_factorial(x + 2) - (x + 2) * (x + 1) * gamma_factorial(x)),
    ("(k + 2)!", "(k+2)(k+1)k!", "correct",
     lambda x: gamma_factorial(x + 2) - (x + 2) * (x + 1) * gamma_factorial(x)),
    ("n!", "n*(n - 1)!", "correct", lambda x: gamma_factorial(x) - x * gamma_factorial(x - 1)),
    ("(n + 1)!", "(n + 1)*n!", "correct",
     lambda x: gamma_factorial(x + 1) - (x + 1) * gamma_factorial(x)),
    ("(n + 1)!/n!", "n + 1", "correct",
     lambda x: gamma_factorial(x + 1) / gamma_factorial(x) - (x + 1)),
    ("(2*n)!/(n!)^2", "binomial(2*n, n)", "correct", lambda x: 0),  # the definition, k = n
    # classic errors: at x = 2.5 these differences are far from 0
    ("(2*k)!", "(k!)^2", "wrong", lambda x: gamma_factorial(2 * x) - gamma_factorial(x) ** 2),
    ("(n + 1)!", "n! + 1", "wrong", lambda x: gamma_factorial(x + 1) - gamma_factorial(x) - 1),
    ("(n + 1)!", "n*n!", "wrong", lambda x: gamma_factorial(x + 1) - x * gamma_factorial(x)),
    ("2*n!", "(2*n)!", "wrong", lambda x: 2 * gamma_factorial(x) - gamma_factorial(2 * x)),
    ("(n + 1)!/n!", "n", "wrong", lambda x: 1),  # (n + 1) - n
])
def test_factorials_of_formulas(expected, answer, verdict, at):
    with mpmath.workdps(50):
        gap = abs(at(mpmath.mpf("2.5")))
    assert (gap < mpmath.mpf(10) ** -40) == (verdict == "correct")
    r = check(expected, answer)
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize(("expected", "answer", "verdict"), [
    ("binomial(n, k)", "n!/(k!*(n - k)!)", "correct"),  # the definition
    ("binomial(n, k)", "binomial(n, n - k)", "correct"),  # symmetry, DLMF 26.3.2
    ("binomial(n, k) + binomial(n, k + 1)", "binomial(n + 1, k + 1)", "correct"),  # Pascal
    ("binomial(n, 2)", "n*(n - 1)/2", "correct"),
    ("binomial(n, k)", "n!/k!", "wrong"),  # binomial(5, 2) = 10, 5!/2! = 60
    ("binomial(n, 2)", "n^2/2", "wrong"),  # n = 4: 6 and 8
])
def test_binomials(expected, answer, verdict):
    assert math.comb(5, 2) == 10 and math.factorial(5) // math.factorial(2) == 60
    assert math.comb(4, 2) == 6 and 4 ** 2 // 2 == 8
    assert math.comb(7, 3) + math.comb(7, 4) == math.comb(8, 4)
    r = check(expected, answer)
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize(("expected", "answer", "verdict"), [
    ("binomial(5, 2)", "10", "correct"),
    ("factorial(5)", "120", "correct"),
    # 120! 40! / (39! 121!) = 40/121 exactly (checked below with integers)
    ("120!*40!/(39!*121!)", "40/121", "correct"),
    ("40/121", "120!*40!/(39!*121!)", "correct"),
    ("120!*40!/(39!*121!)", "1/3", "wrong"),
    ("200!/199!", "200", "correct"),  # 200! is beyond a float: read exactly
    ("1000!/999!", "1000", "correct"),
])
def test_factorials_of_numbers_are_exact(expected, answer, verdict):
    assert Fraction(math.factorial(120) * math.factorial(40),
                    math.factorial(39) * math.factorial(121)) == Fraction(40, 121)
    r = check(expected, answer, ())
    assert r.verdict == verdict, r.feedback


def test_the_factorial_bound_says_so():
    r = check("x", f"{MAX_FACTORIAL + 1}!", ("x",))
    assert r.verdict == "unreadable" and f"{MAX_FACTORIAL}!" in r.feedback
    zh = grader.check({"kind": "expression", "expected": "x", "answer": "1001!",
                       "symbols": ["x"], "lang": "zh"})
    assert "阶乘过大" in zh.feedback


@pytest.mark.parametrize("answer", ["(-1)!", "2.5!"])
def test_a_constant_factorial_needs_a_whole_number(answer):
    r = check("x", answer, ("x",))
    assert r.verdict == "unreadable" and "whole number" in r.feedback


def test_preview_writes_binomials_and_factorials():
    assert grader.preview("binomial(n, k)", symbols=["n", "k"])["interpreted"] == r"\binom{n}{k}"
    assert grader.preview("(n+1)!", symbols=["n"])["interpreted"] == r"\left(n + 1\right)!"


def test_a_derivative_of_a_factorial_is_not_guessed():
    r = check("n", "diff(n!, n)", ("n",))
    assert r.verdict == "unreadable"


@pytest.mark.parametrize(("expected", "answer", "verdict"), [
    # binomial(n, k) of a constant whole k is the polynomial n (n-1) ... (n-k+1) / k!: exact
    ("binomial(n + 1, 3)", "binomial(n, 3) + binomial(n, 2)", "correct"),  # Pascal, k = 3
    # 2e50 (2e50 - 1) (2e50 - 2) / 6 + 1 differs from it by 1, far below a float's resolution
    ("binomial(n*10^50, 3)", "binomial(n*10^50, 3) + 1", "wrong"),
    ("binomial(5, 7)", "0", "correct"),  # k > n: no way to choose 7 of 5
])
def test_binomials_with_a_constant_k_are_polynomials(expected, answer, verdict):
    n = 2 * 10 ** 50
    assert math.comb(n, 3) + 1 != math.comb(n, 3) and math.comb(5, 7) == 0
    assert all(math.comb(m + 1, 3) == math.comb(m, 3) + math.comb(m, 2) for m in range(2, 30))
    r = check(expected, answer)
    assert r.verdict == verdict, r.feedback


def test_huge_binomials_and_factorials_are_refused_clearly():
    r = check("x", "binomial(10^9, 5*10^8)", ("x",))
    assert r.verdict == "unreadable" and "binomial(1000, k)" in r.feedback
