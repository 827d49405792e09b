"""Numbers as people write them: exact decimal values, and the sub-expressions that have none.

`exact_value(node)` evaluates a constant tree in decimal arithmetic with 60 significant digits,
so a typed `2.675` is the decimal 2.675 and not the binary float just below it. Typed numbers
are exact (the parser allows at most 30 digits), and so is every sum, product, whole power and
factorial whose result fits in 60 digits; a longer result, a division that does not terminate,
a fractional power, `ln`, `exp`, `sqrt`, `e` and `π` are correctly rounded to 60 digits; the
trigonometric and hyperbolic functions go through a float (16 digits) except at 0, where their
value is exact. Every tolerance and rounding decision in numeric.py is far coarser than that.

A sub-expression with no value raises `UndefinedValue` with the text of what was undefined,
as a learner would write it: `1/0`, `0/0`, `0^-1`, `log(0)`, `∞ - ∞`. `undefined_part` finds
such a constant sub-expression anywhere in a formula; `undefined_everywhere` finds a
denominator (or a logarithm's argument, or a negative power's base) that is 0 at every sampled
point, e.g. `1/(x - x)`. A value that exists but is not real (`sqrt(-1)`) raises `NotReal`.
"""

from __future__ import annotations

import math
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)

import numpy as np

from ..errors import EvalError, GraderError
from ..reading.nodes import (
    Add,
    Const,
    Div,
    Factorial,
    Func,
    FuncN,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Transpose,
    children,
    is_constant,
    walk,
)
from ..reading.printer import to_text
from ..values.evaluate import Env, evaluate

DIGITS = 60
# 60 digits: twice the longest number the parser lets through. Division by zero and invalid
# operations (∞ - ∞) raise, to be reported as undefined; overflow raises, to become ±∞.
CONTEXT = Context(prec=DIGITS, Emax=10**6, Emin=-(10**6),
                  traps=[InvalidOperation, DivisionByZero, Overflow])
ZERO, ONE, HALF = Decimal(0), Decimal(1), Decimal("0.5")
INFINITY = Decimal("Infinity")
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494")
E = Decimal("2.71828182845904523536028747135266249775724709369995957496697")


class UndefinedValue(EvalError):
    """A sub-expression with no value: `what` is its text (`1/0`, `log(0)`); `key` the message
    that explains it (messages.py)."""

    def __init__(self, what: str, key: str = "undefined_value") -> None:
        super().__init__(key, what=what)


class NotReal(GraderError):
    """The value exists but is not a real number (sqrt(-1), log(-2), (-8)^(1/3))."""

    def __init__(self) -> None:
        super().__init__("not_real")


class NotExact(Exception):  # noqa: N818 - a signal: no decimal value here, use the float path
    """Not a constant scalar this module can evaluate (a name, a matrix, an unknown function)."""


def exact_value(node: Node) -> Decimal:
    """The decimal value of a constant scalar tree (±Infinity when it overflows or is `inf`).

    Raises UndefinedValue, NotReal, or NotExact (not a constant scalar)."""
    rule = _RULES.get(type(node))
    if rule is None:
        raise NotExact(type(node).__name__)
    return rule(node, [exact_value(child) for child in children(node)])


def decimal_of_float(value: float) -> Decimal:
    """The decimal a float was written as: the shortest repr that reads back as the same float
    (2.675, not 2.67499999999999982236431605997495353221893310546875)."""
    if not math.isfinite(value):
        return INFINITY.copy_sign(Decimal(value)) if math.isinf(value) else Decimal("NaN")
    return Decimal(repr(value))


def show(value: Decimal) -> str:
    """A value inside a message: `0`, `-1`, `2.5`, `0.333333333333`, `∞`."""
    if value.is_infinite():
        return "-∞" if value < 0 else "∞"
    if value == value.to_integral_value() and abs(value) < 10**15:
        return str(int(value))
    return f"{value.normalize(CONTEXT):.12g}"


# -- the rules, one per node type: (node, its children's values) -> its value ------------------

def _num(node: Num, _values=()) -> Decimal:
    if math.isinf(node.value):  # `inf`, `∞`
        return INFINITY
    try:
        return Decimal(node.text)
    except InvalidOperation:  # not a decimal literal (a number built by a rewrite): its float
        return decimal_of_float(node.value)


