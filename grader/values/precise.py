"""Multi-precision evaluation (mpmath) at one sample point, to confirm what floats cannot see.

A formula is evaluated at the float sample's point (each value read exactly) with 30 and, when
needed, 60 significant digits, in the real numbers: every intermediate value must be a finite
real number (log(-2), sqrt(-1), asin(2), a pole of the gamma function: undefined at that
point), as on paper and in the float evaluation. At each point the difference
d = answer − expected is
- certified nonzero at once when the 30-digit d is above 1e-15 of the largest magnitude met
  while evaluating (15 orders of magnitude above that evaluation's rounding noise), or else when
  the 60-digit d is above 1e-50 of the largest magnitude and the 30- and 60-digit values of d
  agree to 1e-3 (a rounding artefact would move with the precision): the counterexample shown to
  a learner is not an artefact;
- zero when both are within their noise floors (1e-20 and 1e-50 of the largest magnitude);
- unknown otherwise (None).
Where one formula is undefined and the other is not (either way round), the undefined one's
limit is taken (`_limit_agrees`): a removable singularity ((n+1)!/(n-1)! at n = -1) is not a
difference.
The noise floor is an estimate (cancellation is bounded by the largest magnitude met, as in
bench/corpus/identity_checks.py), not interval arithmetic: a certificate rests on two
evaluations at different precisions agreeing far above it.
Declared functions use the sample's random function (evaluate.FunctionModel) with its float
coefficients read exactly; matrices are left to the float path (None).

mpmath ships with sympy; only its number types are used here, never sympy's parser. Each thread
has its own mpmath contexts (precision is context state).
"""

from __future__ import annotations

import math
import threading
from collections import Counter

from ..reading.nodes import (
    Add,
    Apply,
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
    Sym,
    Transpose,
)
from .differentiate import expand_derivatives
from .evaluate import Env

LOW_DPS, HIGH_DPS = 30, 60
NOISE_DIGITS = {LOW_DPS: 20, HIGH_DPS: 50}
STABLE = 1e-3
CLEAR_DIGITS = 15  # a 30-digit difference above 1e-15 of the scale needs no second precision
# A removable singularity: the answer moved by 1e-25 (relative) agrees with the expected value to
# 1e-15 on both sides. A smooth function moves by about the step; a pole moves to about 1e25.
LIMIT_STEP, LIMIT_AGREE = 1e-25, 1e-15


class Undefined(Exception):  # noqa: N818 - a signal: not a real number at this point
    pass


class NotPrecise(Exception):  # noqa: N818 - a signal: this tree is left to the float path
    pass


_LOCAL = threading.local()


def _context(dps: int):
    """This thread's mpmath context with `dps` digits (mpmath is imported on first use: most
    answers never need it, and the app starts faster without it)."""
    contexts = getattr(_LOCAL, "contexts", None)
    if contexts is None:
        contexts = _LOCAL.contexts = {}
    if dps not in contexts:
        import mpmath

        ctx = mpmath.MPContext()
        ctx.dps = dps
        contexts[dps] = ctx
    return contexts[dps]


class _Evaluation:
    """One evaluation: the context, the point, and the largest magnitude met."""

    def __init__(self, ctx, env: Env, j: int, shift: dict | None = None) -> None:
        self.ctx, self.env, self.j = ctx, env, j
        self.shift = shift  # name -> relative step: the point moved to take a limit
        self.largest = ctx.mpf(1)

    def real(self, value):
        ctx = self.ctx
        if not isinstance(value, ctx.mpf):
            value = ctx.convert(value)  # pi, e (constant objects), whole numbers
        if not isinstance(value, ctx.mpf) or not ctx.isfinite(value):
            raise Undefined
        if abs(value) > self.largest:
            self.largest = abs(value)
        return value

    def value(self, node: Node):
        rule = _RULES.get(type(node))
        if rule is None:
            raise NotPrecise(type(node).__name__)
        try:
            return self.real(rule(self, node))
        except (ZeroDivisionError, ValueError) as err:  # a pole of 1/x, gamma, log(0)
            raise Undefined from err


def _symbol(ev: _Evaluation, node: Sym):
    values = ev.env.symbols.get(node.name)
    if values is None:
        raise NotPrecise(node.name)
    z = complex(values[ev.j])
    if z.imag:
        raise NotPrecise(node.name)
    value = ev.ctx.mpf(z.real)
    if ev.shift is not None:  # x (1 + s), or s itself at x = 0
        step = ev.ctx.mpf(ev.shift[node.name])
        value = value + step * (abs(value) if value else 1)
    return value


