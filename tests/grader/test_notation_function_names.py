"""Issue 10 item 3, classes notation-trig-names, notation-hyperbolic and notation-roots-logs: every
name people use for the elementary functions, read as that function, with values and derivatives
checked against mpmath (an independent implementation) inside each function's real domain."""

import math

import mpmath
import numpy as np
import pytest

from grader.errors import ParseError
from grader.reading.constant import constant_value
from grader.reading.names import Declarations
from grader.reading.nodes import (
    BUILTIN_FUNCTIONS,
    Const,
    Func,
    FuncN,
    Mul,
    Num,
    Pow,
    Sym,
)
from grader.reading.parser import parse
from grader.symbolic.build import to_sympy
from grader.values.differentiate import derivative
from grader.values.evaluate import Env, evaluate

X = Sym("x")
D = Declarations.of(symbols=["x"])


def n(v):
    return Num(float(v), str(v))


def tree(text, decls=D):
    return parse(text, decls)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sec(x)", Func("sec", X)), ("sec x", Func("sec", X)), ("csc x", Func("csc", X)),
        ("cosec x", Func("csc", X)), ("cot(x)", Func("cot", X)),
        ("arcsin(x)", Func("arcsin", X)), ("asin(x)", Func("arcsin", X)),
        ("acos x", Func("arccos", X)), ("atan(x)", Func("arctan", X)),
        ("arcsec(x)", Func("arcsec", X)), ("asec(x)", Func("arcsec", X)),
        ("arccsc(x)", Func("arccsc", X)), ("arccot(x)", Func("arccot", X)),
        ("coth(x)", Func("coth", X)), ("csch(x)", Func("csch", X)), ("sech x", Func("sech", X)),
        ("asinh(x)", Func("asinh", X)), ("arsinh(x)", Func("asinh", X)),
        ("arcsinh(x)", Func("asinh", X)), ("acosh(x)", Func("acosh", X)),
        ("arcosh(x)", Func("acosh", X)), ("artanh(x)", Func("atanh", X)),
        ("arctanh(x)", Func("atanh", X)), ("arcoth(x)", Func("acoth", X)),
        ("arsech(x)", Func("asech", X)), ("arcsch(x)", Func("acsch", X)),
        ("cbrt(x)", Func("cbrt", X)), ("∛x", Func("cbrt", X)), ("root(x, 3)", Func("cbrt", X)),
        ("root(x, 2)", Func("sqrt", X)), ("root(x)", Func("sqrt", X)),
        ("sign(x)", Func("sign", X)), ("sgn x", Func("sign", X)), ("signum(x)", Func("sign", X)),
        ("cosech(x)", Func("csch", X)), ("lg(x, 2)", FuncN("log", (X, n(2)))),
        ("%pi*x", Mul((Const("pi"), X))), ("%e^x", Pow(Const("e"), X)),
        ("Sin(x)", Func("sin", X)), ("LN(x)", Func("log", X)), ("Sin[x]", Func("sin", X)),
        ("Exp[2x]", Func("exp", Mul((n(2), X)))),
        ("log_2(x)", FuncN("log", (X, n(2)))), ("log_2 x", FuncN("log", (X, n(2)))),
        ("log_2x", FuncN("log", (X, n(2)))), ("log_{2}(x)", FuncN("log", (X, n(2)))),
        ("log_10 x", FuncN("log", (X, n(10)))), ("log10(x)", FuncN("log", (X, n(10)))),
        ("log2(x)", FuncN("log", (X, n(2)))), ("lg(x)", FuncN("log", (X, n(10)))),
        ("lg x", FuncN("log", (X, n(10)))), ("log(x, 2)", FuncN("log", (X, n(2)))),
        ("log_e x", Func("log", X)), ("log_b x", FuncN("log", (X, Sym("b")))),
        ("log_bx", FuncN("log", (X, Sym("b")))),
        ("max(x, 0)", FuncN("max", (X, n(0)))), ("min(x, 1, 2)", FuncN("min", (X, n(1), n(2)))),
        ("2sec x", Mul((n(2), Func("sec", X)))), ("sec(x)^2", Pow(Func("sec", X), n(2))),
        ("log(e)", Func("log", Const("e"))),
    ],
)
def test_every_name_reads_as_its_function(text, expected):
    assert tree(text) == expected


