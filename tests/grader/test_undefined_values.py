"""Issue 10, item 7: undefined values are not wrong answers (grader/kinds/exact_decimal.py).

`1/0`, `0/0`, `log(0)`, `0^-1` have no value: such an answer is unreadable (not an attempt) and
says what is undefined, in numeric, expression and derivation questions alike. Infinity (`inf`,
`infinity`, `∞`, `-inf`) is a value: it is read and graded, wrong for a finite key. A wrong
verdict on an answer without variables says the answer's value, never "For example, with —".
"""

import warnings

import pytest

import grader

UNDEFINED_NUMBERS = [
    ("1/0", "1/0 is undefined"),
    ("0/0", "0/0 is undefined"),
    ("-1/0", "-1/0 is undefined"),
    ("log(0)", "log(0) is undefined"),
    ("ln(1 - 1)", "log(0) is undefined"),
    ("0^-1", "0^-1 is undefined"),
    ("0^(-1/2)", "0^-0.5 is undefined"),
    ("1/(0.1 + 0.2 - 0.3)", "1/0 is undefined"),  # exactly 0 in decimals, 5.6e-17 in floats
    ("2 + 3/(2 - 2)", "3/0 is undefined"),
    ("inf - inf", "∞ - ∞ is undefined"),
    ("0*inf", "0·∞ is undefined"),
    ("[1/0, 1]", "1/0 is undefined"),
    ("[[1, 2], [3, log(0)]]", "log(0) is undefined"),
    # the functions of every notation (issue 10 item 3) have their poles too
    ("log_2(0)", "log_2(0) is undefined"),
    ("log(0, 10)", "log_10(0) is undefined"),
    ("lg 0", "log_10(0) is undefined"),
    ("log(5, 1)", "log_1(5) is undefined"),
    ("cot(0)", "cot(0) is undefined"),
    ("csc(0)", "csc(0) is undefined"),
    ("coth(0)", "coth(0) is undefined"),
    ("arctanh(1)", "atanh(1) is undefined"),
    ("1/sign(0)", "1/0 is undefined"),
]


@pytest.mark.parametrize(("answer", "what"), UNDEFINED_NUMBERS)
def test_an_undefined_number_is_unreadable_and_says_what(answer, what):
    expected = [1.0, 1.0] if answer.startswith("[1/") else \
        [[1, 2], [3, 4]] if answer.startswith("[[") else 2.0
    r = grader.check({"kind": "numeric", "expected": expected, "answer": answer, "rtol": 1e-3})
    assert r.verdict == "unreadable" and r.error, r.feedback
    assert what in r.feedback, r.feedback


@pytest.mark.parametrize(("answer", "value"), [("sec(0)", 1), ("arccos(0)", 1.5707963267949),
                                               ("log(8, 2)", 3), ("sign(-3)", -1),
                                               ("max(1, 2)", 2), ("arctanh(0.5)", 0.549306144334)])
def test_those_functions_elsewhere_have_values(answer, value):
    r = grader.check({"kind": "numeric", "expected": value, "answer": answer, "rtol": 1e-9})
    assert r.correct, r.feedback


@pytest.mark.parametrize("answer", ["arcsin(2)", "acosh(0.5)", "sqrt(-4)", "log(-1)"])
def test_outside_the_real_domain_is_not_a_real_number(answer):
    r = grader.check({"kind": "numeric", "expected": 2.0, "answer": answer})
    assert r.verdict == "unreadable" and "not a real number" in r.error, r.feedback


@pytest.mark.parametrize("expected", [0.0, 2.0])
def test_undefined_also_for_a_zero_key(expected):
    r = grader.check({"kind": "numeric", "expected": expected, "answer": "1/0"})
    assert r.verdict == "unreadable"


def test_undefined_in_chinese():
    r = grader.check({"kind": "numeric", "expected": 2.0, "answer": "1/0", "lang": "zh"})
    assert "1/0 无定义" in r.feedback


@pytest.mark.parametrize("answer", ["inf", "infinity", "Infinity", "infty", "∞", "-inf", "-∞", r"\infty",
                                    "oo", "2*inf", "10^3 + inf"])
def test_infinity_is_read_and_wrong_for_a_finite_key(answer):
    r = grader.check({"kind": "numeric", "expected": 2.0, "answer": answer, "rtol": 1e-3})
    assert r.verdict == "wrong" and r.error is None, r.feedback
    assert "infinite" in r.feedback and r"\infty" in r.interpreted


def test_an_infinite_entry_is_one_wrong_entry():
    r = grader.check({"kind": "numeric", "expected": [1.0, 2.0], "answer": "[1, inf]"})
    assert r.verdict == "partial" and "at entry 2." in r.feedback


