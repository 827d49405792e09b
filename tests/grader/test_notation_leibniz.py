"""Issue 10 item 3, class notation-leibniz: Leibniz and ∂ notation for a declared function
(dF/dx, \\frac{dF}{dx}, ∂F/∂x, d^2F/dx^2) reads as its derivative; ∂ is never the letters
p·a·r·t·i·a·l; Leibniz notation for anything else is a label or a clear refusal."""

import pytest

from grader import preview
from grader.errors import ParseError
from grader.reading.names import Declarations
from grader.reading.nodes import Apply, Diff, Sym
from grader.reading.parser import parse, parse_with_notes

D = Declarations.of(symbols=["x"], functions=["F", "L", "F_l"])
X = Sym("x")
F_OF_X = Apply("F", (X,), 0)


def tree(text, decls=D):
    return parse(text, decls)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dF/dx", Diff(F_OF_X, "x", 1)),
        (r"\frac{dF}{dx}", Diff(F_OF_X, "x", 1)),
        (r"\frac{d F}{d x}", Diff(F_OF_X, "x", 1)),
        (r"\frac{\mathrm{d}F}{\mathrm{d}x}", Diff(F_OF_X, "x", 1)),
        (r"\dfrac{dF}{dx}", Diff(F_OF_X, "x", 1)),
        ("∂F/∂x", Diff(F_OF_X, "x", 1)),
        (r"\frac{\partial F}{\partial x}", Diff(F_OF_X, "x", 1)),
        ("d^2F/dx^2", Diff(F_OF_X, "x", 2)),
        (r"\frac{d^2 F}{dx^2}", Diff(F_OF_X, "x", 2)),
        (r"\frac{d^{2}F}{dx^{2}}", Diff(F_OF_X, "x", 2)),
        ("∂²F/∂x²", Diff(F_OF_X, "x", 2)),
        ("dF_l/dx", Diff(Apply("F_l", (X,), 0), "x", 1)),
        ("∂/∂x (x^2)", tree("d/dx (x^2)")),
        ("d^2/dx^2 x^3", Diff(tree("x^3"), "x", 2)),
        (r"\frac{d}{d x} x", Diff(X, "x", 1)),
    ],
)
def test_leibniz_notation_reads_as_the_derivative(text, expected):
    node, _, notes = parse_with_notes(text, D)
    assert node == expected


def test_the_reading_is_pointed_out():
    assert "note_leibniz" in parse_with_notes("dF/dx", D)[2]
    assert "F'(x)" in preview("dF/dx", symbols=["x"], functions=["F"])["note"]


@pytest.mark.parametrize("text", ["dL/dx = 1 + F'(x)", r"\frac{\partial L}{\partial x} = 1 + F'(x)",
                                  "∂y/∂x = 1 + F'(x)", "dF/dx = 1 + F'(x)", "dF/dx ≈ 1 + F'(x)"])
def test_a_leibniz_left_side_is_a_label(text):
    assert tree(text) == tree("1 + F'(x)")


@pytest.mark.parametrize("text", ["dy/dx", "1 + ∂y/∂x", "x dG/dx"])
def test_leibniz_notation_of_an_undeclared_name_is_refused_with_its_name(text):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key == "leibniz_undeclared"
    assert preview(text, symbols=["x"], functions=["F"])["error"].count("d") >= 2


@pytest.mark.parametrize("text", ["∂", "∂x", "x + ∂"])
def test_a_lone_partial_is_never_read_as_letters(text):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key in ("unexpected_token", "unexpected_end", "incomplete")


@pytest.mark.parametrize("text", ["delta/dx", "diff(x, x)/dx"])
def test_names_starting_with_d_are_not_derivatives(text):
    node = tree(text, Declarations.of(symbols=["x", "dx"]))
    assert not isinstance(node, Diff)


def test_an_order_beyond_the_limit_is_refused():
    with pytest.raises(ParseError):
        tree("d^9F/dx^9")


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("F'(x)", "dF/dx", "correct"), ("1 + F'(x)", "1 + ∂F/∂x", "correct"),
        ("1 + F'(x)", r"1 + \frac{\partial F}{\partial x}", "correct"),
        ("x*F'(x)", "x dF/dx", "correct"), ("F''(x)", "d^2F/dx^2", "correct"),
        ("1 + F'(x)", "dF/dx", "wrong"), ("2*F'(x)", "dF/dx", "wrong"),
        ("L'(x)", r"\frac{\partial L}{\partial x}", "correct"),
        ("F'(x)", "dy/dx", "unreadable"),
    ],
)
def test_verdicts(grade, expected, answer, verdict):
    functions = ["L"] if "L" in expected else ["F"]
    r = grade(kind="expression", expected=expected, answer=answer, symbols=["x"],
              functions=functions)
    assert r.verdict == verdict, r.feedback


def test_a_wrong_leibniz_answer_has_no_invented_letters_in_its_counterexample(grade):
    r = grade(kind="expression", expected="1 + F'(x)", answer="∂F/∂x", symbols=["x"],
              functions=["F"])
    assert r.verdict == "wrong"
    names = {part.split(" = ")[0] for part in r.counterexample.point.split(", ")}
    assert names <= {"x", "F(t)"}