def _power(ev: _Evaluation, node: Pow):
    ctx = ev.ctx
    base, exponent = ev.value(node.base), ev.value(node.exp)
    if ctx.isint(exponent):
        if base == 0 and exponent < 0:
            raise Undefined
        return base ** int(exponent)
    if base < 0 or base == 0 and exponent <= 0:
        raise Undefined  # a real power of a negative number is not real (as on paper)
    return ctx.power(base, exponent)


def _cbrt(ctx, x):
    return ctx.sign(x) * ctx.cbrt(abs(x))


def _inside(f, ok):
    def apply(ctx, x):
        if not ok(x):
            raise Undefined
        return f(ctx, x)
    return apply


def _sigmoid(ctx, x):
    return 1 / (1 + ctx.exp(-x))


_FUNCS = {
    "sqrt": _inside(lambda c, x: c.sqrt(x), lambda x: x >= 0),
    "cbrt": _cbrt,
    "exp": lambda c, x: c.exp(x),
    "log": _inside(lambda c, x: c.log(x), lambda x: x > 0),
    "abs": lambda c, x: abs(x),
    "sign": lambda c, x: c.sign(x),
    "sigmoid": _sigmoid,
    "sin": lambda c, x: c.sin(x), "cos": lambda c, x: c.cos(x), "tan": lambda c, x: c.tan(x),
    "sec": lambda c, x: 1 / c.cos(x), "csc": lambda c, x: 1 / c.sin(x),
    "cot": lambda c, x: c.cos(x) / c.sin(x),
    "arcsin": _inside(lambda c, x: c.asin(x), lambda x: abs(x) <= 1),
    "arccos": _inside(lambda c, x: c.acos(x), lambda x: abs(x) <= 1),
    "arctan": lambda c, x: c.atan(x),
    "arcsec": _inside(lambda c, x: c.acos(1 / x), lambda x: abs(x) >= 1),
    "arccsc": _inside(lambda c, x: c.asin(1 / x), lambda x: abs(x) >= 1),
    "arccot": _inside(lambda c, x: c.atan(1 / x), lambda x: x != 0),
    "sinh": lambda c, x: c.sinh(x), "cosh": lambda c, x: c.cosh(x),
    "tanh": lambda c, x: c.tanh(x), "sech": lambda c, x: 1 / c.cosh(x),
    "csch": lambda c, x: 1 / c.sinh(x), "coth": lambda c, x: c.cosh(x) / c.sinh(x),
    "asinh": lambda c, x: c.asinh(x),
    "acosh": _inside(lambda c, x: c.acosh(x), lambda x: x >= 1),
    "atanh": _inside(lambda c, x: c.atanh(x), lambda x: abs(x) < 1),
    "asech": _inside(lambda c, x: c.acosh(1 / x), lambda x: 0 < x <= 1),
    "acsch": _inside(lambda c, x: c.asinh(1 / x), lambda x: x != 0),
    "acoth": _inside(lambda c, x: c.atanh(1 / x), lambda x: abs(x) > 1),
    "floor": lambda c, x: c.floor(x), "ceil": lambda c, x: c.ceil(x),
}


def _gamma_of(ctx, x):
    """x! = Gamma(x + 1); a pole (x a negative whole number) is undefined."""
    if ctx.isint(x) and x < 0:
        raise Undefined
    return ctx.gamma(x + 1)


def _binomial(ctx, n, k):
    if ctx.isint(n) and ctx.isint(k) and n >= 0:
        return ctx.binomial(n, k) if 0 <= k <= n else ctx.mpf(0)
    return _gamma_of(ctx, n) * ctx.rgamma(k + 1) * ctx.rgamma(n - k + 1)


def _func_n(ev: _Evaluation, node: FuncN):
    ctx = ev.ctx
    args = [ev.value(a) for a in node.args]
    if node.name == "max":
        return max(args)
    if node.name == "min":
        return min(args)
    if node.name == "binomial":
        return _binomial(ctx, *args)
    if node.name == "atan2":
        y, x = args
        if x == 0 and y == 0:
            raise Undefined
        return ctx.atan2(y, x)
    x, base = args  # log(x, base)
    if x <= 0 or base <= 0 or base == 1:
        raise Undefined
    return ctx.log(x) / ctx.log(base)


def _model(ev: _Evaluation, name: str, index: int, t, order: int):
    """F(t) = a sin(bt + c) + h exp(gt) + p2 t^2 + p3 t^3 and its derivatives (evaluate.py)."""
    ctx, j = ev.ctx, ev.j
    model = ev.env.functions.get(f"{name}#{index}")
    if model is None:
        raise NotPrecise(name)
    c = {k: float(v[j]) for k, v in model.coef.items()}  # zero terms are skipped (nice points)
    value = ctx.mpf(0)
    if c["a"]:
        b = ctx.mpf(c["b"])
        value += c["a"] * b ** order * ctx.sin(b * t + c["c"] + order * ctx.pi / 2)
    if c["h"]:
        g = ctx.mpf(c["g"])
        value += c["h"] * g ** order * ctx.exp(g * t)
    if c["p2"] and order < 3:
        value += c["p2"] * (t * t, 2 * t, ctx.mpf(2))[order]
    if c["p3"] and order < 4:
        value += c["p3"] * (t ** 3, 3 * t * t, 6 * t, ctx.mpf(6))[order]
    return value


