"""Issue 10, item 6: numbers the way people and textbooks round them (grader/kinds/numeric.py).

Significant figures and tolerance bounds are decided on the decimals people write, never on
binary floats: 2.675 is 2.675 (the float is 2.67499999...), 2.675 to 3 figures is 2.68 (ties
away from zero), a more precise correct answer is right, the key is rounded once, bounds are
inclusive, and a zero key is matched by 0 under every tolerance kind.
"""

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.kinds.numeric import round_half_up, sigfigs_match
from grader.kinds.request import grade_request

CASES = [
    # -- significant figures: round half up on the decimal, not on the binary float ----------
    ("2.675", 2.675, {"sigfigs": 3}, True),  # the float 2.675 lies just below 2.675
    ("2.67", 2.675, {"sigfigs": 3}, False),
    ("2.675", 2.675, {"sigfigs": 3}, True),
    ("2.68", 2.675, {"sigfigs": 3}, True),
    ("1.01", 1.005, {"sigfigs": 3}, True),  # float 1.005 = 1.00499999999999989...
    ("1.00", 1.005, {"sigfigs": 3}, False),
    ("0.13", 0.125, {"sigfigs": 2}, True),  # half up, not half to even
    ("0.12", 0.125, {"sigfigs": 2}, False),
    ("3", 2.5, {"sigfigs": 1}, True),
    ("2", 2.5, {"sigfigs": 1}, False),
    ("-3", -2.5, {"sigfigs": 1}, True),  # ties away from zero: symmetric for negatives
    ("-2", -2.5, {"sigfigs": 1}, False),
    ("10.0", 9.995, {"sigfigs": 3}, True),  # rounding up carries a digit
    ("9.99", 9.995, {"sigfigs": 3}, False),
    ("10", 9.995, {"sigfigs": 3}, False),  # shows 2 figures
    # -- a more precise correct answer is right; the key is rounded once ---------------------
    ("1.04", 1.03536, {"sigfigs": 3}, True),
    ("1.035", 1.03536, {"sigfigs": 3}, True),
    ("1.0354", 1.03536, {"sigfigs": 3}, True),
    ("1.03536", 1.03536, {"sigfigs": 3}, True),
    ("1.036", 1.03536, {"sigfigs": 3}, True),  # 1.036 rounds to the key's 1.04
    ("1.03", 1.03536, {"sigfigs": 3}, False),  # truncated, not rounded
    ("1.045", 1.0449, {"sigfigs": 3}, True),  # the key to 4 figures; not rounded again to 1.05
    ("1.04", 1.0449, {"sigfigs": 3}, True),
    ("1.0449", 1.0449, {"sigfigs": 3}, True),
    ("1.05", 1.0449, {"sigfigs": 3}, False),
    ("1.0451", 1.0449, {"sigfigs": 3}, False),  # wrong in its 5th figure and rounds to 1.05
    ("1.045", 1.0445, {"sigfigs": 3}, True),  # 1.0445 to 4 figures, half up
    ("2.0000", 2.00004, {"sigfigs": 2}, True),
    ("-1.035", -1.03536, {"sigfigs": 3}, True),
    # -- what counts as a figure ---------------------------------------------------------------
    ("0.00123", 0.0012345, {"sigfigs": 3}, True),  # leading zeros are not figures
    ("0.0012", 0.0012345, {"sigfigs": 3}, False),
    ("1.23e4", 12345, {"sigfigs": 3}, True),
    ("1.23×10^4", 12345, {"sigfigs": 3}, True),
    ("-1.23×10^4", -12345, {"sigfigs": 3}, True),
    ("-1.2×10^4", -12040, {"sigfigs": 3}, False),  # regression: a negative mantissa was not counted
    ("12300", 12345, {"sigfigs": 3}, True),  # trailing zeros of a whole number count (liberal)
    ("12350", 12345, {"sigfigs": 3}, True),  # the key to 4 figures (its 0 a placeholder)
    ("1.0450", 1.0449, {"sigfigs": 3}, True),  # the key to 4 figures, a zero added
    ("12400", 12345, {"sigfigs": 3}, False),
    ("2675/1000", 2.675, {"sigfigs": 3}, True),  # computed exactly: no binary float on the way
    ("1/3", 1 / 3, {"sigfigs": 3}, True),
    ("0.5^20", 0.5**20, {"sigfigs": 3}, True),
    # -- tolerance bounds are inclusive, in decimal arithmetic -------------------------------
    ("2.2", 2, {"rtol": 0.1}, True),
    ("1.8", 2, {"rtol": 0.1}, True),
    ("2.21", 2, {"rtol": 0.1}, False),
    ("1.79", 2, {"rtol": 0.1}, False),
    ("2.20000000001", 2, {"rtol": 0.1}, False),
    ("6.0006", 6, {"rtol": 1e-4}, True),
    ("5.9994", 6, {"rtol": 1e-4}, True),
    ("6.0007", 6, {"rtol": 1e-4}, False),
    ("6.00060001", 6, {"rtol": 1e-4}, False),
    ("0.31", 0.3, {"atol": 0.01}, True),
    ("0.29", 0.3, {"atol": 0.01}, True),
    ("0.311", 0.3, {"atol": 0.01}, False),
    ("0.2899", 0.3, {"atol": 0.01}, False),
    ("0.1 + 0.2", 0.3, {"rtol": 1e-15}, True),  # exactly 0.3 in decimals
    ("101", 100, {"rtol": 0.01, "atol": 0.5}, True),  # both given: the larger bound
    ("101.01", 100, {"rtol": 0.01, "atol": 0.5}, False),
    ("3.141593", 3.14159265, {}, True),  # default: relative 1e-6
    ("3.1416", 3.14159265, {}, False),
    # -- a zero key is matched by 0 under every tolerance kind --------------------------------
    ("0", 0, {"rtol": 1e-3}, True),
    ("0.0", 0, {"rtol": 1e-3}, True),
    ("-0", 0, {"rtol": 1e-3}, True),
    ("1e-30", 0, {"rtol": 1e-3}, False),  # a relative bound around 0 is 0 itself
    ("0", 0, {"sigfigs": 3}, True),  # 0 has no significant figures to show
    ("0.00", 0, {"sigfigs": 3}, True),
    ("0.001", 0, {"sigfigs": 3}, False),
    ("0", 0, {"atol": 1e-6}, True),
    ("5e-7", 0, {"atol": 1e-6}, True),
    ("1e-6", 0, {"atol": 1e-6}, True),
    ("2e-6", 0, {"atol": 1e-6}, False),
    ("0", 0, {}, True),
    # -- the key itself, typed exactly, is never too short (regression: a key of exactly 1 --
    # -- typed as `1` was refused with "Give 3 significant figures (you gave 1)") -------------
    ("1", 1.0, {"sigfigs": 3}, True),
    ("-1", -1.0, {"sigfigs": 3}, True),
    ("2.5", 2.5, {"sigfigs": 3}, True),
    ("[1, 1.00]", [1.0, 1.0], {"sigfigs": 3}, True),
    ("1", 1.004, {"sigfigs": 3}, False),  # not the key: still too short
    ("1", 1.0000001, {"sigfigs": 3}, False),
    ("3", 2.5, {"sigfigs": 3}, False),
    ("0", 0.001, {"sigfigs": 3}, False),
    # float noise beside the key's other entries is a zero (1e-17 next to 1)
    ("[1, 0]", [1.0, 1e-17], {"rtol": 1e-3}, True),
    ("[1.00, 0]", [1.0, 1e-17], {"sigfigs": 3}, True),
    ("[1, 0]", [1.0, -3e-13], {"atol": 1e-20}, True),
    ("[1, 1e-17]", [1.0, 1e-17], {"rtol": 1e-3}, True),
    ("0", 1e-17, {"rtol": 1e-3}, False),  # alone, 1e-17 is its own scale: not a zero
    ("0", 8.9e-16, {"sigfigs": 3}, False),  # 0.5^50: tiny, and not zero
]


