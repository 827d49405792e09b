"""Build sympy objects from our tree with sympy constructors (never sympify of learner text).

Matrix symbols become non-commutative symbols; the identity is 1 of that algebra; transposes are
pushed down to the symbols ((AB)^T = B^T A^T) so A^T is just another non-commutative symbol.
Only the worker process imports this module.
"""

from __future__ import annotations

import sympy

from ..errors import CannotDecide
from ..reading.nodes import (
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
)
from ..values.domains import Domains

_FUNCS = {
    "sqrt": sympy.sqrt, "cbrt": lambda u: sympy.real_root(u, 3), "exp": sympy.exp,
    "log": sympy.log, "abs": sympy.Abs, "sign": sympy.sign,
    "sigmoid": lambda u: 1 / (1 + sympy.exp(-u)),
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "sec": sympy.sec, "csc": sympy.csc,
    "cot": sympy.cot, "arcsin": sympy.asin, "arccos": sympy.acos, "arctan": sympy.atan,
    "arcsec": sympy.asec, "arccsc": sympy.acsc, "arccot": sympy.acot,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh, "sech": sympy.sech,
    "csch": sympy.csch, "coth": sympy.coth, "asinh": sympy.asinh, "acosh": sympy.acosh,
    "atanh": sympy.atanh, "asech": sympy.asech, "acsch": sympy.acsch, "acoth": sympy.acoth,
    "floor": sympy.floor, "ceil": sympy.ceiling,
}
_MULTI_FUNCS = {"max": sympy.Max, "min": sympy.Min, "log": sympy.log,  # log(x, base)
                "binomial": sympy.binomial, "atan2": sympy.atan2}


def symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, real=True)


def declared(expr, domains: Domains):
    """`expr` with each name of a declared domain carrying it as an assumption (values/domains.py;
    so sqrt(x^2) = x for a positive x, sin(pi n) = 0 for an integer n)."""
    if not (domains.positive or domains.nonnegative or domains.integers) or \
            not hasattr(expr, "xreplace"):
        return expr
    names = {s.name: s for s in expr.free_symbols if isinstance(s, sympy.Symbol)}
    swap = {}
    for name, old in names.items():
        assumptions = {}
        if name in domains.integers:
            assumptions["integer"] = True
        if name in domains.positive:
            assumptions["positive"] = True
        elif name in domains.nonnegative:
            assumptions["nonnegative"] = True
        if assumptions and old.is_commutative:
            swap[old] = sympy.Symbol(name, real=True, **assumptions)
    return expr.xreplace(swap) if swap else expr


def to_sympy(node: Node) -> sympy.Expr:
    rule = _TO_SYMPY.get(type(node))
    if rule is None:
        raise CannotDecide("unknown_node")
    return rule(node)


def _div(node: Div) -> sympy.Expr:
    den = to_sympy(node.den)
    if not den.is_commutative:
        raise CannotDecide("matrix_division")
    return to_sympy(node.num) / den


def _apply(node: Apply) -> sympy.Expr:
    f = sympy.Function(node.name)
    args, order = [to_sympy(a) for a in node.args], node.order
    if node.partials:  # D_i F(u_1, ..., u_m): differentiate F(t_1, ..., t_m), then put u in
        dummies = [sympy.Dummy(f"t{i}") for i in range(len(args))]
        derived = sympy.Derivative(f(*dummies), *(dummies[i] for i in node.partials))
        return sympy.Subs(derived, dummies, args)
    if order == 0:
        return f(*args)
    (arg,) = args
    if isinstance(arg, sympy.Symbol):
        return sympy.Derivative(f(arg), (arg, order))
    t = sympy.Dummy("t")
    return sympy.Subs(sympy.Derivative(f(t), (t, order)), t, arg)


_TO_SYMPY = {
    # Num.text matched our number pattern (digits, '.', exponent): an exact rational; or "inf".
    Num: lambda n: sympy.oo if n.text == "inf" else sympy.Rational(n.text),
    Const: lambda n: sympy.E if n.name == "e" else sympy.pi,
    Sym: lambda n: symbol(n.name),
    MatSym: lambda n: sympy.Symbol(n.name, commutative=False),
    Ident: lambda n: sympy.Integer(1),
    Neg: lambda n: -to_sympy(n.arg),
    Add: lambda n: sympy.Add(*(to_sympy(t) for t in n.terms)),
    Mul: lambda n: sympy.Mul(*(to_sympy(f) for f in n.factors)),
    Div: _div,
    Pow: lambda n: sympy.Pow(to_sympy(n.base), to_sympy(n.exp)),
    Func: lambda n: _FUNCS[n.name](to_sympy(n.arg)),
    FuncN: lambda n: _MULTI_FUNCS[n.name](*(to_sympy(a) for a in n.args)),
    Apply: _apply,
    Diff: lambda n: sympy.diff(to_sympy(n.expr), symbol(n.var), n.order),
    Transpose: lambda n: to_sympy(push_transpose(n.arg)),
    Factorial: lambda n: sympy.factorial(to_sympy(n.arg)),
    Matrix: lambda n: sympy.ImmutableMatrix([[to_sympy(e) for e in row] for row in n.rows]),
    Series: lambda n: _series(n),
    Member: lambda n: _member(n),
    Moment: lambda n: _moment(n),
}


def _series(node: Series):
    """sympy.Sum / sympy.Product over the range as it runs (a downward range of commuting terms
    is the upward one from the other end; non-commuting factors are left to sampling)."""
    body = to_sympy(node.body)
    if not body.is_commutative:
        raise CannotDecide("matrix_series")
    low, high = to_sympy(node.lower), to_sympy(node.upper)
    if node.descending:
        low, high = high, low
    index = sympy.Symbol(node.var, integer=True)
    body = body.subs(symbol(node.var), index)
    build = sympy.Sum if node.op == "sum" else sympy.Product
    return build(body, (index, low, high)).doit()


def _member(node: Member):
    """Family members are left to sampling: sympy knows neither the declared relations (it
    would call x_{l+1} and x_l + F_l(x_l) different) nor that x_{l+1} at l = 2 is x_3."""
    raise CannotDecide("indexed_symbolic")


def _moment(node: Moment):
    """Moments are decided over distributions (values/moments.py): sympy has no random
    variables with our declarations."""
    raise CannotDecide("moment_by_sampling")


def push_transpose(node: Node) -> Node:
    """(A B)^T = B^T A^T, (A + B)^T = A^T + B^T, (A^T)^T = A; scalars are their own transpose."""
    rule = _TRANSPOSED.get(type(node))
    return node if rule is None else rule(node)


_TRANSPOSED = {
    MatSym: lambda n: MatSym(n.name + "^T"),
    Neg: lambda n: Neg(push_transpose(n.arg)),
    Add: lambda n: Add(tuple(push_transpose(t) for t in n.terms)),
    Mul: lambda n: Mul(tuple(push_transpose(f) for f in reversed(n.factors))),
    Div: lambda n: Div(push_transpose(n.num), n.den),
    Pow: lambda n: Pow(push_transpose(n.base), n.exp),
    Transpose: lambda n: n.arg,
    Matrix: lambda n: Matrix(tuple(zip(*n.rows, strict=True))),
}