def _apply(ev: _Evaluation, node: Apply):
    args = [ev.value(a) for a in node.args]
    if len(args) == 1:
        return _model(ev, node.name, 0, args[0], node.order)
    # F(t1, ..., tm) = sum_i F_i(t_i) + p prod_i t_i and its partial derivatives (evaluate.py).
    by_argument = Counter(node.partials)
    if not by_argument:
        total = sum((_model(ev, node.name, i, a, 0) for i, a in enumerate(args)), ev.ctx.mpf(0))
    elif len(by_argument) == 1:
        ((i, m),) = by_argument.items()
        total = _model(ev, node.name, i, args[i], m)
    else:
        total = ev.ctx.mpf(0)
    if any(m > 1 for m in by_argument.values()):
        return total
    mix = _model_coefficient(ev, node.name, len(args))
    return total + mix * math.prod(a for i, a in enumerate(args) if i not in by_argument)


def _model_coefficient(ev: _Evaluation, name: str, index: int):
    model = ev.env.functions.get(f"{name}#{index}")
    if model is None:
        raise NotPrecise(name)
    return ev.ctx.mpf(float(model.coef["a"][ev.j]))


def _div(ev: _Evaluation, node: Div):
    num, den = ev.value(node.num), ev.value(node.den)
    if den == 0:
        raise Undefined
    return num / den


def _number(ev: _Evaluation, node: Num):
    if not math.isfinite(node.value):
        raise Undefined
    try:
        return ev.ctx.mpf(node.text)  # the decimal as typed, rounded to the context's digits
    except (ValueError, TypeError):
        return ev.ctx.mpf(node.value)


_RULES = {
    Num: _number,
    Const: lambda ev, n: +ev.ctx.e if n.name == "e" else +ev.ctx.pi,  # mpf, not a constant
    Sym: _symbol,
    Neg: lambda ev, n: -ev.value(n.arg),
    Add: lambda ev, n: ev.ctx.fsum(ev.value(t) for t in n.terms),
    Mul: lambda ev, n: ev.ctx.fprod(ev.value(f) for f in n.factors),
    Div: _div,
    Pow: _power,
    Func: lambda ev, n: _FUNCS[n.name](ev.ctx, ev.value(n.arg)),
    FuncN: _func_n,
    Apply: _apply,
    Transpose: lambda ev, n: ev.value(n.arg),  # of a scalar (matrices: NotPrecise)
    Factorial: lambda ev, n: _gamma_of(ev.ctx, ev.value(n.arg)),
}


def _value(node: Node, env: Env, j: int, dps: int, shift: dict | None = None):
    """(value or None if undefined, largest magnitude) at sample j (moved by `shift`)."""
    ev = _Evaluation(_context(dps), env, j, shift)
    try:
        return ev.value(node), ev.largest
    except Undefined:
        return None, ev.largest


def difference_at(answer: Node, expected: Node, env: Env, j: int,
                  tolerance: float = 0.0) -> str | None:
    """At sample j: "equal", "different" (certified), "answer_undefined" (the expected value is
    a real number and the answer's is not, at both precisions, nor its limit),
    "expected_undefined" (the same the other way round), "removable" (one side is undefined
    there but its limit is the other's value: not a difference), "both_undefined", or None
    (cannot tell). A `tolerance` (relative to the expected value:
    the precision of the decimals it is written with, confirm.py) makes a certified difference
    within it "equal". Raises NotPrecise for trees this module leaves to floats."""
    answer, expected = expand_derivatives(answer), expand_derivatives(expected)
    low = _value(answer, env, j, LOW_DPS), _value(expected, env, j, LOW_DPS)
    return _difference(answer, expected, env, j, tolerance, low)


def undefined_on_one_side(answer: Node, expected: Node, env: Env, j: int) -> str | None:
    """"answer_undefined" or "expected_undefined" exactly when `difference_at` says so at sample
    j, else None. Those two need one side undefined at 30 digits, so where both are real at 30
    digits (most points a float overflow or rounding made one-sided) the 60-digit evaluations
    and the comparison are skipped."""
    answer, expected = expand_derivatives(answer), expand_derivatives(expected)
    low = _value(answer, env, j, LOW_DPS), _value(expected, env, j, LOW_DPS)
    if low[0][0] is not None and low[1][0] is not None:
        return None
    found = _difference(answer, expected, env, j, 0.0, low)
    return found if found in ("answer_undefined", "expected_undefined") else None


