"""Real value of a constant subtree, for the parser's exponent checks and matrix powers.

Only called on trees that already passed the parser's limits; overflow is caught, not computed.
"""

from __future__ import annotations

import math

from .nodes import Add, Const, Div, Factorial, Func, FuncN, Mul, Neg, Node, Num, Pow, Transpose


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
    FuncN: lambda n: float(_REAL_MULTI_FUNCS[n.name](*(_const(a) for a in n.args))),
    Transpose: lambda n: _const(n.arg),
    Factorial: lambda n: factorial_of(_const(n.arg)),
}


FLOAT_FACTORIALS = 170  # 171! is beyond a float: larger whole numbers go through math.gamma


def factorial_of(x: float) -> float:
    """x! = Gamma(x + 1) (DLMF 5.4.1), exact for whole x; ValueError at the poles (x a negative
    whole number), OverflowError above 170!."""
    if x.is_integer() and 0 <= x <= FLOAT_FACTORIALS:
        return float(math.factorial(int(x)))
    return math.gamma(x + 1)  # OverflowError beyond 170: never an exact factorial of 10^50


def atan2_of(y: float, x: float) -> float:
    """The angle of the point (x, y), in (-pi, pi] (C's and numpy's atan2, y first); ValueError
    at (0, 0), where it has no value (C returns 0 there by convention, SymPy nan)."""
    if x == 0 and y == 0:
        raise ValueError("atan2(0, 0)")
    return math.atan2(y, x)


def _reciprocal_gamma(x: float) -> float:
    """1/Gamma(x), an entire function: 0 at the poles of Gamma (DLMF 5.2.1, 5.2(i))."""
    if x <= 0 and x.is_integer():
        return 0.0
    value = math.gamma(x)  # OverflowError above 171
    if value == 0:  # underflow far left of 0: 1/Gamma is beyond a float too
        raise OverflowError(x)
    return 1 / value


def binomial_of(n: float, k: float) -> float:
    """binomial(n, k) = Gamma(n+1) / (Gamma(k+1) Gamma(n-k+1)) (DLMF 1.2.6, extended by the gamma
    function): math.comb for whole 0 <= k <= n, 0 for whole k outside 0..n (n whole and >= 0)."""
    if n.is_integer() and k.is_integer() and 0 <= n <= FLOAT_FACTORIALS:
        return float(math.comb(int(n), int(k))) if 0 <= k <= n else 0.0
    if n.is_integer() and k.is_integer() and n >= 0:
        if not 0 <= k <= n:
            return 0.0
        m = min(k, n - k)
        if m <= FLOAT_FACTORIALS:  # binomial(2e50, 3) = 2e50 (2e50 - 1) (2e50 - 2) / 6
            return math.prod((n - i) / (i + 1) for i in range(int(m)))
    return factorial_of(n) * _reciprocal_gamma(k + 1) * _reciprocal_gamma(n - k + 1)


# Outside a function's real domain math raises ValueError (asin(2)) or ZeroDivisionError (cot 0):
# constant_value then answers None.
_REAL_FUNCS = {
    "sqrt": math.sqrt, "cbrt": math.cbrt, "exp": math.exp, "log": math.log, "abs": abs,
    "sign": lambda v: math.copysign(1.0, v) if v else 0.0,
    "sigmoid": lambda v: 1 / (1 + math.exp(-v)),
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "sec": lambda v: 1 / math.cos(v),
    "csc": lambda v: 1 / math.sin(v), "cot": lambda v: math.cos(v) / math.sin(v),
    "arcsin": math.asin, "arccos": math.acos, "arctan": math.atan,
    "arcsec": lambda v: math.acos(1 / v), "arccsc": lambda v: math.asin(1 / v),
    "arccot": lambda v: math.atan(1 / v),
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh, "sech": lambda v: 1 / math.cosh(v),
    "csch": lambda v: 1 / math.sinh(v), "coth": lambda v: math.cosh(v) / math.sinh(v),
    "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
    "asech": lambda v: math.acosh(1 / v), "acsch": lambda v: math.asinh(1 / v),
    "acoth": lambda v: math.atanh(1 / v),
    "floor": math.floor, "ceil": math.ceil,
}
_REAL_MULTI_FUNCS = {"max": max, "min": min, "log": math.log,  # log(x, base)
                     "binomial": binomial_of, "atan2": atan2_of}