def _add(_node: Add, values: list[Decimal]) -> Decimal:
    total = values[0]
    for value in values[1:]:
        try:
            total = CONTEXT.add(total, value)
        except InvalidOperation:  # ∞ - ∞
            raise UndefinedValue(f"{show(total)} + {show(value)}".replace("+ -", "- ")) from None
    return total


def _mul(_node: Mul, values: list[Decimal]) -> Decimal:
    product = values[0]
    for value in values[1:]:
        try:
            product = CONTEXT.multiply(product, value)
        except InvalidOperation:  # 0 · ∞
            raise UndefinedValue(f"{show(product)}·{show(value)}") from None
    return product


def _div(_node: Div, values: list[Decimal]) -> Decimal:
    num, den = values
    if den == 0 or (num.is_infinite() and den.is_infinite()):
        raise UndefinedValue(f"{show(num)}/{show(den)}")
    return CONTEXT.divide(num, den)


def power(base: Decimal, exponent: Decimal) -> Decimal:
    if base == 0:
        if exponent < 0:
            raise UndefinedValue(f"0^{show(exponent)}")
        return ONE if exponent == 0 else ZERO  # 0^0 = 1, as in Python, numpy and sympy
    if base < 0 and exponent != exponent.to_integral_value():
        raise NotReal
    if base.is_infinite() or exponent.is_infinite():
        return _float_power(base, exponent)
    try:
        return CONTEXT.power(base, exponent)
    except Overflow:
        return INFINITY if base > 0 or exponent % 2 == 0 else -INFINITY


def _float_power(base: Decimal, exponent: Decimal) -> Decimal:
    try:
        return decimal_of_float(math.pow(float(base), float(exponent)))
    except (OverflowError, ValueError):
        raise NotExact("power") from None


def _func(node: Func, values: list[Decimal]) -> Decimal:
    rule = _FUNCTIONS.get(node.name)
    if rule is None:
        raise NotExact(node.name)  # a function added elsewhere: its float value is used
    return rule(values[0], node.name)


def _func_n(node: FuncN, values: list[Decimal]) -> Decimal:
    """max, min of several numbers; log(x, base) = ln x / ln base; binomial(n, k) of whole
    numbers (others through the float path: the gamma function)."""
    if node.name in ("max", "min"):
        return max(values) if node.name == "max" else min(values)
    if node.name == "binomial" and all(v == v.to_integral_value() for v in values) \
            and values[0] >= 0:
        n, k = (int(v) for v in values)
        return Decimal(math.comb(n, k)) if 0 <= k <= n else Decimal(0)
    if node.name != "log" or len(values) != 2:
        raise NotExact(node.name)
    x, base = values
    if x == 0 or base == 1 or base == 0:
        raise UndefinedValue(f"log_{show(base)}({show(x)})")
    if x < 0 or base < 0:
        raise NotReal
    return CONTEXT.divide(_log(x), _log(base))


def _log(arg: Decimal) -> Decimal:
    if arg == 0:
        raise UndefinedValue("log(0)")
    if arg < 0:
        raise NotReal
    return INFINITY if arg.is_infinite() else CONTEXT.ln(arg)


def _sqrt(arg: Decimal) -> Decimal:
    if arg < 0:
        raise NotReal
    return CONTEXT.sqrt(arg)


def _exp(arg: Decimal) -> Decimal:
    if arg.is_infinite():
        return ZERO if arg < 0 else INFINITY
    try:
        return CONTEXT.exp(arg)
    except Overflow:
        return INFINITY


def _through_float(function, at_zero: Decimal | None, domain=None):
    """A function without a decimal implementation: exact at 0 (`at_zero`; None: a pole there,
    cot(0)), else through a float. `domain(arg)`: False outside its real domain (arcsin 2)."""
    def rule(arg: Decimal, name: str) -> Decimal:
        if arg == 0:
            if at_zero is None:
                raise UndefinedValue(f"{name}(0)")
            return at_zero
        if domain is not None and not domain(abs(arg)):
            raise NotReal
        try:
            return decimal_of_float(function(float(arg)))
        except OverflowError:
            return INFINITY
        except (ValueError, ZeroDivisionError):
            raise NotExact("float") from None
    return rule


