"""Issue 29 item 7: declared domains (`positive`, `nonnegative`, `integers`) respected by every
check, and the one real-domain rule, the same in both directions: two formulas are equal when
they agree wherever both are real and are real together on enough of the domain; a right answer
whose real domain differs carries a note (grader/README.md, "Declared domains and the one
real-domain rule").

Verdicts are checked against exact arithmetic, not against the grader: at the point a feedback
names, Python's `math` (which raises ValueError outside a real function's domain) and
`fractions` say which side is undefined and what the other side's value is.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction

import pytest

import grader
from grader.kinds.request import grade_request


def expression(answer, expected, lang="en", **decls):
    return grade_request({"kind": "expression", "answer": answer, "expected": expected,
                          "lang": lang, **decls})


def step(before, line, lang="en", **decls):
    """A derivation of one step: `line` after the starting line `before`."""
    return grade_request({"kind": "derivation", "start": before, "answer": [line],
                          "lang": lang, **decls})


def undefined(function, *args) -> bool:
    """Whether a real function has no value there (math raises a domain error)."""
    try:
        function(*args)
    except (ValueError, ZeroDivisionError):
        return True
    return False


def point_of(text: str) -> dict[str, Fraction]:
    """The names' values a counterexample names ("with x = -1, y = 2:")."""
    return {name: Fraction(value) for name, value in re.findall(r"(\w+) = (-?[\d./]+)", text)}


# --- item 1: declared domains make the textbook identities right ------------------------------

POSITIVE_X = {"symbols": ["x"], "positive": ["x"]}


@pytest.mark.parametrize(("answer", "expected", "witness"), [
    # both real everywhere, wrong without the declaration: at x = -1, in exact arithmetic
    ("\\sqrt{x^2}", "x", lambda: math.sqrt((-1) ** 2) != -1),
    ("|x|", "x", lambda: abs(-1) != -1),
])
def test_with_x_declared_positive_the_identities_are_right(answer, expected, witness):
    assert witness()
    assert expression(answer, expected, **POSITIVE_X).verdict == "correct"
    assert step(expected, answer, **POSITIVE_X).steps[0].status == "verified"
    assert step(answer, expected, **POSITIVE_X).steps[0].status == "verified"
    undeclared = expression(answer, expected, symbols=["x"])
    assert undeclared.verdict == "wrong", undeclared.feedback


@pytest.mark.parametrize(("answer", "expected", "witness"), [
    # one side has no real value at x = -1 (math raises): right either way, and the note is
    # needed only where the question has not said x > 0
    ("\\sqrt{x}\\sqrt{x}", "x", lambda: undefined(math.sqrt, -1)),
    ("\\ln(x^2)", "2\\ln x", lambda: undefined(math.log, -1)),
])
def test_a_declaration_removes_the_note_of_a_domain_difference(answer, expected, witness):
    assert witness()
    declared = expression(answer, expected, **POSITIVE_X)
    assert declared.verdict == "correct" and declared.feedback == "Correct."
    undeclared = expression(answer, expected, symbols=["x"])
    assert undeclared.verdict == "correct"
    assert "Equal where both are defined" in undeclared.feedback


def test_nonnegative_samples_zero_too():
    """sign(0) = 0, not 1: right for x > 0, wrong for x >= 0, and the point named is x = 0."""
    assert expression("\\operatorname{sign}(x)", "1", **POSITIVE_X).verdict == "correct"
    wrong = expression("\\operatorname{sign}(x)", "1", symbols=["x"], nonnegative=["x"])
    assert wrong.verdict == "wrong"  # before issue 29 no sample was 0: "correct"
    assert point_of(wrong.feedback) == {"x": 0}
    assert wrong.counterexample.answer == "0" and wrong.counterexample.expected == "1"


@pytest.mark.parametrize(("answer", "expected"), [
    ("\\frac{x^2}{x}", "x"),  # removable at x = 0: x^2/x tends to 0
    ("x", "\\frac{x^2}{x}"),
    ("\\frac{|x|}{x}", "1"),  # for x >= 0 the limit at 0 is taken from above: 1
    ("\\sqrt{x}\\sqrt{x}", "x"),
])
def test_a_removable_point_at_zero_is_not_a_difference(answer, expected):
    result = expression(answer, expected, symbols=["x"], nonnegative=["x"])
    assert result.verdict == "correct", result.feedback


