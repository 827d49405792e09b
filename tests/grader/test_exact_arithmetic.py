"""Issue 10, item 1: exact where floating point cannot see the difference.

Rational expressions are compared by the modular identity test (grader/values/exact.py); other
formulas' float agreement is confirmed, and every float difference certified, in multi-precision
arithmetic (grader/values/precise.py, grader/values/confirm.py). Every expected verdict below is
justified independently in the test: exact `Fraction` arithmetic, mpmath at 50 digits, or a
short argument in a comment.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grader
from grader.reading.parser import parse
from grader.values.exact import (
    MAX_TRIALS,
    PRIME_BITS,
    TARGET_BITS,
    identical,
    is_prime,
    random_prime,
    rational_form,
    trials_needed,
)


def check(expected: str, answer: str, symbols=("x",)) -> grader.Result:
    return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                         "symbols": list(symbols)})


POINTS = [Fraction(n, 7) for n in range(-20, 21) if n] + [Fraction(10) ** 5]

# The issue's examples, each with an independent check of its verdict.
POLY = ("(1)*x^12 + (-120)*x^11 + (6600)*x^10 + (-220000)*x^9 + (4950000)*x^8 + (-79200000)*x^7"
        " + (924000000)*x^6 + (-7920000000)*x^5 + (49500000000)*x^4 + (-220000000000)*x^3"
        " + (660000000000)*x^2 + (-1200000000000)*x + {c}")


@pytest.mark.parametrize(("expected", "answer", "symbols", "verdict", "independent"), [
    # x + 3e-9 - (x + 1e-9) = 2e-9 exactly, at every x
    ("x + 1e-9", "x + 3e-9", ["x"], "wrong",
     lambda: Fraction("3e-9") - Fraction("1e-9") == Fraction(2, 10 ** 9)),
    # 3*10^-25 and 10^-25 differ by 2*10^-25 (exact rationals)
    ("3*10^(-25)", "10^(-25)", [], "wrong", lambda: 3 * Fraction(1, 10 ** 25) != Fraction(1, 10 ** 25)),
    # 1/7 has no finite decimal expansion (7 does not divide a power of 10)
    ("1/7", "0.142857142857143", [], "wrong", lambda: Fraction(1, 7) != Fraction("0.142857142857143")),
    ("1/3", "0.3333333333333333", [], "wrong", lambda: Fraction(1, 3) != Fraction("0.3333333333333333")),
    # the polynomial is (x - 10)^12: the constant term 10^12 changed by one is another polynomial
    (POLY.format(c="1000000000000"), POLY.format(c="1000000000001"), ["x"], "wrong",
     lambda: (Fraction(3) - 10) ** 12 != (Fraction(3) - 10) ** 12 + 1),
    (POLY.format(c="1000000000000"), "(x - 10)^12", ["x"], "correct",
     lambda: all(sum(math.comb(12, k) * (-10) ** (12 - k) * p ** k for k in range(13))
                 == (p - 10) ** 12 for p in POINTS)),
    # (b - y)^4000 = ((-1)(y - b))^4000 = (y - b)^4000: an even power
    ("(y - b)^4000", "(b - y)^4000", ["b", "y"], "correct", lambda: (-1) ** 4000 == 1),
    # an odd power changes sign: at b = 2, y = 1, (y - b)^4001 = -1 and (b - y)^4001 = 1
    ("(y - b)^4001", "(b - y)^4001", ["b", "y"], "wrong", lambda: (1 - 2) ** 4001 == -1),
    ("(y - b)^4001", "-(b - y)^4001", ["b", "y"], "correct", lambda: (-1) ** 4001 == -1),
    # 2^900 x = 2^899 * 2 x, exactly (the float 2^900 is fine, but nothing may refuse it)
    ("2^900*x", "2^899*2*x", ["x"], "correct", lambda: 2 ** 900 == 2 ** 899 * 2),
    # (10^20 + x) - 10^20 = x exactly; in floats 10^20 + 2 rounds to 10^20 and the left side is 0
    ("(10^20 + x) - 10^20", "x", ["x"], "correct", lambda: (10.0 ** 20 + 2) - 10.0 ** 20 == 0),
    ("x^2 + 1e-12", "x^2", ["x"], "wrong", lambda: Fraction("1e-12") != 0),
    ("1 + 10^(-20)", "1", [], "wrong", lambda: 1 + Fraction(1, 10 ** 20) != 1),
    # decimals in an expression are exact decimals: 0.5x is x/2, 0.333 is not 1/3
    ("x/2", "0.5x", ["x"], "correct", lambda: Fraction("0.5") == Fraction(1, 2)),
    ("x/3", "0.333x", ["x"], "wrong", lambda: Fraction("0.333") != Fraction(1, 3)),
])
def test_the_issues_examples(expected, answer, symbols, verdict, independent):
    assert independent()  # the verdict's own justification
    r = check(expected, answer, symbols)
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize(("expected", "answer", "verdict"), [
    # d = 1e-40 (sin x - cos x) != 0 except where tan x = 1 (checked at 50 digits at x = 2)
    ("1e-40*sin(x)", "1e-40*cos(x)", "wrong"),
    # exp(x + 1e-12) / exp(x) = exp(1e-12) != 1
    ("exp(x + 1e-12)", "exp(x)", "wrong"),
    # asinh x = log(x + sqrt(x^2 + 1)) (DLMF 4.37.16), so the answer is 1e-9 away everywhere
    ("log(x + sqrt(x^2 + 1))", "asinh(x) + 1e-9", "wrong"),
    ("log(x + sqrt(x^2 + 1))", "asinh(x)", "correct"),
    # 1e-13 is 5 times the fast path's rounding level (2e-14 relative) where |sin x| < 1
    ("sin(x)", "sin(x) + 1e-13", "wrong"),
    # sin(x + 2 pi) = sin x: in floats 2 pi is rounded, and at x = 1e5 they differ by ~1e-11
    ("sin(x)", "sin(x + 2*pi)", "correct"),
    # sinh^2 - cosh^2 = -1 (DLMF 4.35.15); floats overflow or cancel for |x| > 20
    ("-1", "sinh(x)^2 - cosh(x)^2", "correct"),
])
def test_formulas_beyond_float_resolution(expected, answer, verdict):
    with mpmath.workdps(50):
        x = mpmath.mpf(2)
        values = {"1e-40*sin(x)": 1e-40 * mpmath.sin(x), "1e-40*cos(x)": 1e-40 * mpmath.cos(x),
                  "exp(x + 1e-12)": mpmath.exp(x + mpmath.mpf("1e-12")), "exp(x)": mpmath.exp(x)}
        if expected in values:  # the independent 50-digit difference at x = 2
            assert abs(values[expected] - values[answer]) > mpmath.mpf(10) ** -45 * abs(values[expected])
    r = check(expected, answer)
    assert r.verdict == verdict, r.feedback


def test_a_counterexample_shows_the_digits_that_differ():
    r = check("x + 1e-9", "x + 3e-9")
    # x = 2: 2.000000003 and 2.000000001 exactly (Fraction)
    assert r.counterexample.point == "x = 2"
    assert Fraction(r.counterexample.answer) == 2 + Fraction("3e-9")
    assert Fraction(r.counterexample.expected) == 2 + Fraction("1e-9")


def test_a_transcendental_counterexample_is_certified():
    """The point shown is a point where the two really differ: checked here at 50 digits."""
    r = check("1e-40*sin(x)", "1e-40*cos(x)")
    name, value = r.counterexample.point.split(" = ")
    with mpmath.workdps(50):
        x = mpmath.mpf(value)
        assert abs(mpmath.sin(x) - mpmath.cos(x)) > mpmath.mpf("1e-3")


def test_huge_exponents_up_to_the_limit_are_graded():
    # How long it takes (within 1 s) is measured by bench/bench_time_bounds.py.
    r = check("(x + 1)^10000", "(1 + x)^10000")
    assert r.verdict == "correct"


def test_exponents_beyond_the_limit_are_refused_clearly():
    r = check("x^2", "x^10001")
    assert r.verdict == "unreadable" and "10000" in r.feedback


# -- the modular test itself ------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 5, 2 ** 61 - 1, 2 ** 31 - 1, 1_000_000_007])
def test_known_primes_are_prime(n):
    assert is_prime(n)


@pytest.mark.parametrize("n", [1, 4, 561, 2 ** 61 + 1, (2 ** 31 - 1) * (2 ** 31 + 11),
                               3_215_031_751])  # 561, 3215031751: Carmichael / strong pseudoprimes
def test_composites_are_not(n):
    assert not is_prime(n)


def test_random_primes_have_the_stated_size():
    p = random_prime()
    assert 2 ** (PRIME_BITS - 1) <= p < 2 ** PRIME_BITS and is_prime(p)


def _tree(text: str, symbols=("x",)):
    from grader.reading.names import Declarations
    return rational_form(parse(text, Declarations.of(symbols=symbols))[0])


@pytest.mark.parametrize(("degree_text", "trials"), [
    # per trial: D / 2^61 + (B / 61) / 2^55; trials = ceil(60 / -log2(per trial))
    ("x + 1", 2),  # D = 2: ~2^-55 per trial (the coefficient term dominates)
    ("((x + 1)^10000)^10000", 2),  # D = 10^8 + 1: 2^-34.4 per trial
    ("(((x + 1)^10000)^10000)^10000", 3),  # D = 10^12 + 1: 2^-21.1 per trial
    ("((((x + 1)^10000)^10000)^10000)^10000", None),  # D = 10^16: 2^-7.8, beyond 6 trials
])
def test_the_error_bound_sets_the_number_of_trials(degree_text, trials):
    """(per-trial bound)^trials <= 2^-60, the module docstring's bound."""
    assert trials_needed(_tree(degree_text), _tree("x")) == trials
    if trials is not None:
        assert trials <= MAX_TRIALS and TARGET_BITS == 60