def _pole_at_one(function):
    """atanh, acoth: no value at ±1 (a pole); atanh real inside (-1, 1), acoth outside."""
    def rule(arg: Decimal, name: str) -> Decimal:
        if abs(arg) == 1:
            raise UndefinedValue(f"{name}({show(arg)})")
        return function(arg, name)
    return rule


def _sigmoid(v: float) -> float:
    return 1 / (1 + math.exp(-v)) if v > -700 else 0.0


def _rounded(rounding: str):
    return lambda arg, _name: arg.to_integral_value(rounding=rounding, context=CONTEXT)


# name -> rule(argument, name); a name missing here (arccot: conventions differ at 0) has its
# float value used.
_FUNCTIONS = {
    "sqrt": lambda a, _n: _sqrt(a), "exp": lambda a, _n: _exp(a), "log": lambda a, _n: _log(a),
    "abs": lambda a, _n: CONTEXT.abs(a), "sign": lambda a, _n: Decimal(a.compare(ZERO)),
    "cbrt": _through_float(math.cbrt, ZERO),
    "sigmoid": _through_float(_sigmoid, HALF),
    "sin": _through_float(math.sin, ZERO), "cos": _through_float(math.cos, ONE),
    "tan": _through_float(math.tan, ZERO), "sec": _through_float(lambda v: 1 / math.cos(v), ONE),
    "csc": _through_float(lambda v: 1 / math.sin(v), None),
    "cot": _through_float(lambda v: math.cos(v) / math.sin(v), None),
    "arcsin": _through_float(math.asin, ZERO, lambda m: m <= 1),
    "arccos": _through_float(math.acos, PI / 2, lambda m: m <= 1),
    "arctan": _through_float(math.atan, ZERO),
    "arcsec": _through_float(lambda v: math.acos(1 / v), None, lambda m: m >= 1),
    "arccsc": _through_float(lambda v: math.asin(1 / v), None, lambda m: m >= 1),
    "sinh": _through_float(math.sinh, ZERO), "cosh": _through_float(math.cosh, ONE),
    "tanh": _through_float(math.tanh, ZERO), "sech": _through_float(lambda v: 1 / math.cosh(v), ONE),
    "csch": _through_float(lambda v: 1 / math.sinh(v), None),
    "coth": _through_float(lambda v: math.cosh(v) / math.sinh(v), None),
    "asinh": _through_float(math.asinh, ZERO),
    "acosh": _through_float(math.acosh, None, lambda m: m >= 1),
    "atanh": _pole_at_one(_through_float(math.atanh, ZERO, lambda m: m < 1)),
    "acoth": _pole_at_one(_through_float(lambda v: math.atanh(1 / v), None, lambda m: m > 1)),
    "asech": _through_float(lambda v: math.acosh(1 / v), None, lambda m: m <= 1),  # x in (0, 1]
    "acsch": _through_float(lambda v: math.asinh(1 / v), None),
    "floor": _rounded(ROUND_FLOOR), "ceil": _rounded(ROUND_CEILING),
}


def _factorial(_node: Factorial, values: list[Decimal]) -> Decimal:
    arg = values[0]
    if arg < 0 or arg != arg.to_integral_value():
        raise NotExact("factorial")  # the parser refuses these; never reached
    return Decimal(math.factorial(int(arg)))


# Names, matrices, declared functions and derivatives have no rule: no constant value.
_RULES = {
    Num: _num,
    Const: lambda n, _values: E if n.name == "e" else PI,
    Neg: lambda _n, values: CONTEXT.minus(values[0]),
    Add: _add,
    Mul: _mul,
    Div: _div,
    Pow: lambda _n, values: power(*values),
    Func: _func,
    FuncN: _func_n,
    Transpose: lambda _n, values: values[0],  # of a scalar: itself
    Factorial: _factorial,
}


# -- finding what has no value -------------------------------------------------------------------

def undefined_part(node: Node) -> UndefinedValue | None:
    """A constant sub-expression of `node` that has no value (`x + 1/0`, `log(1 - 1)`), else
    None. Names, matrices and functions this module does not know are skipped, not guessed."""
    if not could_be_undefined(node):
        return None
    try:
        _scan(node)
    except UndefinedValue as err:
        return err
    return None