def test_the_one_sided_limit_is_the_declared_one():
    """Undeclared, |x|/x is -1 for x < 0: wrong for 1, and the example shows it exactly."""
    wrong = expression("\\frac{|x|}{x}", "1", symbols=["x"])
    assert wrong.verdict == "wrong"
    x = point_of(wrong.feedback)["x"]
    assert x < 0 and abs(x) / x == -1


@pytest.mark.parametrize(("answer", "expected"), [
    ("(-1)^{2n}", "1"),
    ("\\sin(\\pi n)", "0"),
    ("\\cos(2\\pi n)", "1"),
])
def test_integers_are_sampled_at_whole_numbers_only(answer, expected):
    assert expression(answer, expected, integers=["n"]).verdict == "correct"
    assert step(expected, answer, integers=["n"]).steps[0].status == "verified"
    # as a real variable they differ: at n = 1/2, sin(pi/2) = 1 and (-1)^1 = -1 (not 1)
    assert expression(answer, expected, symbols=["n"]).verdict == "wrong"


def test_a_name_the_question_uses_as_a_bound_is_an_integer_without_a_declaration():
    """n bounds a sum, so it is whole: (-1)^{2n} is 1 there, cos(pi n) is not (n = 3: -1)."""
    assert grader.check({"kind": "expression", "answer": "(-1)^{2n}\\sum_{i=1}^{n} i",
                         "expected": "\\frac{n(n+1)}{2}"}).verdict == "correct"
    wrong = grader.check({"kind": "expression", "answer": "\\cos(\\pi n)\\sum_{i=1}^{n} i",
                          "expected": "\\frac{n(n+1)}{2}"})
    n = int(point_of(wrong.feedback)["n"])
    assert wrong.verdict == "wrong" and n % 2 == 1
    assert Fraction(wrong.counterexample.answer) == -Fraction(n * (n + 1), 2)


def test_a_positive_integer_starts_at_one():
    """0^n is 0 for n >= 1 and 1 at n = 0 (0^0 = 1, as the README says)."""
    assert 0 ** 0 == 1 and all(0 ** n == 0 for n in range(1, 10))
    assert expression("0^n", "0", integers=["n"]).verdict == "wrong"
    assert expression("0^n", "0", integers=["n"], positive=["n"]).verdict == "correct"


def test_a_counterexample_stays_inside_the_declared_domain():
    """|x - 1| and x - 1 differ only below 1: for x > 0 the point shown is in (0, 1), never
    the x = -1 that the search for small values reaches first (before issue 29: x = -1)."""
    wrong = expression("|x - 1|", "x - 1", **POSITIVE_X)
    assert wrong.verdict == "wrong"
    x = point_of(wrong.feedback)["x"]
    assert 0 < x < 1
    assert Fraction(wrong.counterexample.answer) == abs(x - 1)
    assert Fraction(wrong.counterexample.expected) == x - 1


def test_an_exact_counterexample_stays_inside_the_declared_domain():
    """Two rational expressions are told apart exactly (the modular test) at a hand-checkable
    point: (x-1)(x-2)(x-3) + x equals x at 1, 2, 3, and the next nice value, -1, is not
    positive, so the point shown is x = 1/2 (before issue 29: a random point)."""
    wrong = expression("x", "(x-1)(x-2)(x-3) + x", **POSITIVE_X)
    x = point_of(wrong.feedback)["x"]
    assert x == Fraction(1, 2)
    assert Fraction(wrong.counterexample.answer) == x
    assert Fraction(wrong.counterexample.expected) == (x - 1) * (x - 2) * (x - 3) + x


# --- item 2: the one real-domain rule, the same in both directions ---------------------------

