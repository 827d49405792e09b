"""Real value of a constant subtree, for the parser's exponent checks and matrix powers.

Only called on trees that already passed the parser's limits; overflow is caught, not computed.
"""

from __future__ import annotations

import math

from .nodes import Add, Const, Div, Factorial, Func, Mul, Neg, Node, Num, Pow, Transpose


def constant_value(node: Node) -> float | None:
    """Real value of a constant subtree (already limit-checked), or None if not real/finite."""
    try:
        value = _const(node)
    except (OverflowError, ValueError, ZeroDivisionError, TypeError):
        return None
    return value if isinstance(value, float) and math.isfinite(value) else None


def _const(node: Node) -> float:
    match node:
        case Num(v, _):
            return v
        case Const(name):
            return math.e if name == "e" else math.pi
        case Neg(a):
            return -_const(a)
        case Add(terms):
            return math.fsum(_const(t) for t in terms)
        case Mul(factors):
            return math.prod(_const(f) for f in factors)
        case Div(a, b):
            return _const(a) / _const(b)
        case Pow(a, b):
            return float(math.pow(_const(a), _const(b)))
        case Factorial(a):
            return float(math.factorial(int(_const(a))))
        case Func(name, a):
            return float(_REAL_FUNCS[name](_const(a)))
        case Transpose(a):
            return _const(a)
    raise TypeError(node)


_REAL_FUNCS = {
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos,
    "tan": math.tan, "tanh": math.tanh, "sinh": math.sinh, "cosh": math.cosh,
    "sech": lambda v: 1 / math.cosh(v), "sigmoid": lambda v: 1 / (1 + math.exp(-v)), "abs": abs,
}
