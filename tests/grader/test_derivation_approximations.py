"""Issue 10 item 3: a derivation line may be an approximation (≈, \\approx), as in a rounded
hand computation. It must be the line before rounded to the digits it shows (or within the
request's rtol/atol); reaching the target then allows the same tolerance."""

import pytest

from grader.kinds.derivation import Approximation, shown_precision
from grader.reading.names import Declarations
from grader.reading.parser import parse


def derive(grade, lines, start=None, target=None, **fields):
    return grade(kind="derivation", answer=lines, start=start, expected=target, **fields)


@pytest.mark.parametrize(
    ("start", "line", "status"),
    [
        ("1/3", "≈ 0.333", "verified"), ("1/3", "≈ 0.33", "verified"),
        ("1/3", "≈ 0.34", "does_not_follow"), ("2/3", "≈ 0.667", "verified"),
        ("2/3", "≈ 0.666", "does_not_follow"),  # truncated, not rounded
        ("1/8", "≈ 0.13", "verified"), ("1/8", "≈ 0.12", "verified"),  # the boundary is in
        ("pi", "≈ 3", "verified"), ("pi", "≈ 3.14", "verified"), ("pi", "≈ 3.15", "does_not_follow"),
        ("sqrt(2)", r"\approx 1.414", "verified"), ("sqrt(2)", "x ≈ 1.414", "verified"),
        ("9.54321e-7", "≈ 9.54×10^-7", "verified"), ("9.54321e-7", "≈ 9.55e-7", "does_not_follow"),
        ("exp(-1)*g", "≈ 0.37 g", "verified"), ("exp(-1)*g", "≈ 0.38 g", "does_not_follow"),
        ("x/3", "≈ 0.333 x", "verified"), ("1/3", "= 0.333", "does_not_follow"),
    ],
)
def test_an_approximate_line_is_the_line_before_rounded(grade, start, line, status):
    r = derive(grade, [line], start=start, symbols=["x", "g"])
    assert r.steps[0].status == status, r.feedback


def test_the_requests_tolerance_wins(grade):
    assert derive(grade, ["≈ 3.2"], start="pi", rtol=0.05).correct
    assert not derive(grade, ["≈ 3.2"], start="pi", rtol=0.01).correct
    assert derive(grade, ["≈ 3.2"], start="pi", atol=0.1).correct
    r = derive(grade, ["≈ 3.2"], start="pi", sigfigs=2)
    assert r.verdict == "unreadable" and "rtol" in r.error


def test_a_rounded_chain_reaches_its_target(grade):
    r = derive(grade, ["≈ 3*0.333", "= 0.999"], start="3*(1/3)", target="1")
    assert r.correct and r.reaches_target
    exact = derive(grade, ["= 0.999"], start="0.999", target="1")
    assert not exact.reaches_target  # without an approximate line, the target is exact


@pytest.mark.parametrize(("lang", "words"), [("en", "not close enough"), ("zh", "超出允许范围")])
def test_feedback_gives_the_tolerance_and_both_values(grade, lang, words):
    r = derive(grade, ["≈ 0.34"], start="1/3", lang=lang)
    assert words in r.feedback and "0.34" in r.feedback and "0.333333" in r.feedback
    assert "0.005" in r.feedback


@pytest.mark.parametrize(
    ("line", "tolerance"),
    [
        ("≈ 0.333", Approximation(atol=0.0005)), ("≈ 3", Approximation(atol=0.5)),
        ("≈ -2.50", Approximation(atol=0.005)), ("≈ 9.54×10^-7", Approximation(atol=5e-10)),
        ("≈ 0.37 g", Approximation(rtol=0.005 / 0.37)), ("≈ 2g", Approximation(rtol=1e-3)),
    ],
)
def test_the_digits_shown_give_the_tolerance(line, tolerance):
    node = parse(line, Declarations.of(symbols=["g"]))[0]
    got = shown_precision(node)
    assert got.atol == pytest.approx(tolerance.atol) and got.rtol == pytest.approx(tolerance.rtol)
