"""Every walk over the tree handles every node type and every built-in function.

A new node type or function needs a rule in each walk's table (children, LaTeX, constant value,
numpy evaluation, derivative, sympy construction); these tests name the walk that lacks one.
"""

from dataclasses import fields
from typing import get_args

import numpy as np
import pytest

from grader.errors import CannotDecide
from grader.reading.constant import constant_value
from grader.reading.latex import to_latex
from grader.reading.nodes import (
    BUILTIN_FUNCTIONS,
    DECLARABLE_FUNCTIONS,
    MULTI_ARG_FUNCTIONS,
    Add,
    Apply,
    Const,
    Diff,
    Div,
    Factorial,
    Func,
    FuncN,
    Ident,
    Matrix,
    MatSym,
    Member,
    Moment,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    Transpose,
    children,
)
from grader.symbolic.build import to_sympy
from grader.values.differentiate import derivative
from grader.values.evaluate import Env, evaluate

NODE_TYPES = get_args(Node)
X, TWO, HALF, A = Sym("x"), Num(2.0, "2"), Num(0.5, "0.5"), MatSym("A")

SAMPLES = {
    Num: TWO, Const: Const("pi"), Sym: X, MatSym: A, Ident: Ident(), Neg: Neg(X),
    Add: Add((X, TWO)), Mul: Mul((TWO, X)), Div: Div(X, TWO), Pow: Pow(X, TWO),
    Func: Func("sin", X), FuncN: FuncN("max", (X, TWO)), Apply: Apply("F", (X,), 1), Diff: Diff(Pow(X, TWO), "x"),
    Transpose: Transpose(A), Factorial: Factorial(Num(3.0, "3")), Matrix: Matrix(((X, TWO),)),
    Series: Series("sum", "i", Num(1.0, "1"), TWO, Mul((Sym("i"), X))),
    Member: Member("F", Sym("l"), "function", (X,)),
    Moment: Moment("Cov", (X, Mul((TWO, X)))),
}
# The types that can make up a constant, each as a constant; the others have no constant value.
CONSTANTS = {
    Num: TWO, Const: Const("e"), Neg: Neg(TWO), Add: Add((TWO, HALF)), Mul: Mul((TWO, HALF)),
    Div: Div(TWO, HALF), Pow: Pow(TWO, HALF), Func: Func("sin", HALF),
    FuncN: FuncN("log", (TWO, HALF)), Transpose: Transpose(TWO),
    Factorial: Factorial(Num(3.0, "3")),
}
NOT_CONSTANT = (Sym, MatSym, Ident, Apply, Diff, Matrix, Series, Member, Moment)
BY_TYPE = pytest.mark.parametrize("kind", NODE_TYPES, ids=lambda k: k.__name__)


def test_every_node_type_has_a_sample():
    assert set(SAMPLES) == set(NODE_TYPES)
    assert set(CONSTANTS) | set(NOT_CONSTANT) == set(NODE_TYPES)


def nodes_in_fields(node) -> list:
    found = []
    for field in fields(node):
        value = getattr(node, field.name)
        rows = value if isinstance(value, tuple) else (value,)
        for item in rows:
            found.extend(item if isinstance(item, tuple) else (item,))
    return [n for n in found if isinstance(n, NODE_TYPES)]


@BY_TYPE
def test_children(kind):
    assert list(children(SAMPLES[kind])) == nodes_in_fields(SAMPLES[kind])


@BY_TYPE
def test_latex(kind):
    assert r"\text{?}" not in to_latex(SAMPLES[kind])


@BY_TYPE
def test_constant_value(kind):
    if kind in CONSTANTS:
        assert isinstance(constant_value(CONSTANTS[kind]), float)
    else:
        assert constant_value(SAMPLES[kind]) is None


@BY_TYPE
def test_evaluate(kind):
    env = Env(k=2, n=2, seed=0)
    if kind is Moment:  # decided over distributions (values/moments.py), said so here
        with pytest.raises(CannotDecide, match="moment_by_sampling"):
            evaluate(SAMPLES[kind], env)
        return
    env.symbols["l"] = np.array([0, 3], dtype=complex)  # a member's index: whole numbers
    assert evaluate(SAMPLES[kind], env).shape[0] == 2


@BY_TYPE
def test_derivative(kind):
    try:
        derivative(SAMPLES[kind], "x")
    except CannotDecide as err:
        assert (kind in (MatSym, Transpose) and err.key == "matrix_derivative"
                or kind is Moment and err.key == "moment_derivative")


