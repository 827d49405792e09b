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
)

_FUNCS = {"sqrt": sympy.sqrt, "exp": sympy.exp, "log": sympy.log, "sin": sympy.sin,
          "cos": sympy.cos, "tan": sympy.tan, "tanh": sympy.tanh, "sinh": sympy.sinh,
          "cosh": sympy.cosh, "sech": sympy.sech, "Abs": sympy.Abs,
          "sigmoid": lambda u: 1 / (1 + sympy.exp(-u)), "abs": sympy.Abs}


def symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, real=True)


def to_sympy(node: Node) -> sympy.Expr:
    match node:
        case Num(_, text):
            return sympy.Rational(text)  # text matched our number pattern: digits, '.', exponent
        case Const(name):
            return sympy.E if name == "e" else sympy.pi
        case Sym(name):
            return symbol(name)
        case MatSym(name):
            return sympy.Symbol(name, commutative=False)
        case Ident():
            return sympy.Integer(1)
        case Neg(a):
            return -to_sympy(a)
        case Add(terms):
            return sympy.Add(*(to_sympy(t) for t in terms))
        case Mul(factors):
            return sympy.Mul(*(to_sympy(f) for f in factors))
        case Div(a, b):
            den = to_sympy(b)
            if not den.is_commutative:
                raise CannotDecide("matrix_division")
            return to_sympy(a) / den
        case Pow(a, b):
            return sympy.Pow(to_sympy(a), to_sympy(b))
        case Func(name, a):
            return _FUNCS[name](to_sympy(a))
        case Apply(name, args, order):
            return _apply(name, [to_sympy(a) for a in args], order)
        case Diff(expr, var, order):
            return sympy.diff(to_sympy(expr), symbol(var), order)
        case Transpose(a):
            return to_sympy(push_transpose(a))
        case Factorial(a):
            return sympy.factorial(int(a.value))
        case Matrix(rows):
            return sympy.ImmutableMatrix([[to_sympy(e) for e in row] for row in rows])
    raise CannotDecide("unknown_node")


def _apply(name: str, args: list[sympy.Expr], order: int) -> sympy.Expr:
    f = sympy.Function(name)
    if order == 0:
        return f(*args)
    (arg,) = args
    if isinstance(arg, sympy.Symbol):
        return sympy.Derivative(f(arg), (arg, order))
    t = sympy.Dummy("t")
    return sympy.Subs(sympy.Derivative(f(t), (t, order)), t, arg)


def push_transpose(node: Node) -> Node:
    """(A B)^T = B^T A^T, (A + B)^T = A^T + B^T, (A^T)^T = A; scalars are their own transpose."""
    match node:
        case MatSym(name):
            return MatSym(name + "^T")
        case Transpose(a):
            return a
        case Add(terms):
            return Add(tuple(push_transpose(t) for t in terms))
        case Mul(factors):
            return Mul(tuple(push_transpose(f) for f in reversed(factors)))
        case Neg(a):
            return Neg(push_transpose(a))
        case Div(a, b):
            return Div(push_transpose(a), b)
        case Pow(a, b):
            return Pow(push_transpose(a), b)
        case Matrix(rows):
            return Matrix(tuple(zip(*rows, strict=True)))
    return node
