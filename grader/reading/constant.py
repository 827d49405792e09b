"""Real value of a constant subtree, for the parser's exponent checks and matrix powers.

Only called on trees that already passed the parser's limits; overflow is caught, not computed.
"""

from __future__ import annotations

import math

from .nodes import Add, Const, Div, Factorial, Func, Mul, Neg, Node, Num, Pow, Transpose


def constant_value(node: Node) -> float | None:
    """Real value of a constant subtree (already limit-checked), or None if not real/finite."""
    if type(node) is Num:  # most entries are plain numbers: no dispatch, no try
        return node.value if math.isfinite(node.value) else None
    try:
        value = _const(node)
    except (OverflowError, ValueError, ZeroDivisionError, TypeError):
        return None
    return value if isinstance(value, float) and math.isfinite(value) else None


def _const(node: Node) -> float:
    rule = _CONST.get(type(node))
    if rule is None:  # a name, a matrix or a derivative: no constant value
        raise TypeError(node)
    return rule(node)


_CONST = {
    Num: lambda n: n.value,
    Const: lambda n: math.e if n.name == "e" else math.pi,
    Neg: lambda n: -_const(n.arg),
    Add: lambda n: math.fsum(_const(t) for t in n.terms),
    Mul: lambda n: math.prod(_const(f) for f in n.factors),
    Div: lambda n: _const(n.num) / _const(n.den),
    Pow: lambda n: float(math.pow(_const(n.base), _const(n.exp))),
    Func: lambda n: float(_REAL_FUNCS[n.name](_const(n.arg))),
    Transpose: lambda n: _const(n.arg),
    Factorial: lambda n: float(math.factorial(int(_const(n.arg)))),
}


_REAL_FUNCS = {
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos,
    "tan": math.tan, "tanh": math.tanh, "sinh": math.sinh, "cosh": math.cosh,
    "sech": lambda v: 1 / math.cosh(v), "sigmoid": lambda v: 1 / (1 + math.exp(-v)), "abs": abs,
}