# Functions without a value somewhere on the real line (log 0, cot 0, atanh 1).
POLES = frozenset(("log", "csc", "cot", "arcsec", "arccsc", "csch", "coth", "atanh", "acoth",
                   "asech", "acsch"))


def could_be_undefined(node: Node) -> bool:
    """Whether `node` has a part that can lack a value: a division, a logarithm, a power whose
    exponent is not a plain number (0^-1), an infinity (∞ - ∞). Sums, products and plain
    powers of numbers always have one, so most answers skip the decimal scan. (Recursive with
    the common types first: this runs on every computed numeric answer.)"""
    kind = type(node)
    if kind is Num:
        return node.text == "inf"
    if kind is Add:
        return any(map(could_be_undefined, node.terms))
    if kind is Mul:
        return any(map(could_be_undefined, node.factors))
    if kind is Neg:
        return could_be_undefined(node.arg)
    if kind is Div or kind is FuncN or kind is Func and node.name in POLES or \
            kind is Pow and type(node.exp) is not Num:
        return True
    return any(map(could_be_undefined, children(node)))


def _scan(node: Node) -> Decimal | None:
    """The decimal value of a constant subtree, None for anything else; raises UndefinedValue
    at the first constant sub-expression without one. One pass, bottom-up."""
    rule = _RULES.get(type(node))
    values = [_scan(child) for child in children(node)]
    if rule is None or None in values:
        kind = type(node)
        if kind is Div and values[1] is not None and values[1] == 0:
            raise _division_by_zero(node.num, values[0])
        if kind is Pow and values[0] is not None and values[0] == 0 and \
                values[1] is not None and values[1] < 0:
            raise UndefinedValue(f"0^{show(values[1])}")
        return None
    try:
        return rule(node, values)
    except (NotReal, NotExact):
        return None


def _division_by_zero(num: Node, value: Decimal | None) -> UndefinedValue:
    if value is not None:
        return UndefinedValue(f"{show(value)}/0")
    text = to_text(num)  # plain text, as the learner types it
    compound = type(num) in (Add, Mul, Div, Pow, Neg)
    return UndefinedValue(f"({quoted(text)})/0" if compound else f"{quoted(text)}/0")


def quoted(text: str, limit: int = 60) -> str:
    """A piece of the learner's formula inside a message, cut short when long."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def undefined_everywhere(node: Node, env: Env | None) -> UndefinedValue | None:
    """A constant sub-expression without a value (undefined_part), or a denominator, a
    logarithm's argument or a negative power's base that is 0 at every point of `env` (the
    sampling environment): `1/(x - x)` has no value for any x. None otherwise.

    Evaluates sub-trees, so it is meant for answers already found different or undecided."""
    found = undefined_part(node)
    if found is not None or env is None:
        return found
    for part in walk(node):
        zero = _zero_divisor(part)  # a constant one was decided by undefined_part
        if zero is not None and not is_constant(zero) and _is_zero_everywhere(zero, env):
            return UndefinedValue(quoted(to_text(zero)), _EVERYWHERE[type(part)])
    return None


_EVERYWHERE = {Div: "undefined_division_everywhere", Func: "undefined_log_everywhere",
               FuncN: "undefined_log_everywhere", Pow: "undefined_power_everywhere"}


def _zero_divisor(node: Node) -> Node | None:
    """The part of `node` that must not be 0: a denominator, log's argument, the base of a
    power with a negative constant exponent."""
    kind = type(node)
    if kind is Div:
        return node.den
    if kind is Func and node.name == "log":
        return node.arg
    if kind is FuncN and node.name == "log":  # log(x, base): x
        return node.args[0]
    if kind is Pow:
        try:
            exponent = exact_value(node.exp)
        except (GraderError, NotExact):
            return None
        return node.base if exponent < 0 else None
    return None


def _is_zero_everywhere(node: Node, env: Env) -> bool:
    try:
        values = evaluate(node, env)
    except GraderError:
        return False
    return bool(values.size) and bool(np.all(values == 0))