def test_floor_and_ceil_only_where_the_question_declares_them():
    declared = Declarations.of(symbols=["x"], functions=["floor", "ceil"])
    assert tree("floor(x) + ceil(x)", declared) == tree("floor(x) + ceil(x)", declared)
    assert tree("floor(x)", declared) == Func("floor", X)
    with pytest.raises(ParseError) as info:
        tree("floor(x)")
    assert info.value.key == "not_a_function"


@pytest.mark.parametrize(("text", "key"), [("max(x)", "two_arguments"),
                                           ("log(x, 2, 3)", "log_arguments"),
                                           ("log_+x", "log_base"),
                                           ("root(x, 2, 3)", "root_arguments"),
                                           ("%i", "unexpected_token"),
                                           ("max x", "expected_call")])
def test_wrong_arguments_are_explained(text, key):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key == key


# Real inverse functions (A&S 4.4.8: arccot x = arctan(1/x)), as mpmath computes them.
REFERENCE = {
    "sqrt": mpmath.sqrt, "cbrt": lambda v: mpmath.sign(v) * mpmath.cbrt(abs(v)), "exp": mpmath.exp, "log": mpmath.log,
    "abs": abs, "sign": mpmath.sign, "sigmoid": lambda v: 1 / (1 + mpmath.exp(-v)),
    "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan, "sec": mpmath.sec,
    "csc": mpmath.csc, "cot": mpmath.cot, "arcsin": mpmath.asin, "arccos": mpmath.acos,
    "arctan": mpmath.atan, "arcsec": mpmath.asec, "arccsc": mpmath.acsc,
    "arccot": lambda v: mpmath.atan(1 / v), "sinh": mpmath.sinh, "cosh": mpmath.cosh,
    "tanh": mpmath.tanh, "sech": mpmath.sech, "csch": mpmath.csch, "coth": mpmath.coth,
    "asinh": mpmath.asinh, "acosh": mpmath.acosh, "atanh": mpmath.atanh,
    "asech": mpmath.asech, "acsch": mpmath.acsch, "acoth": lambda v: mpmath.atanh(1 / v),
}
# Points inside each real domain (A&S 4.4, 4.6), both signs where the domain has them.
INSIDE = {"sqrt": (0.3, 2.5), "log": (0.3, 2.5), "arcsin": (-0.7, 0.4), "arccos": (-0.7, 0.4),
          "arcsec": (-2.5, 1.3), "arccsc": (-2.5, 1.3), "acosh": (1.2, 3.0),
          "atanh": (-0.7, 0.4), "asech": (0.3, 0.9), "acoth": (-2.5, 1.3)}
OUTSIDE = {"sqrt": -1.0, "log": -1.0, "arcsin": 1.5, "arccos": -1.5, "arcsec": 0.5,
           "arccsc": -0.5, "acosh": 0.5, "atanh": 1.5, "asech": 1.5, "acoth": 0.5}


def points(name):
    return INSIDE.get(name, (-1.3, 0.6, 2.2))


def values_at(node, xs):
    env = Env(k=len(xs), n=1, seed=0)
    env.symbols["x"] = np.array(xs, dtype=complex)
    return evaluate(node, env)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_values_agree_with_mpmath_inside_the_real_domain(name):
    assert set(REFERENCE) == set(BUILTIN_FUNCTIONS)
    xs = points(name)
    got = values_at(Func(name, X), xs)
    for x, value in zip(xs, got, strict=True):
        want = complex(REFERENCE[name](mpmath.mpf(x)))
        assert value == pytest.approx(want, rel=1e-12, abs=1e-12)
        assert constant_value(Func(name, Num(x, str(x)))) == pytest.approx(want.real, rel=1e-12)
        assert complex(to_sympy(Func(name, Num(x, str(x)))).evalf(30)) == pytest.approx(
            want, rel=1e-12)


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_outside_the_real_domain_the_value_is_undefined_or_not_real(name):
    value = values_at(Func(name, X), [OUTSIDE[name]])[0]
    assert not np.isfinite(value) or abs(value.imag) > 1e-9


