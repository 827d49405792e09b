"""Every accepted notation parses to the tree we expect (compared through a canonical form)."""

import pytest

from grader.errors import LimitError, ParseError
from grader.reading.names import Declarations
from grader.reading.nodes import (
    Add,
    Apply,
    Const,
    Diff,
    Div,
    Func,
    Ident,
    Matrix,
    MatSym,
    Mul,
    Neg,
    Num,
    Pow,
    Sym,
    Transpose,
)
from grader.reading.parser import parse

D = Declarations.of(symbols=["x", "a", "n"], functions=["F", "F_l"], matrices=["W", "g", "A", "B"])
x, W, g, A, B = Sym("x"), MatSym("W"), MatSym("g"), MatSym("A"), MatSym("B")


def n(v):
    return Num(float(v), str(v))


def tree(text, decls=D, space_vectors=False):
    return parse(text, decls, space_vectors)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2x", Mul((n(2), x))),
        ("2(x+1)", Mul((n(2), Add((x, n(1)))))),
        ("W x", Mul((W, x))),
        ("Wx", Mul((W, x))),
        ("x**2", Pow(x, n(2))),
        ("x^2", Pow(x, n(2))),
        ("-x^2", Neg(Pow(x, n(2)))),
        ("|x|", Func("abs", x)),
        ("abs(x)", Func("abs", x)),
        ("sqrt(x)", Func("sqrt", x)),
        ("sqrt x", Func("sqrt", x)),
        ("exp(x)", Func("exp", x)),
        ("ln(x)", Func("log", x)),
        ("log(x)", Func("log", x)),
        ("sin(x)", Func("sin", x)),
        ("tanh(x)", Func("tanh", x)),
        ("sech(x)", Func("sech", x)),
        ("sigmoid(x)", Func("sigmoid", x)),
        ("σ(x)", Func("sigmoid", x)),
        ("e^x", Pow(Const("e"), x)),
        ("F(x)", Apply("F", (x,), 0)),
        ("F'(x)", Apply("F", (x,), 1)),
        ("F''(x)", Apply("F", (x,), 2)),
        ("F′(x)", Apply("F", (x,), 1)),
        ("diff(F(x), x)", Diff(Apply("F", (x,), 0), "x", 1)),
        ("diff(x^3, x, 2)", Diff(Pow(x, n(3)), "x", 2)),
        ("d/dx (x + F(x))", Diff(Add((x, Apply("F", (x,), 0))), "x", 1)),
        (r"\frac{d}{dx} x^2", Diff(Pow(x, n(2)), "x", 1)),
        (r"\frac{\partial}{\partial x} x", Diff(x, "x", 1)),
        ("F_l(x_l)", Apply("F_l", (Sym("x_l"),), 0)),
        ("x_{l+1}", Sym("x_l+1")),
        ("x_0", Sym("x_0")),
        ("I + W", Add((Ident(), W))),
        ("A^T", Transpose(A)),
        (r"A^\top", Transpose(A)),
        ("A^{T}", Transpose(A)),
        ("A'", Transpose(A)),
        ("transpose(A)", Transpose(A)),
        ("Aᵀ", Transpose(A)),
        ("(I+W)^T g", Mul((Transpose(Add((Ident(), W))), g))),
        ("A B", Mul((A, B))),
        (r"\frac{1}{2}", Div(n(1), n(2))),
        (r"\frac12", Div(n(1), n(2))),
        (r"\dfrac{1}{2}", Div(n(1), n(2))),
        (r"\tfrac{1}{2}", Div(n(1), n(2))),
        (r"\cfrac{1}{2}", Div(n(1), n(2))),  # continued-fraction style, as in Math-Verify's tests
        (r"\sqrt{x}", Func("sqrt", x)),
        (r"\sqrt[3]{x}", Func("cbrt", x)),  # the real cube root
        (r"\sqrt[4]{x}", Pow(x, Div(n(1), n(4)))),
        (r"\left(x+1\right)^{2}", Pow(Add((x, n(1))), n(2))),
        (r"x \cdot 2", Mul((x, n(2)))),
        (r"x \times 2", Mul((x, n(2)))),
        (r"\alpha x", Mul((Sym("alpha"), x))),
        (r"\mathbf{W}^\top \mathbf{g}", Mul((Transpose(W), g))),
        ("9.54e-7", Num(9.54e-7, "9.54e-7")),
        ("9.54×10^-7", Mul((n(9.54), Pow(n(10), Neg(n(7)))))),
        ("9.54*10^(-7)", Mul((n(9.54), Pow(n(10), Neg(n(7)))))),
        ("|1 + a|^n", Pow(Func("abs", Add((n(1), Sym("a")))), Sym("n"))),
        # Without parentheses a function takes the factors written right against it, as on paper.
        ("sin 2x", Func("sin", Mul((n(2), x)))),
        ("sin2x", Func("sin", Mul((n(2), x)))),
        (r"\sin 2\alpha", Func("sin", Mul((n(2), Sym("alpha"))))),
        ("sin x^2", Func("sin", Pow(x, n(2)))),
        ("sin 2(x+1)", Func("sin", Mul((n(2), Add((x, n(1))))))),
        ("sin x cos x", Mul((Func("sin", x), Func("cos", x)))),
        ("sin x a", Mul((Func("sin", x), Sym("a")))),
        ("sin 2x + 1", Add((Func("sin", Mul((n(2), x))), n(1)))),
        ("tanh 2x*a", Mul((Func("tanh", Mul((n(2), x))), Sym("a")))),
        ("sin x F(x)", Mul((Func("sin", x), Apply("F", (x,), 0)))),
    ],
)
def test_notation(text, expected):
    assert tree(text) == expected


