"""Exact differentiation on our own tree (no sympy), so `d/dx`, `diff` and F' evaluate numerically.

Rules are the textbook ones; each result is simplified only where a factor is 0 or 1, and the
result size is bounded so nested derivatives cannot blow up.
"""

from __future__ import annotations

import threading
from functools import lru_cache

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
    by_member,
    count_nodes,
    facts,
)

ZERO, ONE, TWO = Num(0.0, "0"), Num(1.0, "1"), Num(2.0, "2")
MAX_DERIVED_NODES = 5000
MAX_RULE_APPLICATIONS = 20000  # bounds the work of nested derivatives before anything is built


# Rule applications left in the current expansion (per thread); running out = "cannot decide".
_Budget = threading.local()


def expand_derivatives(node: Node) -> Node:
    """Replace every Diff node by its derivative (innermost first)."""
    if not facts(node).has_diff:
        return node
    _Budget.remaining = MAX_RULE_APPLICATIONS
    result = _expand(node)
    if count_nodes(result) > MAX_DERIVED_NODES:
        raise CannotDecide("derivative_too_large")
    return result


@lru_cache(maxsize=64)  # derived trees can be large: keep few
def _expand(node: Node) -> Node:
    rule = _EXPAND.get(type(node))
    return node if rule is None else rule(node)  # leaves (and n!) contain no derivative


def _expand_diff(node: Diff) -> Node:
    if node.vector:  # a Jacobian by a declared vector: evaluated, not expanded (evaluate.py)
        return Diff(_expand(node.expr), node.var, node.order, vector=True)  # order: evaluate.py
    if by_member(node):  # through a family's recursion: evaluated, not expanded (evaluate.py)
        if node.order != 1:
            raise CannotDecide("member_derivative_order")
        return Diff(_expand(node.expr), node.var, 1)
    result = _expand(node.expr)
    for _ in range(node.order):
        result = derivative(result, node.var)
    return result


_EXPAND = {
    Neg: lambda n: Neg(_expand(n.arg)),
    Add: lambda n: Add(tuple(_expand(t) for t in n.terms)),
    Mul: lambda n: Mul(tuple(_expand(f) for f in n.factors)),
    Div: lambda n: Div(_expand(n.num), _expand(n.den)),
    Pow: lambda n: Pow(_expand(n.base), _expand(n.exp)),
    Func: lambda n: Func(n.name, _expand(n.arg)),
    FuncN: lambda n: FuncN(n.name, tuple(_expand(a) for a in n.args)),
    Apply: lambda n: Apply(n.name, tuple(_expand(a) for a in n.args), n.order, n.partials),
    Diff: _expand_diff,
    Transpose: lambda n: Transpose(_expand(n.arg)),
    Matrix: lambda n: Matrix(tuple(tuple(_expand(e) for e in row) for row in n.rows)),
    Series: lambda n: Series(n.op, n.var, _expand(n.lower), _expand(n.upper), _expand(n.body),
                             n.descending),
    Member: lambda n: Member(n.family, n.index, n.kind, tuple(_expand(a) for a in n.args),
                             n.order),
}


def add(*terms: Node) -> Node:
    kept = tuple(t for t in terms if t != ZERO)
    return ZERO if not kept else kept[0] if len(kept) == 1 else Add(kept)


def mul(*factors: Node) -> Node:
    if ZERO in factors:
        return ZERO
    kept = tuple(f for f in factors if f != ONE)
    return ONE if not kept else kept[0] if len(kept) == 1 else Mul(kept)


def neg(a: Node) -> Node:
    return ZERO if a == ZERO else Neg(a)


def derivative(node: Node, var: str) -> Node:
    _Budget.remaining = getattr(_Budget, "remaining", MAX_RULE_APPLICATIONS) - 1
    if _Budget.remaining < 0:
        raise CannotDecide("derivative_too_large")
    rule = _DERIVATIVE.get(type(node))
    if rule is None:
        raise CannotDecide("unknown_node")
    return rule(node, var)


def _d_matsym(node: MatSym, var: str) -> Node:
    raise CannotDecide("matrix_derivative")


def _d_mul(node: Mul, var: str) -> Node:
    factors = node.factors
    parts = []
    for i, f in enumerate(factors):
        d = derivative(f, var)
        if d != ZERO:
            parts.append(mul(*factors[:i], d, *factors[i + 1:]))
    return add(*parts)