@pytest.mark.parametrize("answer", ["nan", "NaN", "-nan"])
def test_nan_is_still_refused(answer):
    r = grader.check({"kind": "numeric", "expected": 2.0, "answer": answer})
    assert r.verdict == "unreadable" and "NaN" in r.error


@pytest.mark.parametrize(("answer", "what"), [
    ("1/0", "1/0 is undefined"),
    ("x^2 + 1/0", "1/0 is undefined"),
    ("x/0", "x/0 is undefined"),
    ("(x + 1)/(1 - 1)", "(x + 1)/0 is undefined"),
    ("sin(x)/0", "sin(x)/0 is undefined"),
    ("x*log(0)", "log(0) is undefined"),
    ("x + 0^-1", "0^-1 is undefined"),
    ("1/(x - x)", "divides by x - x, which is 0 for every value"),
    ("log(x - x)", "logarithm of x - x, which is 0 for every value"),
    ("(x - x)^(-2)", "raises x - x to a negative power"),
])
def test_an_undefined_formula_is_unreadable(answer, what):
    r = grader.check({"kind": "expression", "expected": "x^2", "answer": answer,
                      "symbols": ["x"]})
    assert r.verdict == "unreadable" and r.error, r.feedback
    assert what in r.feedback


@pytest.mark.parametrize("answer", ["1/x", "log(x)", "x^-1 + 1/(x - 1)"])
def test_a_formula_undefined_at_some_points_is_graded(answer):
    """Undefined somewhere is not undefined everywhere: such an answer is simply wrong here."""
    r = grader.check({"kind": "expression", "expected": "x^2", "answer": answer,
                      "symbols": ["x"]})
    assert r.verdict == "wrong", r.feedback


@pytest.mark.parametrize("answer", ["inf", "x + inf"])
def test_infinity_in_a_formula_is_read_and_wrong(answer):
    r = grader.check({"kind": "expression", "expected": "x^2", "answer": answer,
                      "symbols": ["x"]})
    assert r.verdict == "wrong", r.feedback


def test_an_undefined_derivation_line_is_unreadable_and_skipped():
    r = grader.check({"kind": "derivation", "start": "x^2", "expected": "x*x",
                      "answer": ["1/0", "x*x"], "symbols": ["x"]})
    statuses = [s.status.value for s in r.steps]
    assert statuses == ["unreadable", "verified"]  # line 2 follows from the start, line 0
    assert "1/0 is undefined" in r.steps[0].feedback


@pytest.mark.parametrize(("answer", "expected", "value"), [
    ("1/2", "1/3", "0.5"), ("2", "3", "2"), ("sqrt(2)", "2", "1.41421"),
])
def test_a_wrong_number_in_a_formula_question_says_its_value_not_for_example(
        answer, expected, value):
    r = grader.check({"kind": "expression", "expected": expected, "answer": answer})
    assert r.verdict == "wrong"
    assert "—" not in r.feedback and "For example" not in r.feedback, r.feedback
    assert f"Your answer equals {value}" in r.feedback
    assert "0.333" not in r.feedback  # the expected value is not given away


def test_a_wrong_constant_line_of_a_derivation_gives_both_values():
    r = grader.check({"kind": "derivation", "start": "1/2", "answer": ["0.5", "1/3"],
                      "lang": "zh"})
    feedback = r.steps[1].feedback
    # 1/3 is computed exactly and shown rounded, marked so ("…"); 0.5 is exact.
    assert "—" not in feedback and "这一行等于 0.333333…，第 1 行等于 0.5" in feedback


@pytest.mark.parametrize(("expected", "answer", "point"), [
    ("1/(x*(x + 1))", "1/x + 1/(x + 1)", "x = 2"),  # both infinite at x = -1, a nice point
    ("log((1 + x)/(1 - x))", "log(1 + x) + log(1 - x)", "x = 0.5"),
])
def test_points_where_both_formulas_blow_up_raise_no_warning(expected, answer, point):
    """Regression: decide.compare_values computed inf - inf there ("invalid value encountered
    in subtract", seen in every corpus run); such a point is simply not valid."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = grader.check({"kind": "expression", "expected": expected, "answer": answer,
                          "symbols": ["x"]})
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert r.verdict == "wrong" and f"For example, with {point}:" in r.feedback


def test_every_built_in_function_has_a_decimal_rule():
    """A new function needs a rule in kinds/exact_decimal.py too (its poles and real domain),
    or a reason to use its float value: arccot's value at 0 depends on the convention."""
    from grader.kinds.exact_decimal import _FUNCTIONS
    from grader.reading.nodes import BUILTIN_FUNCTIONS

    float_only = {"arccot"}
    assert set(BUILTIN_FUNCTIONS) - set(_FUNCTIONS) <= float_only
