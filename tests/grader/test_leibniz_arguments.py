"""Issue 24 item 3: Leibniz with arguments and several arguments.

`\\frac{\\partial F(x)}{\\partial x}`, `\\frac{\\partial F(x, W)}{\\partial x}`, `\\partial_x F(x, W)`,
`\\frac{d}{dx}F(g(x))`, `\\frac{\\partial x}{\\partial x}`, mixed partials: read as the derivative of
what the numerator says, differentiated by the chain rule through functions of several arguments.
Verdicts are checked against sympy's own derivative of the sampled random functions (an
independent computation), and derivation lines against sympy's symbolic derivative of undefined
functions.
"""

import numpy as np
import pytest
import sympy

import grader
from grader.reading.names import Declarations
from grader.reading.nodes import Apply, Diff, Sym
from grader.reading.parser import parse
from grader.values.evaluate import Env, evaluate

D = Declarations.of(symbols=["x", "W", "u", "x_l", "W_l"], functions=["F", "g", "G"])
X, W = Sym("x"), Sym("W")


def tree(text):
    return parse(text, D)[0]


# -- reading ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{\partial F(x)}{\partial x}", Diff(Apply("F", (X,)), "x")),
        (r"\frac{d F(x)}{d x}", Diff(Apply("F", (X,)), "x")),
        (r"\frac{\partial F(x, W)}{\partial x}", Diff(Apply("F", (X, W)), "x")),
        (r"\frac{\partial F(x,W)}{\partial W}", Diff(Apply("F", (X, W)), "W")),
        (r"\partial_x F(x, W)", Diff(Apply("F", (X, W)), "x")),
        (r"\partial_{x} F(x, W)", Diff(Apply("F", (X, W)), "x")),
        ("∂_x F(x, W)", Diff(Apply("F", (X, W)), "x")),
        ("∂F(x, W)/∂x", Diff(Apply("F", (X, W)), "x")),
        (r"\frac{\partial x}{\partial x}", Diff(X, "x")),
        (r"\frac{\partial x_l}{\partial x_l}", Diff(Sym("x_l"), "x_l")),
        (r"\partial_{x_l} F(x_l, W_l)", Diff(Apply("F", (Sym("x_l"), Sym("W_l"))), "x_l")),
        (r"\frac{\partial F(x_l, W_l)}{\partial x_l}",
         Diff(Apply("F", (Sym("x_l"), Sym("W_l"))), "x_l")),
        (r"\frac{\partial^2 F(x, W)}{\partial x^2}", Diff(Apply("F", (X, W)), "x", 2)),
        (r"\frac{\partial^2 F(x, W)}{\partial x \partial W}",
         Diff(Diff(Apply("F", (X, W)), "W"), "x")),
        (r"\frac{\partial^2 F(x, W)}{\partial x\,\partial W}",
         Diff(Diff(Apply("F", (X, W)), "W"), "x")),
        (r"\frac{d}{dx}F(g(x))", Diff(Apply("F", (Apply("g", (X,)),)), "x")),
        (r"\frac{d (x^2 + F(x))}{dx}", tree("diff(x^2 + F(x), x)")),
        (r"\frac{\partial \frac{\partial F(x, W)}{\partial W}}{\partial x}",
         Diff(Diff(Apply("F", (X, W)), "W"), "x")),
    ],
)
def test_leibniz_with_arguments_reads_as_the_derivative_of_the_numerator(text, expected):
    assert tree(text) == expected


@pytest.mark.parametrize("text", [r"\frac{\partial y}{\partial x} = 1 + F'(x)",
                                  r"\frac{\partial \mathcal{L}}{\partial x_l} = 1 + F'(x)",
                                  r"\frac{\partial F(x)}{\partial x} = 1 + F'(x)"])
def test_a_leibniz_left_side_is_still_a_label(text):
    assert tree(text) == tree("1 + F'(x)")


def test_the_preview_shows_a_partial_derivative_with_the_partial_sign():
    read = grader.preview(r"\frac{\partial F(x, W)}{\partial x}", symbols=["x", "W"],
                          functions=["F"])
    assert read["error"] is None
    assert read["interpreted"] == (r"\frac{\partial }{\partial x}"
                                   r"\left(F\left(x, W\right)\right)")


