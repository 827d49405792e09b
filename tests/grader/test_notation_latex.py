"""Issue 10 item 3, class notation-latex: LaTeX operator names (\\sec, \\arcsin, \\log_{10},
\\sin^2), and whole answers wrapped in $…$, $$…$$, \\(…\\) or \\[…\\] as copied from a document."""

import pytest

from grader import preview
from grader.reading.names import Declarations
from grader.reading.normalize import normalize
from grader.reading.parser import parse

D = Declarations.of(symbols=["x", "y"])


def tree(text):
    return parse(text, D)[0]


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        (r"\sec x", "sec(x)"), (r"\csc(x)", "csc(x)"), (r"\cot x", "cot(x)"),
        (r"\arcsin(x)", "arcsin(x)"), (r"\arccos x", "arccos(x)"), (r"\arctan x", "arctan(x)"),
        (r"\tan^{-1} x", "arctan(x)"), (r"\sinh x", "sinh(x)"), (r"\coth x", "coth(x)"),
        (r"\operatorname{arsinh}(x)", "asinh(x)"), (r"\operatorname{sech} x", "sech(x)"),
        (r"\operatorname{sgn}(x)", "sign(x)"), (r"\log_{10} x", "log(x, 10)"),
        (r"\log_2 x", "log(x, 2)"), (r"\log_2x", "log(x, 2)"), (r"\lg x", "log(x, 10)"),
        (r"\ln x", "log(x)"), (r"\exp(x)", "exp(x)"), (r"\max(x, y)", "max(x, y)"),
        (r"\min\left(x, 0\right)", "min(x, 0)"), (r"\sin^2 x", "sin(x)^2"),
        (r"\sin^{2}(x)", "sin(x)^2"), (r"\cos^2 x + \sin^2 x", "cos(x)^2 + sin(x)^2"),
        (r"\sqrt[3]{x}", "cbrt(x)"), (r"\frac{1}{\cos x}", "1/cos(x)"),
        (r"2 \sin x \cos x", "2 sin(x) cos(x)"), (r"x~+~1", "x + 1"),
        (r"\left| x \right|", "abs(x)"), (r"\mathrm{e}^{x}", "e^x"),
    ],
)
def test_latex_names_read_as_the_plain_ones(latex, plain):
    assert tree(latex) == tree(plain)


@pytest.mark.parametrize(
    "wrapped",
    ["$x^2 + 1$", "$$x^2 + 1$$", r"\(x^2 + 1\)", r"\[x^2 + 1\]", "  $x^2 + 1$ ",
     r"\( x^2 + 1 \)", "＄x^2 + 1＄"],
)
def test_math_delimiters_around_the_whole_answer_are_dropped(wrapped):
    assert tree(wrapped) == tree("x^2 + 1")


def test_delimiters_keep_every_position_for_the_caret():
    # Replaced by spaces, not removed: an error still points at what the learner typed.
    assert normalize("$x +$").text == " x + "
    p = preview("$x + )$", symbols=["x"])
    assert "character 6" in p["error"]
    shown, caret = p["caret"].splitlines()
    assert shown[caret.index("^")] == ")"


@pytest.mark.parametrize("text", ["$x$ + $y$", "$x", "x$", "${7*7}"])
def test_other_dollar_signs_are_not_guessed_at(text):
    assert preview(text, symbols=["x", "y"])["error"] is not None


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("1/cos(x)", r"\sec x", "correct"),
        ("arctan(x)", r"\tan^{-1} x", "correct"),
        ("log(x)/log(10)", r"\log_{10} x", "correct"),
        ("1", r"\cosh^2 x - \sinh^2 x", "correct"),
        ("sin(x)^2", r"$\sin^2 x$", "correct"),
        ("sin(x)^2", r"\(\sin^2 x\)", "correct"),
        ("x/2", r"\( \frac{x}{2} \)", "correct"),
        ("x + 1", "$$x + 1$$", "correct"),
        ("1/cos(x)", r"$\frac{1}{\sin x}$", "wrong"),
        ("sin(x^2)", r"$\sin^2 x$", "wrong"),
    ],
)
def test_verdicts(grade, expected, answer, verdict):
    r = grade(kind="expression", expected=expected, answer=answer, symbols=["x"])
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize("text", ["sec(x)", "arcsin(x)", "asinh(x)", "log_2(x)", "max(x, 0)",
                                  "cbrt(x)", "sign(x)", "sin(x)^2", "coth(x) + csch(x)"])
def test_the_interpreted_latex_reads_back_to_the_same_tree(text):
    assert tree(preview(text, symbols=["x"])["interpreted"]) == tree(text)