@BY_TYPE
def test_sympy(kind):
    if kind is Member:  # left to sampling: sympy knows no declared relation
        with pytest.raises(CannotDecide, match="indexed_symbolic"):
            to_sympy(SAMPLES[kind])
        return
    if kind is Moment:  # decided over distributions (values/moments.py)
        with pytest.raises(CannotDecide, match="moment_by_sampling"):
            to_sympy(SAMPLES[kind])
        return
    to_sympy(SAMPLES[kind])


# A point inside each function's real domain, for its constant value.
INSIDE = {"arcsec": TWO, "arccsc": TWO, "acosh": TWO, "acoth": TWO}


@pytest.mark.parametrize("name", BUILTIN_FUNCTIONS + DECLARABLE_FUNCTIONS)
def test_every_builtin_function_in_every_walk(name):
    node = Func(name, X)
    assert r"\text{?}" not in to_latex(node)
    assert isinstance(constant_value(Func(name, INSIDE.get(name, HALF))), float)
    assert evaluate(node, Env(k=2, n=2, seed=0)).shape == (2,)
    assert derivative(node, "x") is not None
    to_sympy(node)


@pytest.mark.parametrize("name", MULTI_ARG_FUNCTIONS)
def test_every_function_of_several_arguments_in_every_walk(name):
    node = FuncN(name, (X, TWO))
    assert r"\text{?}" not in to_latex(node)
    assert isinstance(constant_value(FuncN(name, (TWO, HALF))), float)
    assert evaluate(node, Env(k=2, n=2, seed=0)).shape == (2,)
    if name == "binomial":  # d/dx binomial(x, 2) needs the digamma function: said, not guessed
        with pytest.raises(CannotDecide, match="factorial_derivative"):
            derivative(node, "x")
        assert derivative(FuncN(name, (TWO, HALF)), "x") == Num(0.0, "0")
    else:
        assert derivative(node, "x") is not None
    to_sympy(node)


# The exact (modular) and multi-precision walks of values/exact.py and values/precise.py: a
# rule for every node type they can meet, and a stated refusal (NotRational / NotPrecise) for
# the others, never a silent wrong value.
RATIONAL = (Num, Sym, Neg, Add, Mul, Div, Pow, Factorial, FuncN)
NOT_PRECISE = (MatSym, Ident, Matrix, Series, Member, Moment)
# Exact only at a point (Fractions, values/indexed.py), never in the modular test.
EXACT_AT_A_POINT = (Series,)


@BY_TYPE
def test_exact_walk(kind):
    from fractions import Fraction

    from grader.values.exact import NotRational, exact_value, rational_form

    node = SAMPLES[kind] if kind is not FuncN else FuncN("binomial", (Num(5.0, "5"), TWO))
    if kind in RATIONAL:
        assert rational_form(node) is not None
        assert isinstance(exact_value(node, {"x": Fraction(3)}), Fraction)
    elif kind is Diff:  # expanded first: d/dx x^2 = 2x is rational
        assert rational_form(node) is not None
    elif kind in EXACT_AT_A_POINT:  # 1*3 + 2*3
        assert rational_form(node) is None
        assert exact_value(node, {"x": Fraction(3)}) == 9
    else:
        assert rational_form(node) is None
        with pytest.raises(NotRational):
            from grader.values.exact import Exact, _eval
            _eval(node, Exact(), {"x": Fraction(3)})


@BY_TYPE
def test_precise_walk(kind):
    from grader.values.differentiate import expand_derivatives
    from grader.values.precise import NotPrecise, _value

    env = Env(k=2, n=2, seed=0)
    env.symbols["l"] = np.array([0, 3], dtype=complex)
    node = expand_derivatives(SAMPLES[kind])
    if kind is not Moment:  # a moment has no sampled value (test_evaluate)
        evaluate(node, env)  # draws every name's values (and the random function F)
    if kind in NOT_PRECISE or kind is Transpose:  # Transpose(A): of a matrix
        with pytest.raises(NotPrecise):
            _value(node, env, 0, 30)
    else:
        value, _ = _value(node, env, 0, 30)
        assert value is not None


@pytest.mark.parametrize("name", BUILTIN_FUNCTIONS + DECLARABLE_FUNCTIONS)
def test_every_builtin_function_in_the_precise_walk(name):
    from grader.values.precise import _value

    env = Env(k=1, n=1, seed=0)
    env.symbols["x"] = np.array([2.0 if name in INSIDE else 0.5], dtype=complex)
    value, _ = _value(Func(name, X), env, 0, 30)
    assert value is not None