def test_a_prime_on_a_function_of_several_arguments_is_still_refused():
    read = grader.preview("F'(x, W)", symbols=["x", "W"], functions=["F"])
    assert read["error"] is not None


# -- values: the sampled random functions, differentiated by sympy ----------------------------

def model_in_sympy(env: Env, name: str, arity: int, j: int, ts):
    """The random function model at sample j (evaluate.py's FunctionModel, read exactly):
    F(t_1..t_m) = sum_i F_i(t_i) + p prod t_i with F_i(t) = a sin(bt + c) + h e^{gt} + p2 t^2
    + p3 t^3; one argument: F_0 alone."""
    def one(index, t):
        c = {k: sympy.Float(float(v[j]), 30) for k, v in env.function(name, index).coef.items()}
        return (c["a"] * sympy.sin(c["b"] * t + c["c"]) + c["h"] * sympy.exp(c["g"] * t)
                + c["p2"] * t ** 2 + c["p3"] * t ** 3)
    if arity == 1:
        return one(0, ts[0])
    mix = sympy.Float(float(env.function(name, arity).coef["a"][j]), 30)
    return sum(one(i, t) for i, t in enumerate(ts)) + mix * sympy.Mul(*ts)


X_, W_ = sympy.symbols("x W")
T1, T2 = sympy.symbols("t1 t2")


def _reference(env, j):
    """Each case's derivative by sympy, from the models at sample j."""
    F2 = sympy.Lambda((T1, T2), model_in_sympy(env, "F", 2, j, (T1, T2)))
    F1 = sympy.Lambda((T1,), model_in_sympy(env, "F", 1, j, (T1,)))
    g = sympy.Lambda((T1,), model_in_sympy(env, "g", 1, j, (T1,)))
    return {
        "dF(x,W)/dx": sympy.diff(F2(X_, W_), X_),
        "dF(x,W)/dW": sympy.diff(F2(X_, W_), W_),
        "d2F(x,W)/dx2": sympy.diff(F2(X_, W_), X_, 2),
        "d2F(x,W)/dxdW": sympy.diff(F2(X_, W_), X_, W_),
        "d2F(x,W)/dW2": sympy.diff(F2(X_, W_), W_, 2),
        "dF(x^2, sin x)/dx": sympy.diff(F2(X_ ** 2, sympy.sin(X_)), X_),
        "dF(g(x), x W)/dx": sympy.diff(F2(g(X_), X_ * W_), X_),
        "d2F(x W, x)/dx2": sympy.diff(F2(X_ * W_, X_), X_, 2),
        "dF(g(x))/dx": sympy.diff(F1(g(X_)), X_),
        "d/dx (x + F(x,W))": sympy.diff(X_ + F2(X_, W_), X_),
    }