def _d_div(node: Div, var: str) -> Node:
    a, b = node.num, node.den
    da, db = derivative(a, var), derivative(b, var)
    if db == ZERO:
        return ZERO if da == ZERO else Div(da, b)
    return Div(add(mul(da, b), neg(mul(a, db))), Pow(b, TWO))


def _d_pow(node: Pow, var: str) -> Node:
    a, b = node.base, node.exp
    da, db = derivative(a, var), derivative(b, var)
    if db == ZERO:
        return ZERO if da == ZERO else mul(b, Pow(a, add(b, Num(-1.0, "-1"))), da)
    return mul(node, add(mul(db, Func("log", a)), mul(b, Div(da, a))))


def _d_func(node: Func, var: str) -> Node:
    da = derivative(node.arg, var)
    if da == ZERO:
        return ZERO
    outer = _OUTER_DERIVATIVE.get(node.name)
    if outer is None:
        raise CannotDecide("unknown_function")
    return mul(outer(node.arg), da)


def _d_func_n(node: FuncN, var: str) -> Node:
    if node.name == "binomial":
        return _d_gamma(node, node.args, var)
    if node.name == "atan2":  # d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
        y, x = node.args
        top = add(mul(x, derivative(y, var)), neg(mul(y, derivative(x, var))))
        return ZERO if top == ZERO else Div(top, Add((_square(x), _square(y))))
    return derivative(single_argument_form(node), var)


def _d_gamma(node: Node, args: tuple[Node, ...], var: str) -> Node:
    """Factorials and binomials are constant where their arguments are; otherwise the derivative
    needs the digamma function, which the grader does not have."""
    if all(derivative(a, var) == ZERO for a in args):
        return ZERO
    raise CannotDecide("factorial_derivative")


def single_argument_form(node: FuncN) -> Node:
    """The same function written with one-argument functions, for its derivative:
    log(x, b) = ln x / ln b, max(a, b) = (a + b + |a - b|) / 2, min(a, b) = (a + b - |a - b|) / 2
    (more arguments: max(a, b, c) = max(max(a, b), c))."""
    if node.name == "log":
        x, base = node.args
        return Div(Func("log", x), Func("log", base))
    result = node.args[0]
    for b in node.args[1:]:
        gap = Func("abs", Add((result, Neg(b))))
        result = Div(Add((result, b, gap if node.name == "max" else Neg(gap))), TWO)
    return result


def _d_apply(node: Apply, var: str) -> Node:
    """The chain rule: d/dx F(u(x)) = F'(u) u'(x); with several arguments
    d/dx F(u_1, ..., u_m) = sum_i (the partial derivative of F by argument i)(u) * du_i/dx."""
    name, args, order = node.name, node.args, node.order
    if len(args) != 1:
        terms = []
        for i, a in enumerate(args):
            da = derivative(a, var)
            if da != ZERO:
                partials = tuple(sorted((*node.partials, i)))
                terms.append(mul(Apply(name, args, 0, partials), da))
        return add(*terms)
    da = derivative(args[0], var)
    return ZERO if da == ZERO else mul(Apply(name, args, order + 1), da)


def _constant(node: Node, var: str) -> Node:
    return ZERO


_DERIVATIVE = {
    Num: _constant,
    Const: _constant,
    Sym: lambda n, var: ONE if n.name == var else ZERO,
    MatSym: _d_matsym,
    Ident: _constant,
    Neg: lambda n, var: neg(derivative(n.arg, var)),
    Add: lambda n, var: add(*(derivative(t, var) for t in n.terms)),
    Mul: _d_mul,
    Div: _d_div,
    Pow: _d_pow,
    Func: _d_func,
    FuncN: _d_func_n,
    Apply: _d_apply,
    Diff: lambda n, var: _d_diff(n, var),
    Transpose: lambda n, var: Transpose(derivative(n.arg, var)),
    Factorial: lambda n, var: _d_gamma(n, (n.arg,), var),
    Matrix: lambda n, var: Matrix(tuple(tuple(derivative(e, var) for e in row)
                                        for row in n.rows)),
    Series: lambda n, var: _d_series(n, var),
    Member: lambda n, var: _d_member(n, var),
    Moment: lambda n, var: _d_moment(n),
}


def _d_moment(node: Moment) -> Node:
    raise CannotDecide("moment_derivative")


def _d_diff(node: Diff, var: str) -> Node:
    expanded = _expand(node)
    if type(expanded) is Diff:  # a derivative by a member, differentiated again
        raise CannotDecide("member_derivative_order")
    return derivative(expanded, var)