# (a, b, the real function of the side that is undefined at the named point, the other side):
# equal wherever both are real (sqrt(x)^2 = x for x >= 0, DLMF 4.8.2 for positive arguments)
BOTH_WAYS = [
    ("\\sqrt{x}\\sqrt{x}", "x",
     lambda p: math.sqrt(p["x"]) ** 2, lambda p: p["x"]),
    ("\\sqrt{x-3}\\sqrt{x-5}", "\\sqrt{(x-3)(x-5)}",
     lambda p: math.sqrt(p["x"] - 3) * math.sqrt(p["x"] - 5),
     lambda p: math.sqrt((p["x"] - 3) * (p["x"] - 5))),
    ("2\\ln x", "\\ln(x^2)", lambda p: 2 * math.log(p["x"]), lambda p: math.log(p["x"] ** 2)),
    ("\\ln x + \\ln y", "\\ln(xy)",
     lambda p: math.log(p["x"]) + math.log(p["y"]), lambda p: math.log(p["x"] * p["y"])),
]


@pytest.mark.parametrize(("narrow", "wide", "narrow_value", "wide_value"), BOTH_WAYS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_difference_in_real_domain_alone_is_right_with_a_note_either_way_round(
        narrow, wide, narrow_value, wide_value, lang):
    """Before the lead's decision on issue 29 both directions were wrong; before issue 29 only
    the first. The note names a point where the narrow side has no real value (checked with
    math) and the wide side's value there (checked too)."""
    for answer, expected, answer_is_undefined in ((narrow, wide, True), (wide, narrow, False)):
        result = expression(answer, expected, lang, symbols=["x", "y"])
        assert result.verdict == "correct", (answer, expected, result.feedback)
        found = re.search(r"(?:at|取) ((?:\w+ = -?[\d./]+(?:, )?)+)", result.feedback)
        point = {n: float(v) for n, v in point_of(found.group(1)).items()}
        assert undefined(narrow_value, point)
        if lang == "en":
            side = "your answer is undefined" if answer_is_undefined else \
                "the expected answer is undefined"
            value = re.search(r"(?:answer|expected answer) is (≈ )?(-?[\d.]+)\.$",
                              result.feedback).group(2)
            assert result.feedback.startswith("Correct. Equal where both are defined; at ")
        else:
            side = "你的答案无定义" if answer_is_undefined else "标准答案无定义"
            value = re.search(r"等于 (≈ )?(-?[\d.]+)。$", result.feedback).group(2)
            assert result.feedback.startswith("正确。两者在都有定义处相等")
        assert side in result.feedback
        assert float(value) == pytest.approx(wide_value(point), rel=1e-5)


@pytest.mark.parametrize(("narrow", "wide"), [(a, b) for a, b, _, _ in BOTH_WAYS])
def test_a_derivation_step_gets_one_verdict_whichever_line_comes_first(narrow, wide):
    names = {"symbols": ["x", "y"]}
    forward, backward = step(narrow, wide, **names), step(wide, narrow, **names)
    assert forward.steps[0].status == backward.steps[0].status == "verified"
    assert "the starting line is undefined" in forward.steps[0].feedback
    assert "this line is undefined" in backward.steps[0].feedback
    zh = step(narrow, wide, lang="zh", **names)
    assert "起始式无定义" in zh.steps[0].feedback and "这一行等于" in zh.steps[0].feedback


@pytest.mark.parametrize(("answer", "expected", "why"), [
    # every rule still catches a sign slip or a branch slip where both are real
    ("\\sqrt{x^2}", "x", lambda: math.sqrt((-2) ** 2) != -2),
    ("|x|", "x", lambda: abs(-2) != -2),
    ("-x", "\\sqrt{x}\\sqrt{x}", lambda: -2 != math.sqrt(2) ** 2),
    ("-2\\ln x", "\\ln(x^2)", lambda: -2 * math.log(2) != math.log(4)),
])
def test_a_difference_where_both_are_real_stays_wrong_both_ways(answer, expected, why):
    assert why()
    assert expression(answer, expected, symbols=["x"]).verdict == "wrong"
    assert expression(expected, answer, symbols=["x"]).verdict == "wrong"
    assert step(expected, answer, symbols=["x"]).steps[0].status == "does_not_follow"
    assert step(answer, expected, symbols=["x"]).steps[0].status == "does_not_follow"


@pytest.mark.parametrize(("answer", "expected", "decls", "why"), [
    # real nowhere: -x^2 - 1 <= -1 < 0 for every real x; no vacuous "equal"
    ("\\sqrt{-x^2-1}", "1", {}, lambda x: -x * x - 1 < 0),
    # real together only at the single point x = 0: x >= 0 and -x >= 0
    ("\\sqrt{x}+\\sqrt{-x}", "0", {}, lambda x: not (x >= 0 and -x >= 0) or x == 0),
    ("\\sqrt{x}+\\sqrt{-x}", "0", {"nonnegative": ["x"]},
     lambda x: not (x >= 0 and -x >= 0) or x == 0),
])
def test_formulas_real_together_on_too_little_are_different(answer, expected, decls, why):
    assert all(why(Fraction(x, 7)) for x in range(-70, 71))
    result = expression(answer, expected, symbols=["x"], **decls)
    assert result.verdict == "wrong", result.feedback
    assert "your answer is undefined" in result.feedback


@pytest.mark.parametrize(("answer", "expected", "answer_value", "expected_value"), [
    ("\\sqrt{x - 1000}", "\\sqrt{x} - \\sqrt{1000}",
     lambda x: math.sqrt(x - 1000), lambda x: math.sqrt(x) - math.sqrt(1000)),
    ("\\ln(x - 500)", "\\ln x - \\ln 500",
     lambda x: math.log(x - 500), lambda x: math.log(x) - math.log(500)),
])
def test_a_value_difference_is_shown_where_both_are_real(answer, expected, answer_value,
                                                         expected_value):
    """Wrong because the values differ above 1000 (500), not because the answer is undefined at
    the hand-checkable x = 2, which the shown point was before (a sentence about domains for a
    difference in values)."""
    result = expression(answer, expected, symbols=["x"])
    assert result.verdict == "wrong" and "undefined" not in result.feedback
    x = float(point_of(result.counterexample.point)["x"])
    assert float(result.counterexample.answer.lstrip("≈ ")) == pytest.approx(answer_value(x),
                                                                            rel=1e-5)
    assert float(result.counterexample.expected.lstrip("≈ ")) == pytest.approx(
        expected_value(x), rel=1e-5)


def test_a_shared_domain_the_first_samples_barely_meet_is_found():
    """1 + 0·ln(x - 1000) is 1 wherever it is real (x > 1000), an interval: right, and the note
    names a point below 1000 where ln(x - 1000) has no real value."""
    result = expression("1 + 0\\ln(x - 1000)", "1", symbols=["x"])
    assert result.verdict == "correct", result.feedback
    x = point_of(result.feedback.partition("; at ")[2])["x"]
    assert undefined(math.log, float(x - 1000))


def test_an_approximate_step_follows_the_same_rule():
    """`≈ x` after √x·√x: within rtol where both are real (before the lead's decision on issue
    29 x = -1.13, real only on this line, made it not follow); `≈ \\sqrt{-x^2-1}` is real
    nowhere and does not follow."""
    def approx(last, **decls):
        return grade_request({"kind": "derivation", "answer": ["\\sqrt{x}\\sqrt{x}", last],
                              "rtol": 1e-6, **decls})

    undeclared = approx("\\approx x").steps[1]
    assert undeclared.status == "verified"
    assert undeclared.feedback.startswith("Equal where both are defined; at x = -1 line 1 is "
                                          "undefined")
    assert undefined(math.sqrt, -1)
    declared = approx("\\approx x", symbols=["x"], positive=["x"]).steps[1]
    assert declared.status == "verified" and declared.feedback == ""
    assert approx("\\approx -x").steps[1].status == "does_not_follow"
    nowhere = approx("\\approx \\sqrt{-x^2-1}")
    assert nowhere.steps[1].status == "does_not_follow"
    assert undefined(math.sqrt, -float(point_of(nowhere.feedback)["x"]) ** 2 - 1)


@pytest.mark.parametrize(("a", "b", "decls"), [
    ("\\frac{x^2-1}{x-1}", "x+1", {}),  # a hole at x = 1 of one side only
    ("\\frac{(n+1)!}{(n-1)!}", "n(n+1)", {}),  # poles of the gamma function that cancel
    ("\\frac{(n+1)!}{(n-1)!}", "n(n+1)", {"integers": ["n"]}),  # at n = 0 too
])
def test_a_removable_point_is_not_a_difference_either_way_round(a, b, decls):
    assert math.factorial(1) // 1 == 0 * (0 + 1) + 1  # (0+1)!/(0-1)! has the limit 0 = 0(0+1)
    for answer, expected in ((a, b), (b, a)):
        result = expression(answer, expected, **decls)
        assert result.verdict == "correct", (answer, expected, result.feedback)


def test_an_expected_answer_real_nowhere_is_no_domain_to_compare():
    result = grade_request({"kind": "expression", "expected": "sqrt(-1 - x^2) + F(x)",
                            "answer": "F(x)", "functions": ["F"]}, symbolic=True)
    assert result.verdict != "wrong" and result.error is not None


# --- one schema: the JSON Lines request reads the same fields --------------------------------

def test_the_json_lines_request_reads_the_domain_fields():
    requests = [
        {"id": "p", "kind": "expression", "expected": "x", "answer": "\\sqrt{x}\\sqrt{x}",
         "symbols": ["x"], "positive": ["x"]},
        {"id": "z", "kind": "expression", "expected": "1", "answer": "sign(x)",
         "symbols": ["x"], "nonnegative": ["x"]},
        {"id": "n", "kind": "derivation", "start": "(-1)^{2n}", "answer": ["1"],
         "integers": ["n"]},
        {"id": "u", "kind": "expression", "expected": "x", "answer": "\\sqrt{x}\\sqrt{x}",
         "symbols": ["x"]},
    ]
    proc = subprocess.run([sys.executable, "-m", "grader", "check"],
                          input="\n".join(json.dumps(r) for r in requests) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = {o["id"]: o for o in map(json.loads, proc.stdout.splitlines())}
    assert out["p"]["correct"] and out["n"]["correct"] and out["u"]["correct"]
    assert not out["z"]["correct"]
    assert out["p"]["feedback"] == "Correct."  # x > 0: the domains are the same
    assert "Equal where both are defined; at x = -1" in out["u"]["feedback"]


def test_a_domain_of_an_undeclared_name_is_refused_with_the_fix():
    result = grader.check({"kind": "expression", "expected": "x", "answer": "x",
                           "positive": ["y"], "symbols": ["x"]})
    assert result.error is not None and "positive names must be declared" in result.error


def test_the_symbolic_check_takes_the_declared_domains_as_assumptions():
    """What sampling leaves undecided goes to sympy with the same domains: sqrt(x^2) - x is 0
    for a positive x and not provably 0 for a real one; sin(pi n) is 0 for an integer n."""
    from grader.reading.names import Declarations
    from grader.reading.parser import parse
    from grader.symbolic.equality import symbolic_equal
    from grader.values.domains import Domains

    def tree(text):
        return parse(text, Declarations.of(["x", "n"]))[0]

    assert symbolic_equal(tree("sqrt(x^2)"), tree("x")) is None
    assert symbolic_equal(tree("sqrt(x^2)"), tree("x"), Domains(positive=frozenset("x")))
    assert symbolic_equal(tree("sin(pi*n)"), tree("0"), Domains(integers=frozenset("n")))


# --- the rule is symmetric: every pair, both ways round ---------------------------------------

FORMULAS = ["x", "-x", "|x|", "\\sqrt{x}\\sqrt{x}", "\\sqrt{-x}\\sqrt{-x}", "\\sqrt{x^2}",
            "e^{\\ln x}", "(x^3)^{1/3}", "\\sqrt[3]{x^3}", "\\ln(x^2)/2", "\\ln x", "\\ln|x|"]


@pytest.mark.parametrize("a", FORMULAS)
def test_an_answer_and_its_key_swapped_get_one_verdict(a):
    """Equal where both are real is a symmetric relation: for every pair of these formulas the
    expression verdict and the derivation step are the same whichever side is the key, and a
    step and its reverse agree (before the lead's decision on issue 29 this held too, with the
    opposite verdict for the pairs whose domains differ; before issue 29 it did not)."""
    for b in FORMULAS:
        forward = expression(a, b, symbols=["x"]).verdict
        assert forward == expression(b, a, symbols=["x"]).verdict, (a, b)
        assert forward in ("correct", "wrong"), (a, b, forward)
        steps = {step(a, b, symbols=["x"]).steps[0].status,
                 step(b, a, symbols=["x"]).steps[0].status}
        assert steps == {"verified" if forward == "correct" else "does_not_follow"}, (a, b)
