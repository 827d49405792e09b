"""Issue 29 item 4, logarithms and roots at ±∞: log_b x = ln x / ln b tends to +∞ as x → ∞ for
a base b > 1 and to -∞ for 0 < b < 1 (ln b < 0); a root written as the real cube root is -∞ at
-∞, while a real power of a negative number has no value at -∞ as at -8 (the real-domain rule).
Each limit is checked against the sign of ln b, computed exactly from the base's fraction."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import grader
from grader.reading.names import Declarations
from grader.reading.parser import parse
from grader.values.extended import extended_value


def check(expected: str, answer: str) -> grader.Result:
    return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                         "symbols": []})


def tree(text: str):
    return parse(text, Declarations.of())[0]


# (the base as typed, the base as an exact fraction): the limit's sign is the sign of ln b,
# which is positive exactly when b > 1.
BASES = [("0.5", Fraction(1, 2)), ("{1/2}", Fraction(1, 2)), ("{0.1}", Fraction(1, 10)),
         ("{0.999}", Fraction(999, 1000)), ("2", Fraction(2)), ("{10}", Fraction(10)),
         ("{1.001}", Fraction(1001, 1000)), ("e", None), ("{3/2}", Fraction(3, 2))]


@pytest.mark.parametrize("base, exact", BASES)
def test_log_to_a_base_at_infinity_has_the_sign_of_ln_b(base, exact):
    expected = math.inf if exact is None or exact > 1 else -math.inf
    assert extended_value(tree(f"\\log_{base}(\\infty)")) == expected


@pytest.mark.parametrize("answer, expected", [
    ("\\log_{0.5}(\\infty)", "-\\infty"), ("\\log_{1/2}(\\infty)", "-\\infty"),
    ("log(\\infty, 1/2)", "-\\infty"), ("\\log_2(\\infty)", "\\infty"),
    ("\\log_{10}(\\infty) + 1", "\\infty"), ("-\\log_{0.5}(\\infty)", "\\infty"),
])
def test_log_limits_are_graded_as_values(answer, expected):
    result = check(expected, answer)
    assert result.verdict == "correct", (result.feedback, result.error)  # main: cannot decide


def test_a_log_limit_of_the_wrong_sign_is_wrong():
    result = check("\\infty", "\\log_{0.5}(\\infty)")
    assert result.verdict == "wrong"
    assert "-∞" in result.feedback


@pytest.mark.parametrize("text", [
    "\\log_1(\\infty)",  # ln 1 = 0: no base
    "\\log_{\\infty}(\\infty)",  # ∞/∞
    "\\log_{-2}(\\infty)",  # no real logarithm to a negative base
    "\\log_2(-\\infty)",  # outside the real domain
    "atan2(\\infty, \\infty)",  # the direction of (∞, ∞) is not a point's
])
def test_logs_without_a_limit_have_no_value(text):
    assert extended_value(tree(text)) is None


@pytest.mark.parametrize("text, value", [
    ("atan2(1, -\\infty)", math.pi), ("atan2(-1, -\\infty)", -math.pi),
    ("atan2(1, \\infty)", 0.0), ("atan2(-\\infty, 2)", -math.pi / 2),
])
def test_atan2_at_infinity_is_the_limit_of_the_angle(text, value):
    assert extended_value(tree(text)) == value


@pytest.mark.parametrize("answer", ["\\sqrt[3]{-\\infty}", "sqrt[3]{-\\infty}", "cbrt(-\\infty)",
                                    "root(-\\infty, 3)"])
def test_the_real_cube_root_of_minus_infinity(answer):
    assert check("-\\infty", answer).verdict == "correct"


@pytest.mark.parametrize("answer", ["(-\\infty)^{1/3}", "\\sqrt[5]{-\\infty}"])
def test_a_real_power_of_minus_infinity_has_no_value_as_of_minus_eight(answer):
    # the same rule as for a finite negative base: (-8)^{1/3} has no value
    assert extended_value(tree(answer)) is None
    assert extended_value(tree(answer.replace("\\infty", "8"))) is None
    assert check("-\\infty", answer).verdict == "wrong"