def _d_series(node: Series, var: str) -> Node:
    """d/dx of a sum is the sum of the terms' derivatives (the bounds are integers, constant in
    x); a product whose terms depend on x is left to "cannot decide"."""
    if node.var == var:
        raise CannotDecide("unknown_node")
    d_body = derivative(node.body, var)
    if d_body == ZERO:
        return ZERO
    if node.op != "sum":
        raise CannotDecide("product_derivative")
    return Series("sum", node.var, node.lower, node.upper, d_body, node.descending)


def _d_member(node: Member, var: str) -> Node:
    """A member x_l is a name of its own (constant in x); F_l(u)' = F_l'(u) u'."""
    if node.kind != "function":
        return ZERO
    if len(node.args) != 1:
        if all(derivative(a, var) == ZERO for a in node.args):
            return ZERO
        raise CannotDecide("partial_derivative")
    da = derivative(node.args[0], var)
    if da == ZERO:
        return ZERO
    return mul(Member(node.family, node.index, "function", node.args, node.order + 1), da)

def _square(a: Node) -> Node:
    return Pow(a, TWO)


def _one_over(den: Node) -> Node:
    return Div(ONE, den)


def _minus(p: Node, q: Node) -> Node:
    return add(p, Neg(q))


def _sqrt(p: Node) -> Node:
    return Func("sqrt", p)


THREE = Num(3.0, "3")

# d/du f(u) for the built-in functions, as a tree in u (A&S 4.3-4.6; DLMF 4.21, 4.24, 4.34,
# 4.37). sign, floor and ceil are constant wherever they are differentiable.
_OUTER_DERIVATIVE = {
    "sqrt": lambda a: Div(ONE, mul(TWO, Func("sqrt", a))),
    "cbrt": lambda a: _one_over(mul(THREE, _square(Func("cbrt", a)))),
    "exp": lambda a: Func("exp", a),
    "log": lambda a: Div(ONE, a),
    "abs": lambda a: Div(a, Func("abs", a)),
    "sign": lambda a: ZERO,
    "sigmoid": lambda a: Mul((Func("sigmoid", a), add(ONE, Neg(Func("sigmoid", a))))),
    "sin": lambda a: Func("cos", a),
    "cos": lambda a: Neg(Func("sin", a)),
    "tan": lambda a: Div(ONE, Pow(Func("cos", a), TWO)),
    "sec": lambda a: Mul((Func("sec", a), Func("tan", a))),
    "csc": lambda a: Neg(Mul((Func("csc", a), Func("cot", a)))),
    "cot": lambda a: Neg(_square(Func("csc", a))),
    "arcsin": lambda a: _one_over(_sqrt(_minus(ONE, _square(a)))),
    "arccos": lambda a: Neg(_one_over(_sqrt(_minus(ONE, _square(a))))),
    "arctan": lambda a: _one_over(add(ONE, _square(a))),
    "arcsec": lambda a: _one_over(Mul((Func("abs", a), _sqrt(_minus(_square(a), ONE))))),
    "arccsc": lambda a: Neg(_one_over(Mul((Func("abs", a), _sqrt(_minus(_square(a), ONE)))))),
    "arccot": lambda a: Neg(_one_over(add(ONE, _square(a)))),
    "sinh": lambda a: Func("cosh", a),
    "cosh": lambda a: Func("sinh", a),
    "tanh": lambda a: Pow(Func("sech", a), TWO),
    "sech": lambda a: Neg(Mul((Func("sech", a), Func("tanh", a)))),
    "csch": lambda a: Neg(Mul((Func("csch", a), Func("coth", a)))),
    "coth": lambda a: Neg(_square(Func("csch", a))),
    "asinh": lambda a: _one_over(_sqrt(add(_square(a), ONE))),
    "acosh": lambda a: _one_over(_sqrt(_minus(_square(a), ONE))),
    "atanh": lambda a: _one_over(_minus(ONE, _square(a))),
    "asech": lambda a: Neg(_one_over(Mul((a, _sqrt(_minus(ONE, _square(a))))))),
    "acsch": lambda a: Neg(_one_over(Mul((Func("abs", a), _sqrt(add(ONE, _square(a))))))),
    "acoth": lambda a: _one_over(_minus(ONE, _square(a))),
    "floor": lambda a: ZERO,
    "ceil": lambda a: ZERO,
}