def test_non_rational_trees_are_left_to_the_float_path():
    assert _tree("sin(x)") is None and _tree("sqrt(x)") is None and _tree("x^(1/2)") is None
    assert _tree("x^(4/2)") is not None  # a whole exponent, however written


def test_undefined_everywhere_is_not_decided_here():
    assert identical(_tree("1/(x - x)"), _tree("1")) is None


# -- properties -------------------------------------------------------------------------------

coefficients = st.lists(st.integers(-10 ** 12, 10 ** 12), min_size=2, max_size=9)


def _poly(cs: list[int]) -> str:
    return " + ".join(f"({c})*x^{k}" for k, c in enumerate(cs))


@settings(max_examples=40, deadline=None)
@given(coefficients, st.data())
def test_a_polynomial_with_one_coefficient_changed_by_one_is_wrong(cs, data):
    k = data.draw(st.integers(0, len(cs) - 1))
    changed = list(cs)
    changed[k] += data.draw(st.sampled_from([-1, 1]))
    # independent: the two differ by +-x^k, which is nonzero at x = 1
    assert sum(changed) != sum(cs)
    assert check(_poly(cs), _poly(changed)).verdict == "wrong"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=4), st.integers(1, 3))
def test_factored_and_expanded_forms_are_right(roots, power):
    factored = "*".join(f"(x - ({r}))^{power}" for r in roots)
    # expand prod (x - r)^power with exact integers
    poly = [1]
    for r in roots:
        for _ in range(power):
            poly = [a - r * b for a, b in zip([0] + poly, poly + [0], strict=True)]
    assert all(sum(c * p ** k for k, c in enumerate(poly)) ==
               math.prod((p - r) ** power for r in roots) for p in POINTS)
    assert check(factored, _poly(poly)).verdict == "correct"


