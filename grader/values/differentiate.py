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
    Ident,
    Matrix,
    MatSym,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Sym,
    Transpose,
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
    match node:
        case Diff(expr, var, order):
            result = _expand(expr)
            for _ in range(order):
                result = derivative(result, var)
            return result
        case Neg(a):
            return Neg(_expand(a))
        case Add(terms):
            return Add(tuple(_expand(t) for t in terms))
        case Mul(factors):
            return Mul(tuple(_expand(f) for f in factors))
        case Div(a, b):
            return Div(_expand(a), _expand(b))
        case Pow(a, b):
            return Pow(_expand(a), _expand(b))
        case Func(name, a):
            return Func(name, _expand(a))
        case Apply(name, args, order):
            return Apply(name, tuple(_expand(a) for a in args), order)
        case Transpose(a):
            return Transpose(_expand(a))
        case Matrix(rows):
            return Matrix(tuple(tuple(_expand(e) for e in row) for row in rows))
    return node


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
    match node:
        case Num() | Const() | Ident() | Factorial():
            return ZERO
        case Sym(name):
            return ONE if name == var else ZERO
        case MatSym():
            raise CannotDecide("matrix_derivative")
        case Neg(a):
            return neg(derivative(a, var))
        case Add(terms):
            return add(*(derivative(t, var) for t in terms))
        case Mul(factors):
            parts = []
            for i, f in enumerate(factors):
                d = derivative(f, var)
                if d != ZERO:
                    parts.append(mul(*factors[:i], d, *factors[i + 1:]))
            return add(*parts)
        case Div(a, b):
            da, db = derivative(a, var), derivative(b, var)
            if db == ZERO:
                return ZERO if da == ZERO else Div(da, b)
            return Div(add(mul(da, b), neg(mul(a, db))), Pow(b, TWO))
        case Pow(a, b):
            da, db = derivative(a, var), derivative(b, var)
            if db == ZERO:
                return ZERO if da == ZERO else mul(b, Pow(a, add(b, Num(-1.0, "-1"))), da)
            return mul(node, add(mul(db, Func("log", a)), mul(b, Div(da, a))))
        case Func(name, a):
            da = derivative(a, var)
            return ZERO if da == ZERO else mul(_outer_derivative(name, a), da)
        case Apply(name, args, order):
            if len(args) != 1:
                if all(derivative(a, var) == ZERO for a in args):
                    return ZERO
                raise CannotDecide("partial_derivative")
            da = derivative(args[0], var)
            return ZERO if da == ZERO else mul(Apply(name, args, order + 1), da)
        case Transpose(a):
            return Transpose(derivative(a, var))
        case Matrix(rows):
            return Matrix(tuple(tuple(derivative(e, var) for e in row) for row in rows))
        case Diff():
            return derivative(_expand(node), var)
    raise CannotDecide("unknown_node")


def _outer_derivative(name: str, a: Node) -> Node:
    """d/du f(u) for the built-in functions."""
    match name:
        case "sqrt":
            return Div(ONE, mul(TWO, Func("sqrt", a)))
        case "exp":
            return Func("exp", a)
        case "log":
            return Div(ONE, a)
        case "sin":
            return Func("cos", a)
        case "cos":
            return Neg(Func("sin", a))
        case "tan":
            return Div(ONE, Pow(Func("cos", a), TWO))
        case "tanh":
            return Pow(Func("sech", a), TWO)
        case "sinh":
            return Func("cosh", a)
        case "cosh":
            return Func("sinh", a)
        case "sech":
            return Neg(Mul((Func("sech", a), Func("tanh", a))))
        case "sigmoid":
            return Mul((Func("sigmoid", a), add(ONE, Neg(Func("sigmoid", a)))))
        case "abs":
            return Div(a, Func("abs", a))
    raise CannotDecide("unknown_function")