CASES = {
    "dF(x,W)/dx": r"\frac{\partial F(x, W)}{\partial x}",
    "dF(x,W)/dW": r"\partial_W F(x, W)",
    "d2F(x,W)/dx2": r"\frac{\partial^2 F(x, W)}{\partial x^2}",
    "d2F(x,W)/dxdW": r"\frac{\partial^2 F(x, W)}{\partial x \partial W}",
    "d2F(x,W)/dW2": r"\partial_W \partial_W F(x, W)",
    "dF(x^2, sin x)/dx": r"\frac{d}{dx} F(x^2, \sin x)",
    "dF(g(x), x W)/dx": r"\frac{\partial F(g(x), x W)}{\partial x}",
    "d2F(x W, x)/dx2": r"\frac{d^2}{dx^2} F(x W, x)",
    "dF(g(x))/dx": r"\frac{d}{dx}F(g(x))",
    "d/dx (x + F(x,W))": r"\frac{\partial}{\partial x}\left(x + F(x, W)\right)",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_derivatives_of_the_sampled_functions_match_sympy(case):
    env = Env(k=6, n=1, seed=11)
    values = evaluate(tree(CASES[case]), env)
    xs, ws = env.symbol("x"), env.symbol("W")
    for j in range(env.k):
        exact = _reference(env, j)[case]
        point = {X_: sympy.Float(float(xs[j].real), 30), W_: sympy.Float(float(ws[j].real), 30)}
        expected = complex(exact.subs(point).evalf(25))
        assert values[j] == pytest.approx(expected, rel=1e-9, abs=1e-9), (case, j)


# -- derivations: each step's status against sympy's derivative of undefined functions --------

Fs, gs = sympy.Function("F"), sympy.Function("g")

STEPS = [  # (previous line, line, both as sympy expressions of undefined F, g)
    (r"\frac{\partial}{\partial x}(x + F(x))",
     r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}",
     sympy.diff(X_ + Fs(X_), X_), sympy.diff(X_, X_) + sympy.diff(Fs(X_), X_)),
    (r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}", "1+F'(x)",
     sympy.diff(X_ + Fs(X_), X_), 1 + sympy.diff(Fs(X_), X_)),
    (r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}", "F'(x)",
     sympy.diff(X_ + Fs(X_), X_), sympy.diff(Fs(X_), X_)),
    (r"\frac{d}{dx}F(g(x))", "F'(g(x)) g'(x)",
     sympy.diff(Fs(gs(X_)), X_), sympy.diff(Fs(gs(X_)), X_)),
    (r"\frac{d}{dx}F(g(x))", "F'(g(x))",
     sympy.diff(Fs(gs(X_)), X_), sympy.Subs(sympy.diff(Fs(T1), T1), T1, gs(X_))),
    (r"\frac{d}{dx}F(g(x))", "F'(x) g'(x)",
     sympy.diff(Fs(gs(X_)), X_), sympy.diff(Fs(X_), X_) * sympy.diff(gs(X_), X_)),
    (r"\frac{\partial}{\partial x}\left(x + F(x, W)\right)",
     r"1 + \frac{\partial F(x, W)}{\partial x}",
     sympy.diff(X_ + Fs(X_, W_), X_), 1 + sympy.diff(Fs(X_, W_), X_)),
    (r"\frac{\partial}{\partial x}\left(x + F(x, W)\right)", r"1 + \partial_W F(x, W)",
     sympy.diff(X_ + Fs(X_, W_), X_), 1 + sympy.diff(Fs(X_, W_), W_)),
    (r"\frac{\partial}{\partial x}\left(x + F(x, W)\right)", r"\partial_x F(x, W)",
     sympy.diff(X_ + Fs(X_, W_), X_), sympy.diff(Fs(X_, W_), X_)),
    (r"\frac{\partial^2 F(x, W)}{\partial x \partial W}", r"\partial_W \partial_x F(x, W)",
     sympy.diff(Fs(X_, W_), X_, W_), sympy.diff(Fs(X_, W_), W_, X_)),
    (r"\frac{\partial^2 F(x, W)}{\partial x \partial W}", r"\frac{\partial^2 F(x, W)}{\partial x^2}",
     sympy.diff(Fs(X_, W_), X_, W_), sympy.diff(Fs(X_, W_), X_, 2)),
    (r"\frac{d}{dx}F(x, x)", r"\partial_u F(u, x) + \partial_u F(x, u)",
     sympy.diff(Fs(X_, X_), X_), None),  # u is another variable: not the same
    (r"\frac{\partial F(x_l, W_l)}{\partial x_l}+\frac{\partial x_l}{\partial x_l}",
     r"\frac{\partial F(x_l, W_l)}{\partial x_l}+1",
     sympy.diff(Fs(X_, W_), X_) + 1, sympy.diff(Fs(X_, W_), X_) + 1),
]


@pytest.mark.parametrize(("before", "line", "sym_before", "sym_line"), STEPS)
def test_each_step_is_verified_exactly_when_sympy_says_the_two_are_equal(
        before, line, sym_before, sym_line):
    equal = sym_line is not None and sympy.simplify((sym_line - sym_before).doit()) == 0
    result = grader.check({"kind": "derivation", "answer": [before, line],
                           "symbols": ["x", "W", "u", "x_l", "W_l"], "functions": ["F", "g"]})
    statuses = [s.status.value for s in result.steps]
    assert statuses == ["verified", "verified" if equal else "does_not_follow"], result.steps