@pytest.mark.parametrize("name", sorted(set(REFERENCE) - {"abs", "sign"}))
def test_derivatives_agree_with_mpmath(name):
    d = derivative(Func(name, X), "x")
    xs = points(name)
    for x, value in zip(xs, values_at(d, xs), strict=True):
        want = mpmath.diff(REFERENCE[name], mpmath.mpf(x))
        assert value.real == pytest.approx(float(want), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    ("node", "want"),
    [
        (FuncN("log", (n(8), n(2))), 3.0), (FuncN("log", (n(100), n(10))), 2.0),
        (FuncN("max", (n(-1), n(2), n(0.5))), 2.0), (FuncN("min", (n(-1), n(2))), -1.0),
        (Func("cbrt", n(-27)), -3.0), (Func("sign", n(-2)), -1.0), (Func("sign", n(0)), 0.0),
    ],
)
def test_functions_of_several_arguments_and_real_roots(node, want):
    assert constant_value(node) == pytest.approx(want)
    assert values_at(node, [0.0])[0] == pytest.approx(want)
    assert float(to_sympy(node)) == pytest.approx(want)


def test_derivatives_of_several_arguments():
    # d/dx log_2 x = 1/(x ln 2); d/dx max(x, 0) = 1 for x > 0, 0 for x < 0.
    log2 = values_at(derivative(FuncN("log", (X, n(2))), "x"), [0.5, 3.0])
    assert log2.real == pytest.approx([1 / (0.5 * math.log(2)), 1 / (3 * math.log(2))])
    ramp = values_at(derivative(FuncN("max", (X, n(0))), "x"), [-1.5, 2.0])
    assert ramp.real == pytest.approx([0.0, 1.0])


@pytest.mark.parametrize(
    ("expected", "answer", "verdict", "decls"),
    [
        ("1/cos(x)", "sec(x)", "correct", {}),
        ("1 + tan(x)^2", "sec(x)^2", "correct", {}),
        ("sec(x)^2 - tan(x)^2", "1", "correct", {}),
        ("1/sin(x)", "sec(x)", "wrong", {}),
        ("arcsin(x)", "asin(x)", "correct", {}),
        # not real for |x| > 1, equal on [-1, 1] (DLMF 4.23.9): right where both are real
        ("pi/2", "arcsin(x) + arccos(x)", "correct", {}),
        ("arccos(1/x)", "arcsec(x)", "correct", {}),
        ("diff(cot(x), x)", "-csc(x)^2", "correct", {}),
        ("diff(arctan(x), x)", "1/(1 + x^2)", "correct", {}),
        ("diff(arctan(x), x)", "1/(1 - x^2)", "wrong", {}),
        ("cosh(x)/sinh(x)", "coth(x)", "correct", {}),
        ("log(x + sqrt(x^2 + 1))", "arsinh(x)", "correct", {}),
        ("log(x + sqrt(x^2 - 1))", "arcosh(x)", "correct", {}),
        ("coth(x)", "tanh(x)", "wrong", {}),
        ("x", "cbrt(x^3)", "correct", {}),
        ("cbrt(x) + 1", "cbrt(x + 1)", "wrong", {}),
        ("log(x)/log(2)", "log_2 x", "correct", {}),
        ("log(x)/log(10)", r"\log_{10} x", "correct", {}),
        ("log(x)/log(10)", "lg(x)", "correct", {}),
        ("log(x)/log(10)", "log(10, x)", "wrong", {}),
        ("log(x)/log(10)", "ln(x)", "wrong", {}),
        ("x", "sign(x)*|x|", "correct", {}),
        ("(x + |x|)/2", "max(x, 0)", "correct", {}),
        ("x", "max(x, 0)", "wrong", {}),
        ("x - floor(x)", "x - floor(x)", "correct", {"functions": ["floor"]}),
        ("x", "floor(x)", "wrong", {"functions": ["floor"]}),
    ],
)
def test_verdicts(grade, expected, answer, verdict, decls):
    r = grade(kind="expression", expected=expected, answer=answer, symbols=["x"], **decls)
    assert r.verdict == verdict, r.feedback