@pytest.mark.parametrize(("answer", "expected", "tol", "correct"), CASES)
def test_numbers_as_people_round_them(grade, answer, expected, tol, correct):
    r = grade(kind="numeric", expected=expected, answer=answer, **tol)
    assert r.correct is correct, r.feedback
    assert r.error is None


def test_too_few_figures_says_how_many(grade):
    r = grade(kind="numeric", expected=2.675, answer="2.7", sigfigs=3)
    assert not r.correct and "3 significant figures" in r.feedback and "2" in r.feedback


@pytest.mark.parametrize(("value", "figures", "rounded"), [
    ("2.675", 3, "2.68"), ("2.665", 3, "2.67"), ("2.5", 1, "3"), ("-2.5", 1, "-3"),
    ("9.995", 3, "10.0"), ("0.0012345", 3, "0.00123"), ("12345", 3, "1.23E+4"),
    ("0", 3, "0"), ("1.0449", 3, "1.04"), ("1.0445", 4, "1.045"),
])
def test_round_half_up_in_one_step(value, figures, rounded):
    assert round_half_up(Decimal(value), figures) == Decimal(rounded)


# -- laws ----------------------------------------------------------------------------------------

DECIMALS = st.builds(lambda digits, exponent, negative: Decimal(
    f"{'-' if negative else ''}{digits}E{exponent}"), st.integers(1, 10**12 - 1),
    st.integers(-20, 5), st.booleans())