@pytest.mark.parametrize(("lang", "words"), [("en", "Line 2 does not follow"),
                                             ("zh", "第 2 行")])
def test_a_broken_leibniz_step_is_explained_in_both_languages(lang, words):
    result = grader.check({"kind": "derivation", "lang": lang, "symbols": ["x"],
                           "functions": ["F"], "answer": [
                               r"\frac{\partial x}{\partial x}+\frac{\partial F(x)}{\partial x}",
                               "F'(x)"]})
    assert result.first_wrong_step == 2
    assert words in result.steps[1].feedback


def test_the_bank_solution_of_the_scalar_residual_derivative_reads_back():
    """grad-residual-scalar-derivative writes
    \\frac{\\partial y}{\\partial x}=\\frac{\\partial x}{\\partial x}+\\frac{\\partial F(x)}{\\partial x}
    =1+F'(x): unreadable before issue 24."""
    result = grader.check({
        "kind": "derivation", "symbols": ["x"], "functions": ["F"], "expected": "1 + F'(x)",
        "answer": r"$$\frac{\partial y}{\partial x}=\frac{\partial x}{\partial x}"
                  r"+\frac{\partial F(x)}{\partial x}=1+F'(x)$$"})
    assert [s.status.value for s in result.steps] == ["verified", "verified"]
    assert result.correct


def test_partial_derivatives_survive_the_symbolic_check():
    """The contained worker's sympy fallback builds D_i F(u) as a Subs of a Derivative."""
    from grader.symbolic.build import symbol, to_sympy
    from grader.values.differentiate import expand_derivatives

    expanded = expand_derivatives(tree(r"\frac{d}{dx} F(x^2, g(x))"))
    concrete = {Fs: sympy.Lambda((T1, T2), T1 ** 2 * T2 + sympy.sin(T1) * T2 ** 3),
                gs: sympy.Lambda((T1,), sympy.exp(T1))}
    built = to_sympy(expanded)
    built = built.replace(sympy.Function("F"), concrete[Fs]).replace(
        sympy.Function("g"), concrete[gs]).doit()
    x = symbol("x")  # the grader's own symbol (a real one)
    expected = sympy.diff(concrete[Fs](x ** 2, concrete[gs](x)), x)
    assert sympy.simplify(built - expected) == 0


def test_values_are_finite_and_real_at_every_sample():
    env = Env(k=24, n=1, seed=3)
    values = evaluate(tree(r"\frac{\partial^2 F(x, W)}{\partial x \partial W}"), env)
    assert np.isfinite(values).all() and np.allclose(values.imag, 0)


@pytest.mark.parametrize(("text", "words"), [
    ("\\partial_x " * 90 + "F(x, W)", "derivatives up to order 4"),
    ("\\frac{\\partial " * 20 + "F(x, W)" + "}{\\partial x}" * 20, "nested too deeply"),
    ("\\frac{\\partial^4 F(x, W)}{" + "\\partial x " * 80 + "}", "cannot be read"),
    ("\\frac{d}{dx}" + "F(" * 50 + "x" + ", x)" * 50, "nested too deeply"),
    ("\\frac{\\partial F(x, W)" * 40, "cannot be read"),
])
def test_hostile_leibniz_lines_are_refused_with_a_reason(text, words):
    result = grader.check({"kind": "derivation", "answer": ["F(x, W)", text],
                           "symbols": ["x", "W"], "functions": ["F"]})
    assert result.steps[1].status.value == "unreadable"
    assert words in result.steps[1].feedback


@pytest.mark.parametrize(("lang", "words"), [("en", "derivative of its numerator"),
                                             ("zh", "分子的导数")])
def test_the_reading_of_a_leibniz_fraction_is_pointed_out_in_both_languages(lang, words):
    read = grader.preview(r"\frac{\partial F(x, W)}{\partial x}", symbols=["x", "W"],
                          functions=["F"], lang=lang)
    assert words in read["note"]