# Cases of the kind other answer checkers test (written here in our own words): exact decimals,
# huge powers, a long polynomial off by one, infinity as a value.
@pytest.mark.parametrize(("expected", "answer", "symbols", "verdict"), [
    ("1/3", "0.333333333333333", [], "wrong"),  # 3 * 0.333333333333333 = 0.999999999999999
    # 1/5.1 = 10/51 = 0.19607843137254901...: the 12-digit decimal is another exponent
    ("2^(0.196078431373*t)", "2^((1/5.1)*t)", ["t"], "wrong"),
    ("(x-a)^6000", "(a-x)^6000", ["x", "a"], "correct"),  # an even power
    ("(x-4*a)^6000", "(4*a-x)^6000", ["x", "a"], "correct"),
    ("(x-a)^5999", "(x-a)^6000", ["x", "a"], "wrong"),  # x - a = -1: -1 and 1
    # degree 13, integer coefficients; the answer is 1 less everywhere
    ("512*(2*x+5)^7*(5*x-1)^5*(70*x+67)", "512*(2*x+5)^7*(5*x-1)^5*(70*x+67) - 1", ["x"], "wrong"),
    ("inf", "inf", [], "correct"),  # infinity is a value
    ("inf", "-inf", [], "wrong"),
    ("inf", "5", [], "wrong"),
    # x > 2 is the real domain of (x - 2)^(3k) for most k: sampled inside it
    ("6*(x-2)^(3*k)", "6*((x-2)^3)^k", ["x", "k"], "correct"),
    # the real domain (0.5, 0.6) is found by a scan, then sampled inside
    ("log(x - 0.5) + log(0.6 - x)", "log((x - 0.5)*(0.6 - x))", ["x"], "correct"),
    ("log(x - 0.5) + log(0.6 - x)", "log((x - 0.5)*(0.61 - x))", ["x"], "wrong"),
])
def test_cases_like_other_checkers(expected, answer, symbols, verdict):
    assert Fraction(10, 51) != Fraction("0.196078431373")
    assert 3 * Fraction("0.333333333333333") != 1
    r = check(expected, answer, symbols)
    assert r.verdict == verdict, r.feedback