def _difference(answer: Node, expected: Node, env: Env, j: int, tolerance: float,
                low: tuple[tuple, tuple]) -> str | None:
    """difference_at, given both 30-digit evaluations (`_value`'s pairs) at sample j."""
    (a_lo, scale_a), (e_lo, scale_e) = low
    s_lo = max(scale_a, scale_e)
    clear = _context(LOW_DPS).mpf(10) ** -CLEAR_DIGITS * s_lo
    if a_lo is not None and e_lo is not None and abs(a_lo - e_lo) > clear:
        # 15 orders of magnitude above the 30-digit noise: no artefact
        return "equal" if abs(a_lo - e_lo) <= tolerance * abs(e_lo) else "different"
    a_hi, scale_a = _value(answer, env, j, HIGH_DPS)
    e_hi, scale_e = _value(expected, env, j, HIGH_DPS)
    s_hi = max(scale_a, scale_e)
    if e_lo is None or e_hi is None:
        if e_lo is not None or e_hi is not None:
            return None
        if a_lo is None and a_hi is None:
            return "both_undefined"
        if a_lo is None or a_hi is None:
            return None
        # the one rule, the other way round: the expected answer undefined where the answer is
        # a real number is a difference in real domain, unless its limit there is that number
        return "removable" if _limit_agrees(expected, a_hi, env, j) else "expected_undefined"
    if a_lo is None or a_hi is None:
        if a_lo is None and a_hi is None:
            return "removable" if _limit_agrees(answer, e_hi, env, j) else "answer_undefined"
        return None
    d_lo, d_hi = a_lo - e_lo, a_hi - e_hi
    floor_lo = _context(LOW_DPS).mpf(10) ** -NOISE_DIGITS[LOW_DPS] * s_lo
    floor_hi = _context(HIGH_DPS).mpf(10) ** -NOISE_DIGITS[HIGH_DPS] * s_hi
    if abs(d_hi) <= floor_hi and abs(d_lo) <= floor_lo:
        return "equal"
    if abs(d_hi) > floor_hi and abs(d_lo - d_hi) <= STABLE * abs(d_hi):
        return "equal" if abs(d_hi) <= tolerance * abs(e_hi) else "different"
    return None


def _limit_agrees(undefined: Node, value_there, env: Env, j: int) -> bool:
    """Whether a formula undefined at sample j tends to `value_there` (the other formula's value)
    there (a removable singularity: (n+1)!/(n-1)! at n = -1, log_c(1) at c = 1): evaluated at 60
    digits at two points LIMIT_STEP away on either side (every name moved by its own multiple of
    the step, so that a cancellation along a line such as x = y is left too), both values must
    be defined and agree with `value_there` to LIMIT_AGREE of its size. A pole, a jump, a point
    outside the real domain (sqrt(x)^2 at x = -2) fails. A name declared positive or
    nonnegative moves only upwards from 0 (values/domains.py): the limit is taken inside its
    domain, so |x|/x tends to 1 at x = 0 when x >= 0 is declared."""
    names = sorted(set(env.symbols))
    signless = env.positive | env.nonnegative
    for side in (1, -1):
        shift = {name: side * LIMIT_STEP * (1 + i / 7) * (-1) ** i for i, name in enumerate(names)}
        for name in signless & shift.keys():
            shift[name] = abs(shift[name])
        value, _ = _value(undefined, env, j, HIGH_DPS, shift)
        if value is None or abs(value - value_there) > LIMIT_AGREE * (1 + abs(value_there)):
            return False
    return True


def texts_at(answer: Node, expected: Node, env: Env, j: int) -> tuple[str, str] | None:
    """Both 60-digit values at sample j, written with the fewest significant digits (6 or more)
    that tell them apart; None when either is undefined there."""
    answer, expected = expand_derivatives(answer), expand_derivatives(expected)
    a, _ = _value(answer, env, j, HIGH_DPS)
    e, _ = _value(expected, env, j, HIGH_DPS)
    if a is None or e is None:
        return None
    for digits in (6, 10, 16, 24, 40):
        ctx = _context(HIGH_DPS)
        ta, te = ctx.nstr(a, digits), ctx.nstr(e, digits)
        if ta != te:
            break
    return "≈ " + ta, "≈ " + te


def warm_up() -> None:
    """Import mpmath and build this thread's contexts ahead of the first answer that needs them."""
    _context(LOW_DPS)
    _context(HIGH_DPS)
