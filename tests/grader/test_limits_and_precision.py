"""Issue 29, items 3-6: removable singularities, limits at infinity, differences below double
precision, decimal keys compared at their own precision (grader/README.md, "Limits, removable
singularities and the precision of decimal keys").

Every verdict is justified in the test itself, independently of the grader: mpmath at 50 digits
(or more), exact `Fraction` arithmetic, or the limit written out in a comment.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import grader
from grader.kinds.request import grade_request
from grader.reading.names import Declarations
from grader.reading.parser import parse
from grader.values.confirm import own_precision
from grader.values.evaluate import Env
from grader.values.extended import extended_value
from grader.values.precise import difference_at

mpmath.mp.dps = 50


def check(expected: str, answer: str, symbols=("x",), **extra) -> grader.Result:
    return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                         "symbols": list(symbols), "lang": "en", **extra})


def tree(text: str, *names: str):
    return parse(text, Declarations.of(names))[0]


def at(**point) -> Env:
    env = Env(k=1, n=1, seed=0)
    for name, value in point.items():
        env.symbols[name] = np.array([complex(value)])
    return env


# --- item 3: removable singularities --------------------------------------------------------

def _limit(f, x0):
    """Both one-sided values of f next to x0 (mpmath, 50 digits): an independent limit."""
    step = mpmath.mpf("1e-30")
    return f(x0 - step), f(x0 + step)


@pytest.mark.parametrize("expected, answer", [
    # Γ(n+2)/Γ(n) = n(n+1): Γ(n) has a pole at n = 0, -1, -2, …, where n(n+1)·Γ(n)/Γ(n) cancels.
    ("n(n+1)", "(n+1)!/(n-1)!"),
    ("(n+1)(n+2)", "(n+2)!/n!"),
    ("n(n-1)", "n!/(n-2)!"),
])
def test_a_pole_that_cancels_is_not_a_counterexample(expected, answer):
    # Independently: next to n = -1 (a hand-checkable point, where the answer has no value),
    # the answer tends to the expected value there.
    f = {"(n+1)!/(n-1)!": lambda n: mpmath.gamma(n + 2) / mpmath.gamma(n),
         "(n+2)!/n!": lambda n: mpmath.gamma(n + 3) / mpmath.gamma(n + 1),
         "n!/(n-2)!": lambda n: mpmath.gamma(n + 1) / mpmath.gamma(n - 1)}[answer]
    g = {"n(n+1)": lambda n: n * (n + 1), "(n+1)(n+2)": lambda n: (n + 1) * (n + 2),
         "n(n-1)": lambda n: n * (n - 1)}[expected]
    for x0 in (-1, -2):
        for side in _limit(f, mpmath.mpf(x0)):
            assert abs(side - g(x0)) < mpmath.mpf("1e-25")
    result = check(expected, answer, symbols=("n",))
    assert result.verdict == "correct", result.feedback  # main: wrong, "at n = -1 … undefined"


def test_a_wrong_answer_with_a_removable_point_is_still_wrong():
    # Γ(n+2)/Γ(n) + 1 differs from n(n+1) by 1 everywhere.
    result = check("n(n+1)", "(n+1)!/(n-1)! + 1", symbols=("n",))
    assert result.verdict == "wrong"
    assert "undefined" not in result.feedback


@pytest.mark.parametrize("answer, expected, point, found", [
    ("(n+1)!/(n-1)!", "n(n+1)", {"n": -1}, "removable"),  # limit 0 = (-1)(0)
    ("(x^2 - 1)/(x - 1)", "x + 1", {"x": 1}, "removable"),  # limit 2
    ("(x^2 - y^2)/(x - y)", "x + y", {"x": 2, "y": 2}, "removable"),  # limit 4 along any path
    ("1/(x - 1)", "1", {"x": 1}, "answer_undefined"),  # a pole: no limit
    ("(x^2 - 1)/(x - 1)", "x + 2", {"x": 1}, "answer_undefined"),  # limit 2, not 3
    ("x/abs(x)", "1", {"x": 0}, "answer_undefined"),  # a jump: -1 on the left
    ("sqrt(x)^2", "x", {"x": -2}, "answer_undefined"),  # outside the real domain on both sides
])
def test_the_limit_at_an_undefined_point(answer, expected, point, found):
    names = tuple(point)
    env = at(**point)
    assert difference_at(tree(answer, *names), tree(expected, *names), env, 0) == found


# --- item 4: limits at ±∞ in powers and exponentials of numbers -----------------------------

@pytest.mark.parametrize("expected, answer", [
    ("\\infty", "2^\\infty"),  # b^y → ∞ as y → ∞ for b > 1
    ("\\infty", "(1/2)^{-\\infty}"),  # (1/2)^y = 2^{-y} → ∞ as y → -∞
    ("\\infty", "(0.5)^{-\\infty}"),
    ("0", "2^{-\\infty}"),
    ("0", "(1/2)^{\\infty}"),
    ("\\infty", "e^{\\infty}"),
    ("0", "e^{-\\infty}"),
    ("-\\infty", "\\pi * (-\\infty)"),  # a positive number times -∞
    ("\\pi/2", "\\arctan(\\infty)"),  # arctan t → π/2
    ("1", "\\tanh(\\infty)"),
])
def test_limits_at_infinity_are_values(expected, answer):
    result = check(expected, answer, symbols=())
    assert result.verdict == "correct", (result.feedback, result.error)  # main: cannot decide


@pytest.mark.parametrize("expected, answer", [
    ("-\\infty", "(1/2)^{-\\infty}"),
    ("5", "2^\\infty"),
    ("\\infty", "2^{-\\infty}"),
])
def test_a_wrong_limit_is_wrong(expected, answer):
    assert check(expected, answer, symbols=()).verdict == "wrong"


def test_a_wrong_limit_says_the_answers_value():
    result = check("5", "2^\\infty", symbols=())
    assert "Your answer equals ∞." in result.feedback  # main: "an undefined value"


@pytest.mark.parametrize("lang, says", [
    ("en", "Your answer equals an undefined value"), ("zh", "你的答案等于 无定义的值")])
@pytest.mark.parametrize("answer", ["(-\\infty)^{1/3}", "(-2)^{1/3}", "\\ln(-\\infty)"])
def test_no_value_for_an_infinite_key_is_wrong_and_says_so(answer, lang, says):
    """compute-engine reads (-∞)^{1/3} as the real cube root, -∞; here, as for (-8)^{1/3}, a
    real power of a negative base has no value (grader/README.md, convention entry 2), nor has
    its limit: (-t)^{1/3} is undefined for every t > 0. Decided in-process, with the reason
    (main: "cannot decide" without the worker, a bare "not equivalent" from sympy with it)."""
    assert extended_value(tree(answer)) is None
    result = grade_request({"kind": "expression", "expected": "-\\infty",
                                   "answer": answer, "lang": lang})
    assert result.verdict == "wrong" and says in result.feedback
    assert grade_request({"kind": "expression", "expected": "-\\infty",
                                 "answer": "\\sqrt[3]{-\\infty}"}).verdict == "correct"


@pytest.mark.parametrize("text", [
    "1^{\\infty}",  # indeterminate: (1 + 1/t)^t → e, 1^t → 1
    "(-2)^{\\infty}",  # oscillates between ±∞
    "\\infty^0",  # indeterminate: t^{1/log t} → e
    "\\infty - \\infty",
    "0 \\cdot \\infty",
    "\\infty/\\infty",
    "0^{-\\infty}",  # 0^y has no value for y < 0
    "\\sin(\\infty)",  # no limit
    "(-\\infty)^{1/3}",  # a real power of a negative number has no value (the real-domain rule)
])
def test_forms_without_a_limit_have_no_value(text):
    assert extended_value(tree(text)) is None


def test_extended_values():
    assert extended_value(tree("(1/2)^{-\\infty}")) == float("inf")
    assert extended_value(tree("(-\\infty)^3")) == float("-inf")
    assert extended_value(tree("(-\\infty)^{-2}")) == 0.0
    assert extended_value(tree("\\sqrt{\\infty} + 1")) == float("inf")
    assert extended_value(tree("x^\\infty", "x")) is None  # a name: not a formula of numbers


# --- item 5: differences below double precision, beyond rational expressions ----------------

@pytest.mark.parametrize("expected, answer, symbols", [
    ("50", "\\ln(2^{50}+1)/\\ln 2", ()),
    ("0", "\\sqrt{10^{20}+1} - 10^{10}", ()),
    ("1", "e^{10^{-17}}", ()),
    ("x", "x + 10^{-17}\\sin(x)", ("x",)),
    ("e^x", "e^{x + 10^{-16}}", ("x",)),
    ("x", "x + (1/3 - 0.3333333333333333)\\sin(x)", ("x",)),
])
def test_differences_below_double_precision_are_wrong(expected, answer, symbols):
    # Independently (mpmath, 50 digits): each difference is nonzero, far above 50-digit noise,
    # and below double precision (floats see the two sides as equal).
    exact = {
        "\\ln(2^{50}+1)/\\ln 2": mpmath.log(2 ** 50 + 1) / mpmath.log(2) - 50,
        "\\sqrt{10^{20}+1} - 10^{10}": mpmath.sqrt(mpmath.mpf(10) ** 20 + 1) - 10 ** 10,
        "e^{10^{-17}}": mpmath.exp(mpmath.mpf(10) ** -17) - 1,
        "x + 10^{-17}\\sin(x)": mpmath.mpf(10) ** -17 * mpmath.sin(1),  # at x = 1
        "e^{x + 10^{-16}}": mpmath.exp(1 + mpmath.mpf(10) ** -16) - mpmath.e,  # at x = 1
        "x + (1/3 - 0.3333333333333333)\\sin(x)":
            (mpmath.mpf(1) / 3 - mpmath.mpf("0.3333333333333333")) * mpmath.sin(1),
    }[answer]
    assert mpmath.mpf(10) ** -30 < abs(exact) < 1e-9
    result = check(expected, answer, symbols=symbols)
    assert result.verdict == "wrong", result.feedback  # main: correct


@pytest.mark.parametrize("expected, answer, symbols", [
    ("50", "\\ln(2^{50})/\\ln 2", ()),  # exactly 50
    ("\\sqrt{6}", "\\sqrt{2}\\sqrt{3}", ()),
    ("2\\ln|x| + \\ln(y^2)", "\\ln(x^2 y^2)", ("x", "y")),  # one real domain: x, y != 0
    ("1", "\\sin(x)^2 + \\cos(x)^2", ("x",)),
    ("e^{x} e^{y}", "e^{x + y}", ("x", "y")),
])
def test_identities_stay_right_at_higher_precision(expected, answer, symbols):
    assert check(expected, answer, symbols=symbols).verdict == "correct"


# --- item 6: a decimal key compared at its own precision ------------------------------------

@pytest.mark.parametrize("expected, answer, symbols", [
    # -3π = -9.424777960769379715…; the key is it to 15 figures: |key + 3π| = 2.85e-16, less
    # than half a unit of its last figure, 5e-15.
    ("-9.42477796076938 y^2", "-4\\pi y^2 + \\pi y^2", ("y",)),
    # 1/7 = 0.142857142857142857…; 15 figures: |key - 1/7| = 1.4e-16 < 5e-16.
    ("0.142857142857143", "1/7", ()),
    ("0.142857142857143 x", "x/7", ("x",)),
    # 3.1/2.8 = 1.10714285714285714285714…; 21 figures: |key - 31/28| = 1.4e-21 < 5e-21.
    ("1.10714285714285714286", "3.1/2.8", ()),
    # repr(math.log(3)) is 1.0986122886681098, ln 3 = 1.09861228866810969139…: off by 1.1e-16,
    # more than half a unit of the last figure (5e-17), but ln 3 rounds to the double the key
    # prints (within half an ulp of it): the key is that double, printed.
    ("1.0986122886681098", "\\ln 3", ()),
])
def test_an_answer_within_the_keys_own_precision_is_right(expected, answer, symbols):
    result = check(expected, answer, symbols=symbols)
    assert result.verdict == "correct", result.feedback


def test_the_oracle_of_the_decimal_keys():
    assert abs(mpmath.mpf("-9.42477796076938") + 3 * mpmath.pi) < mpmath.mpf("5e-15")
    assert abs(Fraction("0.142857142857143") - Fraction(1, 7)) < Fraction(5, 10 ** 16)
    assert abs(Fraction("1.10714285714285714286") - Fraction(31, 28)) < Fraction(5, 10 ** 21)
    assert abs(Fraction("1.1071428571428571428") - Fraction(31, 28)) > Fraction(5, 10 ** 20)
    assert repr(math.log(3)) == "1.0986122886681098"
    key = 1.0986122886681098
    assert abs(mpmath.mpf(key) - mpmath.log(3)) <= math.ulp(key) / 2  # ln 3 rounds to the double
    off = abs(mpmath.mpf("1.0986122886681098") - mpmath.log(3))
    assert mpmath.mpf("5e-17") < off
    assert abs(mpmath.mpf("1.0986122886681098") - mpmath.log(3) - mpmath.mpf("1e-15")) > 4e-16


@pytest.mark.parametrize("expected, answer, symbols", [
    ("1.1071428571428571428", "3.1/2.8", ()),  # 20 figures: off by 5.7e-20 > 5e-20
    ("-9.42477796076938 y^2", "-9.4247779607694 y^2", ("y",)),  # off by 2e-14 > 5e-15
    ("0.333 x", "x/3", ("x",)),  # a short decimal is exact (README: 0.5x is x/2)
    ("0.5 x", "0.54 x", ("x",)),
    ("1.0986122886681098", "\\ln 3 + 10^{-15}", ()),  # 1e-15 away: more than an ulp
    # 1.0000000000000002 is the double 1 + 2^-52: 1 rounds to another double (1.0).
    ("1.0000000000000002", "1", ()),
])
def test_outside_the_keys_precision_or_a_short_decimal_is_wrong(expected, answer, symbols):
    assert check(expected, answer, symbols=symbols).verdict == "wrong"


@pytest.mark.parametrize("text, precision", [
    ("0.5 x", 0.0),
    ("0.333333333 x", 0.0),  # 9 figures: exact
    ("0.3333333333 x", 0.5e-10 / 0.3333333333),  # 10 figures
    ("-9.42477796076938 y^2", 0.5e-14 / 9.42477796076938),
    ("1.234567890e-7 + 2.5", 0.5e-16 / 1.23456789e-7),
])
def test_own_precision(text, precision):
    assert own_precision(tree(text, "x", "y")) == pytest.approx(precision, rel=1e-12)


@pytest.mark.parametrize("answer, verdict", [
    ("0", "correct"), ("0.0", "correct"), ("0.000", "correct"), ("-0", "correct"),
    ("1e-20", "wrong"), ("0.01", "wrong"),
])
@pytest.mark.parametrize("figures", [1, 2, 3])
def test_a_zero_key_with_significant_figures_is_matched_by_exactly_zero(answer, verdict, figures):
    # Zero has no significant figures (they are counted from the first nonzero digit), and no
    # nonzero number rounds to 0 at any number of figures: only an exact 0 matches.
    result = grader.check({"kind": "numeric", "expected": 0.0, "answer": answer,
                           "sigfigs": figures, "lang": "en"})
    assert result.verdict == verdict