V = Matrix(((n(0.4), n(2.05)),))
COL = Matrix(((n(1.5),), (n(2.5),)))
M = Matrix(((n(1), n(2)), (n(3), n(4))))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[0.4, 2.05]", V),
        ("(0.4, 2.05)", V),
        ("0.4, 2.05", V),
        ("[0.4 2.05]", V),
        ("0.4 2.05", V),
        ("［0.4，2.05］", V),
        ("[1.5; 2.5]", COL),
        ("[[1,2],[3,4]]", M),
        ("[1 2; 3 4]", M),
        (r"\begin{bmatrix}1 & 2 \\ 3 & 4\end{bmatrix}", M),
        (r"\begin{pmatrix}1.5\\2.5\end{pmatrix}", COL),
        ("[2+0.1, 1]", Matrix(((Add((n(2), n(0.1))), n(1)),))),
        ("[1 -2]", Matrix(((n(1), Neg(n(2))),))),
        ("[1 - 2]", Matrix(((Add((n(1), Neg(n(2)))),),))),
    ],
)
def test_vectors_and_matrices(text, expected):
    assert tree(text, Declarations(), space_vectors=True) == expected


@pytest.mark.parametrize(("text", "expected"), [("L = 1.25", n(1.25)), ("= x", x),
                                                ("y_1 = 2x", Mul((n(2), x)))])
def test_a_named_left_side_or_leading_equals_is_dropped(text, expected):
    assert tree(text) == expected


def test_space_separated_numbers_are_refused_in_formulas():
    """Issue 29: `2 3` is a typing slip (23? 2*3?), refused rather than read as 2·3."""
    with pytest.raises(ParseError) as err:
        tree("2 3", Declarations())
    assert err.value.key == "number_space_number"


@pytest.mark.parametrize(
    ("text", "key", "pos"),
    [
        ("(x+1", "bracket_never_closed", 0),  # the caret under the open bracket
        ("x+", "incomplete", 2),
        ("x $ 1", "unexpected_char", 2),
        (r"\input{x}", "unknown_command", 0),
        ("F(x", "bracket_never_closed", 1),
        ("[1, 2; 3]", "ragged_matrix", 0),
        ("x'", "prime_needs_function", 1),
        ("", "empty", 0),
        ("nan", "not_finite", 0),
        ("F x", "expected_call", 2),
    ],
)
def test_parse_errors_carry_key_and_position(text, key, pos):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key == key
    assert info.value.pos == pos


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("x" * 1001, "too_long"),
        ("(" * 5000 + "x" + ")" * 5000, "too_long"),
        ("(" * 100 + "x" + ")" * 100, "too_deep"),
        ("9^9^9^9", "exponent_too_large"),
        ("x^x^x^x^x", "exponent_tower"),
        ("10^400", "number_too_large"),
        ("1e309", "number_too_large"),
        ("1" * 40, "number_too_long"),
        ("99999999!", "factorial_too_large"),
        ("+".join(["x"] * 450), "too_many_nodes"),
    ],
)
def test_limits_are_checked_while_parsing(text, key):
    with pytest.raises(LimitError) as info:
        tree(text)
    assert info.value.key == key
