"""The value of a formula of numbers with infinities, as a limit in the extended reals.

`2^{-\\infty}` is 0, `(1/2)^{-\\infty}` and `e^{\\infty}` are ∞, `\\pi \\cdot (-\\infty)` is −∞,
`\\arctan(\\infty)` is π/2, `\\log_2(\\infty)` is ∞, `\\log_{0.5}(\\infty)` is −∞ (a base in (0, 1)),
`atan2(1, -\\infty)` is π: each operation on ±∞ takes its limit (the limit of b^y as y → ∞, of
e^t as t → −∞, of log_b x as x → ∞, …). Where there is no limit, or the forms are indeterminate
(∞ − ∞, 0·∞, ∞/∞, 1^∞, ∞^0, 0^{-∞}, a negative number to the power ∞, sin ∞, log_∞ ∞), the
formula has no value. Finite operations follow the real-domain rules of evaluation (a real
power of a negative number has no value, as on paper: (−∞)^{1/3} has none, as (−8)^{1/3} has
none; the real cube root cbrt(−∞), which \\sqrt[3]{-\\infty} reads as, is −∞).

Used by confirm.py on formulas without variables that the float samples leave undecided (numpy
evaluates in complex numbers, where 2^∞ is ∞ + NaN·i). Plain Python floats, no numpy, no mpmath.
"""

from __future__ import annotations

import math

from ..reading.constant import _REAL_FUNCS, _REAL_MULTI_FUNCS, factorial_of
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
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    Transpose,
)

INF = math.inf


class NoValue(Exception):  # noqa: N818 - a signal: no limit, or not a formula of numbers
    pass


def extended_value(node: Node) -> float | None:
    """The value of a formula of numbers in the extended reals, or None (no value or no limit,
    or the formula has names)."""
    try:
        value = _value(node)
    except (NoValue, OverflowError, ValueError, ZeroDivisionError, TypeError):
        return None
    return None if math.isnan(value) else value


def _value(node: Node) -> float:
    value = _RULES[type(node)](node)
    if math.isnan(value):
        raise NoValue
    return value


def _no_value(node: Node) -> float:
    raise NoValue(type(node).__name__)


def _add(node: Add) -> float:
    return math.fsum(_value(t) for t in node.terms)  # inf + -inf: ValueError


def _mul(node: Mul) -> float:
    return math.prod(_value(f) for f in node.factors)  # 0 * inf: nan


def _div(node: Div) -> float:
    num, den = _value(node.num), _value(node.den)
    if den == 0:
        raise NoValue("division by zero")
    return num / den  # inf / inf: nan; 1 / inf: 0


def _power(node: Pow) -> float:
    base, exponent = _value(node.base), _value(node.exp)
    if math.isinf(exponent):
        return _to_infinity(base, exponent)
    if math.isinf(base):
        return _of_infinity(base, exponent)
    whole = exponent == round(exponent)
    if base < 0 and not whole or base == 0 and exponent < 0:
        raise NoValue("not real")
    return math.pow(base, exponent)


def _to_infinity(base: float, exponent: float) -> float:
    """lim b^y as y -> +-inf (b^-inf = (1/b)^inf)."""
    if base < 0 or base == 1 or (base == 0 and exponent < 0):
        raise NoValue("no limit")  # oscillates, 1^inf, 0^-inf
    grows = (base > 1) == (exponent > 0)
    return INF if grows else 0.0


def _of_infinity(base: float, exponent: float) -> float:
    """(+-inf)^c for a finite c."""
    if exponent == 0:
        raise NoValue("inf^0")
    if exponent < 0:
        return 0.0
    if base > 0:
        return INF
    if exponent != round(exponent):
        raise NoValue("not real")  # a real power of a negative number, as for finite ones
    return INF if round(exponent) % 2 == 0 else -INF


# Limits of the built-in functions at +inf and -inf (absent: no limit, e.g. sin).
_AT_INFINITY = {
    "sqrt": (INF, None), "cbrt": (INF, -INF), "exp": (INF, 0.0), "log": (INF, None),
    "abs": (INF, INF), "sign": (1.0, -1.0), "sigmoid": (1.0, 0.0),
    "arctan": (math.pi / 2, -math.pi / 2), "arccot": (0.0, 0.0),
    "sinh": (INF, -INF), "cosh": (INF, INF), "tanh": (1.0, -1.0),
    "sech": (0.0, 0.0), "csch": (0.0, 0.0), "coth": (1.0, -1.0),
    "asinh": (INF, -INF), "acosh": (INF, None), "acsch": (0.0, 0.0),
}


def _func(node: Func) -> float:
    x = _value(node.arg)
    if math.isinf(x):
        limit = _AT_INFINITY.get(node.name, (None, None))[0 if x > 0 else 1]
        if limit is None:
            raise NoValue(node.name)
        return limit
    if node.name not in _REAL_FUNCS:
        raise NoValue(node.name)
    return float(_REAL_FUNCS[node.name](x))


def _func_n(node: FuncN) -> float:
    args = [_value(a) for a in node.args]
    if node.name in ("max", "min"):
        return max(args) if node.name == "max" else min(args)
    if node.name == "log" and args[0] == INF:
        return _log_of_infinity(args[1])
    if node.name == "atan2" and not all(map(math.isinf, args)):
        return _REAL_MULTI_FUNCS["atan2"](*args)  # atan2(1, -inf) = pi, atan2(-inf, 2) = -pi/2
    if any(math.isinf(a) for a in args):
        raise NoValue(node.name)
    return float(_REAL_MULTI_FUNCS[node.name](*args))


def _log_of_infinity(base: float) -> float:
    """log_b(x) = ln x / ln b as x -> +inf: +inf for a base above 1, -inf for a base in (0, 1)
    (log_{1/2} x -> -inf); no value for a base of 1, 0, a negative or an infinite one."""
    if base > 1 and not math.isinf(base):
        return INF
    if 0 < base < 1:
        return -INF
    raise NoValue("log")


def _factorial(node: Factorial) -> float:
    x = _value(node.arg)
    if x == INF:
        return INF
    return factorial_of(x)


_RULES = {
    Num: lambda n: n.value,
    Const: lambda n: math.e if n.name == "e" else math.pi,
    Neg: lambda n: -_value(n.arg),
    Add: _add,
    Mul: _mul,
    Div: _div,
    Pow: _power,
    Func: _func,
    FuncN: _func_n,
    Factorial: _factorial,
    Transpose: lambda n: _value(n.arg),  # of a number
    # Names, matrices, derivatives, sums and members: not a formula of numbers.
    Sym: _no_value, MatSym: _no_value, Ident: _no_value, Apply: _no_value, Diff: _no_value,
    Matrix: _no_value, Series: _no_value, Member: _no_value,
}