def test_a_non_real_intermediate_makes_the_point_undefined():
    """log_a(a^x) at a = -1, x = 2: a^x = 1, but log(-1) is not real, so the answer is undefined
    there, not log(1)/log(-1) = 0. For a > 0 it is x (log_a a^x = x log a / log a): right where
    both are real, and the note names a point where the answer is not, never a value 0."""
    r = check("x", "log(a^x, a)", ["x", "a"])
    assert r.verdict == "correct", r.feedback
    assert "your answer is undefined" in r.feedback and "is 0" not in r.feedback
    a = float(re.search(r"a = (-?[\d.]+)", r.feedback).group(1))
    assert a < 0  # log a has no real value there


@pytest.mark.parametrize(("expected", "answer", "path", "status"), [
    ("(x + 1)^2", "x^2 + 2*x + 1", "exact", "equal"),  # rational: the modular test decides
    ("(x + 1)^2", "x^2 + 2*x + 2", "exact", "different"),
    ("sin(2*x)", "2*sin(x)*cos(x)", "float", "equal"),  # rounding-level agreement: fast path
    ("exp(x + 1e-12)", "exp(x)", "precise", "different"),  # not at rounding level: mpmath
    ("sin(2*x)", "2*sin(x)", "precise", "different"),  # a float difference is certified
])
def test_which_check_decides(expected, answer, path, status):
    from grader.kinds.expression import full_verdict, prepare
    from grader.reading.names import Declarations

    decls = Declarations.of(symbols=["x"])
    verdict = full_verdict(parse(answer, decls)[0], prepare(expected, decls), None)
    assert (verdict.path, verdict.status) == (path, status)
