"""Issue 29: `atan2(y, x)` is the two-argument arctangent (y first, as C, numpy, SymPy, mathjs),
never atan·2·(y, x); any other built-in function name with a number glued to it before a bracket
(`exp2(3)`, `sin2(x)`) is refused as typed rather than read silently as a product. Values are
checked against exact angles (the point (x, y) on the unit circle), not the grader's output."""

import math

import pytest

from grader import check, preview
from grader.reading.names import Declarations
from grader.reading.nodes import FuncN, Num, Sym
from grader.reading.parser import parse
from grader.values.differentiate import derivative

D = Declarations.of(symbols=["x", "y"])


def expression(answer, expected, symbols=("x", "y"), lang="en"):
    return check({"kind": "expression", "expected": expected, "answer": answer,
                  "symbols": list(symbols), "lang": lang})


@pytest.mark.parametrize("text", ["atan2(y, x)", "arctan2(y, x)", "atan2(y,x)", "ATAN2(y, x)",
                                  "Atan2(y, x)", r"\arctan2(y, x)"])
def test_atan2_reads_as_one_function_of_y_then_x(text):
    assert parse(text, D)[0] == FuncN("atan2", (Sym("y"), Sym("x")))


# The angle of (x, y) in every quadrant and on the axes: (x, y) = (cos t, sin t) scaled.
@pytest.mark.parametrize(("answer", "angle"), [
    ("atan2(sqrt(3), 1)", "pi/3"), ("atan2(-sqrt(3), -1)", "-2*pi/3"),
    ("arctan2(1, -1)", "3*pi/4"), ("atan2(-1, 1)", "-pi/4"), ("atan2(0, -5)", "pi"),
    ("atan2(2, 0)", "pi/2"), ("atan2(-2, 0)", "-pi/2"), ("atan2(0, 3)", "0"),
])
def test_atan2_gives_the_angle_of_the_point(answer, angle):
    assert expression(answer, angle, symbols=()).verdict == "correct"


def test_the_argument_order_matters():
    # atan2(1, sqrt(3)) is pi/6, atan2(sqrt(3), 1) is pi/3: swapping the arguments is wrong
    assert expression("atan2(1, sqrt(3))", "pi/3", symbols=()).verdict == "wrong"
    assert expression("atan2(sqrt(3), 1)", "2*pi/3", symbols=()).verdict == "wrong"


def test_atan2_is_not_arctan_of_the_quotient_off_the_right_half_plane():
    # atan2(y, x) = arctan(y/x) for x > 0 only: at (-1, 2) they differ by pi
    assert expression("atan2(y, x)", "atan(y/x)").verdict == "wrong"
    assert expression("atan2(y, x)", "atan(y/x)", symbols=("y",)).verdict == "wrong"


def test_a_difference_below_double_precision_is_seen():
    # atan2(1, 1 + 10^-20) = pi/4 - 5e-21 + O(1e-40): doubles cannot see it, the certified check does
    assert expression("atan2(1, 1 + 10^-20)", "pi/4", symbols=()).verdict == "wrong"
    assert math.atan2(1, 1 + 1e-20) == math.pi / 4  # what floats alone would say


def test_atan2_at_the_origin_has_no_value():
    result = expression("atan2(0, 0)", "0", symbols=())
    assert result.verdict == "wrong"
    assert "undefined" in result.feedback


def test_derivative_of_atan2():
    # d/dy atan2(y, x) = x / (x^2 + y^2), d/dx atan2(y, x) = -y / (x^2 + y^2)
    assert expression("diff(atan2(y, x), y)", "x/(x^2 + y^2)").verdict == "correct"
    assert expression("diff(atan2(y, x), x)", "-y/(x^2 + y^2)").verdict == "correct"
    assert derivative(FuncN("atan2", (Sym("y"), Sym("x"))), "z") == Num(0.0, "0")


@pytest.mark.parametrize("count", ["atan2(1)", "atan2(1, 2, 3)"])
def test_atan2_wants_two_arguments(count):
    result = preview(count, symbols=["x"])
    assert result["error"] and "atan2(y, x)" in result["error"]
    zh = preview(count, symbols=["x"], lang="zh")
    assert "atan2(y, x)" in zh["error"] and "参数" in zh["error"]


@pytest.mark.parametrize("text", ["exp2(3)", "sin2(x)", "cos10(x)", "sqrt2(x)", "atan3(1)",
                                  "arcsin2(x)", "ln2(x)", "log3(x)", "log2 (8)",
                                  "EXP2(3)", "Sin2(x)", r"\sin2(x)"])
def test_a_function_name_with_a_number_glued_to_it_is_refused_not_multiplied(text):
    result = expression(text, "1", symbols=("x",))
    assert result.verdict == "unreadable"
    assert text.partition("(")[0].strip().lstrip("\\") in result.error


@pytest.mark.parametrize(("text", "read_as"), [
    ("log2(8)", "log_2(8)"), ("log10(x)", "log_10(x)"), ("sin2x", "sin(2x)"),
    ("sin 2(x)", "sin(2(x))"), ("atan 2", "atan(2)"),
])
def test_what_was_read_before_is_still_read(text, read_as):
    assert parse(text, D)[0] == parse(read_as, D)[0]


@pytest.mark.parametrize("text", ["log2x", "log10x", "LOG2x", "log2x_1", "3 + log10y",
                                  "log2 x", "log10 y", "log2 \\alpha"])
def test_log2_glued_to_a_letter_is_asked_about_not_read_as_the_natural_log_of_a_product(text):
    # numpy's log2 or log(2x)? main read log2x as ln(2x) silently, and log2 x as ln(2)·x: the
    # learner who types log2 x means numpy's log2 at least as often
    for lang, word in (("en", "log_"), ("zh", "底")):
        result = check({"kind": "expression", "expected": "x", "answer": text,
                        "symbols": ["x", "y", "x_1", "alpha"], "lang": lang})
        assert result.verdict == "unreadable"
        assert word in result.error and "log(" in result.error


@pytest.mark.parametrize(("text", "read_as"), [
    ("log2", "log(2)"), ("x log2", "x log(2)"), ("log_2x", "log_2(x)"), ("ln2x", "ln(2x)"),
    ("log 2 x", "log(2) x"), ("ln2 x", "ln(2) x"),
])
def test_log2_without_a_glued_letter_is_read_as_before(text, read_as):
    assert parse(text, D)[0] == parse(read_as, D)[0]


# LaTeX's way to typeset a name with a number: \operatorname{atan2}. main refused it ("\operatorname
# needs a name in braces"), so a learner who copied a typeset formula could not answer.
@pytest.mark.parametrize(("answer", "expected"), [
    (r"\operatorname{atan2}(\sqrt{3}, 1)", "pi/3"), (r"\operatorname{arctan2}(-1, 1)", "-pi/4"),
    (r"\operatorname{log2}(8)", "3"), (r"\operatorname{log10}(1000)", "3"),
])
def test_operatorname_with_a_number_reads_as_the_plain_name(answer, expected):
    assert expression(answer, expected, symbols=()).verdict == "correct"


@pytest.mark.parametrize("answer", [r"\operatorname{exp2}(3)", r"\operatorname{h1}",
                                    r"\mathrm{x2}"])
def test_other_names_with_a_number_are_refused_as_typed(answer):
    assert expression(answer, "8", symbols=()).verdict == "unreadable"


def test_a_subscripted_name_is_not_taken_for_a_numbered_function():
    assert expression("x_1 + x_2", "x_2 + x_1", symbols=("x_1", "x_2")).verdict == "correct"