def typed(value: Decimal) -> str:
    """A decimal as a learner types it, every figure shown (2.50, 1.23e-7)."""
    return f"{value:e}" if abs(value.adjusted()) > 6 else f"{value:f}"


@settings(max_examples=300, deadline=None)
@given(key=DECIMALS, figures=st.integers(1, 8), extra=st.integers(0, 4))
def test_the_key_rounded_to_at_least_n_figures_is_right(key, figures, extra):
    """Typing the key rounded (in one step, half up) to N or more figures is always right:
    a worked solution's numbers, shown more precisely than asked, are accepted."""
    shown = round_half_up(key, figures + extra)
    answer = typed(shown)
    r = grade_request({"kind": "numeric", "expected": float(key), "answer": answer,
                       "sigfigs": figures})
    assert r.correct, (str(key), answer, r.feedback)


@settings(max_examples=300, deadline=None)
@given(key=DECIMALS, figures=st.integers(1, 8), step=st.sampled_from([-1, 1]))
def test_one_unit_off_in_the_last_figure_is_wrong(key, figures, step):
    rounded = round_half_up(key, figures)
    unit = Decimal(1).scaleb(rounded.adjusted() - figures + 1)
    off = rounded + step * unit
    if off == 0 or off.adjusted() != rounded.adjusted():
        return  # the unit changes with the magnitude (9.99 + 0.01): not "one unit off"
    assert not sigfigs_match(off, key, figures, figures)


@settings(max_examples=300, deadline=None)
@given(key=DECIMALS, rtol_digits=st.integers(1, 6), sign=st.sampled_from([-1, 1]))
def test_an_answer_exactly_on_the_relative_bound_is_right(key, rtol_digits, sign):
    rtol = Decimal(1).scaleb(-rtol_digits)
    edge = key + sign * rtol * abs(key)
    r = grade_request({"kind": "numeric", "expected": float(key), "answer": typed(edge),
                       "rtol": float(rtol)})
    assert r.correct, (str(key), str(edge), r.feedback)
    beyond = key + sign * rtol * abs(key) * Decimal("1.0001")
    r = grade_request({"kind": "numeric", "expected": float(key), "answer": typed(beyond),
                       "rtol": float(rtol)})
    assert not r.correct, (str(key), str(beyond), r.feedback)


@given(key=DECIMALS, figures=st.integers(1, 8))
def test_rounding_matches_the_decimal_module(key, figures):
    """The one-step half-up rounding is Python's decimal ROUND_HALF_UP at N figures."""
    unit = Decimal(1).scaleb(key.adjusted() - figures + 1)
    assert round_half_up(key, figures) == key.quantize(unit, rounding=ROUND_HALF_UP)
