"""Independent justification of the identity corpus's verdicts (bench/corpus/make_identities.py).

Nothing here comes from the grader. A verdict is confirmed by one of four checks:

- `check_formula`: both sides written as *Python* expressions (our own trusted strings, read with
  `ast`, never `eval`), evaluated at real points: exactly with `fractions.Fraction` while every
  step is rational (polynomials, quotients, integer powers of any size, |x|, factorials of whole
  numbers), otherwise with mpmath at 80 digits; a difference found there counts only if the
  50-digit evaluation finds the same one (a rounding artefact would move with the precision).
- `check_matrices`: both sides as Python functions of exact integer matrices (sympy `Matrix` of
  Integers, our own data), compared exactly.
- `check_number`: a numeric answer against its key in exact decimal arithmetic under the stated
  tolerance (significant figures round half up on the decimal value; bounds inclusive).
- `check_policy`: answers whose verdict is a documented policy rather than a value (an unknown
  multi-letter name, a decimal comma where a scalar is asked for): the check confirms the answer
  is the kind the policy names.

The meaning of "equal" is the one the grader documents (grader/README.md, "Declared domains and
the one real-domain rule"; issue 29): one rule, in both directions: the answer is right when
the two formulas agree at every point where both are real numbers (every intermediate value real
and finite), and both are real at enough points (MIN_DEFINED_POINTS) to compare. A point where
only one of them is real is no counterexample (`sqrt(x)^2` is `x` where both are defined, as a
textbook writes `ln(x^3) = 3 ln x` without restating the domain); two formulas real on different
sets that share fewer than MIN_DEFINED_POINTS of the points differ (`sqrt(-1 - x^2)` is not 1).
So `log(x*y)` and `log(x) + log(y)` are equal either way round, while `sqrt(x^2)` and `x`
differ (x = -2, where both are real).
Isolated points do not count, as in any check by sampling: (x^2 - 1)/(x - 1) = x + 1 although
x = 1 is a hole of one side only, and n! = n (n - 1)! although (0 - 1)! is a pole; the random
points never fall on them (whole-number points start at 1 for that reason).
"""

from __future__ import annotations

import ast
import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from types import SimpleNamespace

import mpmath

mp = mpmath.mp

LOW_DPS, HIGH_DPS = 50, 80
# Equal at a point: the 80-digit difference is below 1e-65 of the largest magnitude met while
# evaluating (the rounding error stays far below that). A difference counts only if it is above
# that bound and the 50- and 80-digit differences agree to 3 digits (not a rounding artefact).
EQUAL_BOUND = mpmath.mpf(10) ** -65
MIN_DEFINED_POINTS = 3

# Sample values of one variable: both signs, magnitudes over seven decades (the differences of
# |x + 50| - 50 and |x + 40| - 40 live below -40, those of |x - 1000| and 1000 - x above 1000).
GRID = ("-98765.4", "-1234.5", "-123.45", "-47.3", "-19.7", "-7.1", "-2.9", "-1.3", "-0.9",
        "-0.37", "-0.05", "-0.013", "0.013", "0.05", "0.37", "0.9", "1.3", "2.9", "7.1", "19.7",
        "47.3", "123.45", "1234.5", "98765.4")
MULTI_POINTS = 48  # points drawn at random from the grid when there are several variables
# Extra points at whole numbers 1..12 (factorials, binomials). Not 0: like any isolated point
# where a gamma function has a pole ((0 - 1)! in n! = n (n - 1)!), it is no sample of a real
# formula, just as x = 1 is none for (x^2 - 1)/(x - 1) = x + 1.
INTEGER_POINTS = 12


ONE_SIDED = "one-sided"  # a point where exactly one of the two formulas is a real number


class Undefined(Exception):  # noqa: N818 - a signal, not an error
    """The expression is not a real number at this point."""


class NotJustified(AssertionError):
    """The independent check does not confirm the verdict claimed for a case."""


# --- reading our own Python-syntax formulas (ast, no eval) ----------------------------------

CONSTANTS = {"e": lambda: mp.e, "pi": lambda: mp.pi, "inf": lambda: mp.inf}


def _mpf(x):
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return x


def _real(value):
    """A function's value must be a finite real number (mpmath returns mpc outside the real
    domain, e.g. log(-1), sqrt(-1), asin(2), and +-inf at a pole such as log(0))."""
    if isinstance(value, Fraction):
        return value
    if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value):
        raise Undefined
    return value


def _cbrt(x):
    """The real cube root (C99 `cbrt`, numpy.cbrt): defined for negative x too."""
    x = _mpf(x)
    return mpmath.sign(x) * mpmath.cbrt(abs(x))


def _factorial(x):
    if isinstance(x, Fraction) and x.denominator == 1:
        if x < 0:
            raise Undefined
        return Fraction(math.factorial(int(x)))
    return mpmath.gamma(_mpf(x) + 1)  # n! = Gamma(n + 1), DLMF 5.4.1


def _binomial(n, k):
    whole = all(isinstance(v, Fraction) and v.denominator == 1 for v in (n, k))
    if whole and 0 <= k <= n:
        return Fraction(math.comb(int(n), int(k)))
    # DLMF 1.2.6 extended by the gamma function: Gamma(n+1) / (Gamma(k+1) Gamma(n-k+1))
    n, k = _mpf(n), _mpf(k)
    return mpmath.gamma(n + 1) / (mpmath.gamma(k + 1) * mpmath.gamma(n - k + 1))


def _log(x, base=None):
    value = mpmath.log(_mpf(x))
    return value if base is None else value / _real(mpmath.log(_mpf(base)))


def _sign(x):
    return Fraction((x > 0) - (x < 0))


FUNCTIONS: dict[str, Callable] = {
    "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan,
    "sec": mpmath.sec, "csc": mpmath.csc, "cot": mpmath.cot,
    "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan,
    "asec": mpmath.asec, "acsc": mpmath.acsc,
    "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh,
    "sech": mpmath.sech, "csch": mpmath.csch, "coth": mpmath.coth,
    "asinh": mpmath.asinh, "acosh": mpmath.acosh, "atanh": mpmath.atanh,
    "exp": mpmath.exp, "log": _log, "ln": _log, "log2": lambda x: _log(x, 2), "log10": lambda x: _log(x, 10),
    "sqrt": mpmath.sqrt, "cbrt": _cbrt, "sigmoid": lambda x: 1 / (1 + mpmath.exp(-_mpf(x))),
    "factorial": _factorial, "binomial": _binomial, "sign": _sign,
    "max": max, "min": min,
}
EXACT_FUNCTIONS = {"factorial", "binomial", "sign", "max", "min"}  # exact on Fractions


@dataclass
class _Scale:
    """The largest magnitude met while evaluating: the size of the rounding error's bound."""

    largest: object = 1

    def see(self, value):
        # only rounded (mpf) values carry rounding error; exact Fractions carry none
        if isinstance(value, mpmath.mpf) and mpmath.isfinite(value):
            self.largest = max(self.largest, abs(value))
        return value


class Formula:
    """A trusted formula in Python syntax (`**` for powers), read with `ast` and walked by
    hand: names are variables, the constants e, pi, inf, the functions above, declared
    functions (callables passed in the environment) and diff(expr, x[, n])."""

    def __init__(self, text: str):
        self.text = text
        self.tree = ast.parse(text, mode="eval").body
        # every literal as written, exactly: 1e-40 is 10^-40, not the nearest double
        self.literals = {id(n): Fraction(Decimal(ast.get_source_segment(text, n)))
                         for n in ast.walk(self.tree) if isinstance(n, ast.Constant)}

    def names(self) -> set[str]:
        """Variable names (not functions, not constants)."""
        called = {n.func.id for n in ast.walk(self.tree)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        called |= {n.args[0].id for n in ast.walk(self.tree)
                   if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "derivative"}
        return {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)} - called \
            - set(CONSTANTS)

    def value(self, env: dict, scale: _Scale | None = None):
        return self._eval(self.tree, env, scale or _Scale())

    def _eval(self, node, env, scale):  # noqa: C901 - one case per node type
        match node:
            case ast.Constant(value=int() | float()):
                return self.literals[id(node)]
            case ast.Name(id=name):
                if name in env:
                    return env[name]
                if name in CONSTANTS:
                    return CONSTANTS[name]()
                raise KeyError(f"unknown name {name!r} in {self.text!r}")
            case ast.UnaryOp(op=ast.USub(), operand=operand):
                return -self._eval(operand, env, scale)
            case ast.UnaryOp(op=ast.UAdd(), operand=operand):
                return self._eval(operand, env, scale)
            case ast.BinOp(left=left, op=op, right=right):
                a, b = self._eval(left, env, scale), self._eval(right, env, scale)
                return scale.see(_binary(op, a, b))
            case ast.Call(func=ast.Name(id="diff"), args=[body, ast.Name(id=var), *order]):
                n = int(self._eval(order[0], env, scale)) if order else 1
                at = _mpf(env[var])

                def along(t):
                    return _mpf(_real(self._eval(body, {**env, var: t}, _Scale())))

                return scale.see(_real(mpmath.diff(along, at, n)))
            case ast.Call(func=ast.Name(id="derivative"), args=[ast.Name(id=fn), arg]):
                # F'(u) of a declared function F, at the value u
                at = _mpf(self._eval(arg, env, scale))
                return scale.see(_real(mpmath.diff(env[fn], at)))
            case ast.Call(func=ast.Name(id="abs"), args=[arg]):
                return abs(self._eval(arg, env, scale))
            case ast.Call(func=ast.Name(id=name), args=args):
                values = [self._eval(a, env, scale) for a in args]
                if name in env and callable(env[name]):  # a declared function F
                    return scale.see(_real(env[name](*map(_mpf, values))))
                fn = FUNCTIONS[name]
                if name not in EXACT_FUNCTIONS:
                    values = [_mpf(v) for v in values]
                try:
                    return scale.see(_real(fn(*values)))
                except (ValueError, ZeroDivisionError) as err:  # gamma's poles, cot(0)
                    raise Undefined from err
        raise ValueError(f"cannot read {ast.dump(node)} in {self.text!r}")


def _binary(op, a, b):
    if isinstance(op, ast.Pow):
        return _power(a, b)
    if isinstance(a, Fraction) != isinstance(b, Fraction):
        a, b = _mpf(a), _mpf(b)
    try:
        match op:
            case ast.Add():
                return a + b
            case ast.Sub():
                return a - b
            case ast.Mult():
                return a * b
            case ast.Div():
                return a / b
    except ZeroDivisionError as err:
        raise Undefined from err
    raise ValueError(f"operator {op} is not used in the corpus")


def _power(base, exponent):
    """Real powers: an integer exponent works for any base (exactly on rationals); otherwise the
    base must be positive (or zero with a positive exponent), as for real functions."""
    whole = isinstance(exponent, Fraction) and exponent.denominator == 1
    if whole and isinstance(base, Fraction):
        if base == 0 and exponent < 0:
            raise Undefined
        return base ** int(exponent)
    base, exponent = _mpf(base), _mpf(exponent)
    if mpmath.isinf(base):
        raise Undefined
    if base < 0 and not whole:
        raise Undefined
    if base == 0 and exponent <= 0:
        raise Undefined
    return _real(mpmath.power(base, exponent))


# --- points ---------------------------------------------------------------------------------

def _rng(key: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


def sample_points(key: str, names: list[str], *, integers: bool = False,
                  extra: tuple[str, ...] = ()) -> list[dict]:
    """Fixed-seed points: every grid value jittered by a random rational factor (so no point is
    special), all of them for one variable, MULTI_POINTS random combinations for several."""
    rng = _rng(key)

    def jitter(text):
        return Fraction(text) * (1 + Fraction(rng.randint(-499, 499), 10007))

    names = sorted(names)
    if not names:
        return [{}]
    if len(names) == 1:
        points = [{names[0]: jitter(g)} for g in GRID + tuple(extra)]
    else:
        points = [{n: jitter(rng.choice(GRID + tuple(extra))) for n in names}
                  for _ in range(MULTI_POINTS)]
    if integers:
        points += [{n: Fraction(rng.randint(1, 12)) for n in names} for _ in range(INTEGER_POINTS)]
    return points


# Declared functions F are replaced by these smooth functions (one per point, in turn).
TEST_FUNCTIONS = (
    lambda t: mpmath.sin(13 * t / 10) + t * t / 7,
    lambda t: mpmath.exp(t / 3) - t,
    lambda t: t ** 3 / 5 - 2 * t + 1,
    lambda t: mpmath.atan(t) + mpmath.cos(t / 2),
)


# --- the formula check ----------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    defined: int  # points where both formulas are real numbers
    counterexample: str | None  # the first point that tells the two apart, if any
    exact: bool  # every comparison was between exact rationals
    one_sided: str | None = None  # the first point where exactly one of the two is real


def _at(formula: Formula, env: dict, dps: int):
    with mp.workdps(dps):
        scale = _Scale()
        try:
            return formula.value(env, scale), scale.largest
        except Undefined:
            return None, None


def _differs(expected: Formula, answer: Formula, env: dict) -> tuple[bool | str | None, bool]:
    """(True / False at this point, None when neither formula is real here, ONE_SIDED when
    exactly one is; whether both sides were exact)."""
    e_high, e_scale = _at(expected, env, HIGH_DPS)
    a_high, a_scale = _at(answer, env, HIGH_DPS)
    if e_high is None and a_high is None:
        return None, False  # neither is a real number here: nothing to compare
    if e_high is None or a_high is None:
        return ONE_SIDED, False  # one side is real, the other is not: compared where both are
    if isinstance(e_high, Fraction) and isinstance(a_high, Fraction):
        return e_high != a_high, True  # exact
    with mp.workdps(HIGH_DPS):
        scale = max(e_scale, a_scale, abs(_mpf(e_high)), abs(_mpf(a_high)))
        high = _mpf(a_high) - _mpf(e_high)
        if abs(high) <= EQUAL_BOUND * scale:
            return False, False
    # A difference found in rounded arithmetic is real only if the 50-digit evaluation finds
    # the same difference (to 3 digits): a rounding artefact would change with the precision.
    e_low, _ = _at(expected, env, LOW_DPS)
    a_low, _ = _at(answer, env, LOW_DPS)
    if e_low is None or a_low is None:
        raise NotJustified(f"defined at {HIGH_DPS} digits but not at {LOW_DPS}, at {env}")
    with mp.workdps(HIGH_DPS):
        low = _mpf(a_low) - _mpf(e_low)
        if abs(low - high) > abs(high) / 1000:
            raise NotJustified(f"the difference at {env} is not stable between 50 and 80 digits")
    return True, False


def examine(expected: str, answer: str, key: str, *, functions=(), integers=False,
            extra=()) -> Finding:
    e, a = Formula(expected), Formula(answer)
    names = sorted((e.names() | a.names()) - set(functions))
    defined, counterexample, exact, one_sided = 0, None, True, None
    derivative = "diff(" in expected
    for i, point in enumerate(sample_points(key, names, integers=integers, extra=extra)):
        env = dict(point)
        for j, name in enumerate(functions):
            env[name] = TEST_FUNCTIONS[(i + j) % len(TEST_FUNCTIONS)]
        verdict, exact_here = _differs(e, a, env)
        if verdict and (integers or derivative) and _at(e, env, HIGH_DPS)[0] is None:
            # A pole of the gamma function at a whole number (no limit taken here); a derivative
            # taken by the rules, whose real domain is its formula's (d/dx log x = 1/x), where
            # the numerical derivative sees only log's: the expected side says nothing here.
            verdict = None
        if verdict == ONE_SIDED:
            one_sided = one_sided or ", ".join(f"{n} = {float(v):.6g}" for n, v in point.items())
            continue
        if verdict is None:
            continue
        defined += 1
        exact = exact and exact_here
        if verdict and counterexample is None:
            counterexample = ", ".join(f"{n} = {float(v):.6g}" for n, v in point.items())
    return Finding(defined, counterexample, exact and defined > 0, one_sided)


def check_formula(verdict: str, expected: str, answer: str, key: str, **options) -> str:
    """Confirm `verdict` ("correct" / "wrong") for expected vs answer; returns a one-line
    summary of the evidence, raises NotJustified otherwise."""
    found = examine(expected, answer, key, **options)
    exact = "exact" if found.exact else "50/80-digit"
    constant = not (Formula(expected).names() | Formula(answer).names())
    enough = found.defined >= (1 if constant else MIN_DEFINED_POINTS)
    if verdict == "correct":
        if found.counterexample is not None:
            raise NotJustified(f"{key}: claimed correct, differs at {found.counterexample}")
        if not enough:
            raise NotJustified(f"{key}: only {found.defined} points where both are real")
        if constant:
            return f"{exact}: the same number"
        return f"{exact}: equal at all {found.defined} points where both are real"
    if verdict == "wrong":
        if found.counterexample is None and not enough and found.one_sided is not None:
            return (f"real on different sets sharing {found.defined} points: at "
                    f"{found.one_sided} only one is real")
        if found.counterexample is None:
            raise NotJustified(f"{key}: claimed wrong, equal at all {found.defined} points")
        if constant:
            return f"{exact}: different numbers"
        return f"{exact}: differs at {found.counterexample}"
    raise NotJustified(f"{key}: a formula check cannot confirm {verdict!r}")


# --- matrices -------------------------------------------------------------------------------

def check_matrices(verdict: str, expected: Callable, answer: Callable, names: list[str],
                   key: str) -> str:
    """Exact integer matrices: capitals 3x3, lowercase 3x1 columns, I the identity; both sides
    are functions of a namespace `m` of them (m.A, m.I)."""
    import sympy  # our own data only: exact integer matrices

    rng = _rng(key)
    equal_at, differs_at = 0, None
    for _ in range(8):
        env = {"I": sympy.eye(3)}
        for name in names:
            cols = 1 if name.islower() else 3
            env[name] = sympy.Matrix(3, cols, lambda i, j: rng.randint(-4, 4))
        m = SimpleNamespace(**env)
        try:
            same = expected(m) == answer(m)
        except ValueError:  # a singular matrix where an inverse is taken: not in the domain
            continue
        if same:
            equal_at += 1
        elif differs_at is None:
            differs_at = {n: env[n].tolist() for n in names}
    if verdict == "correct" and differs_at is None and equal_at >= MIN_DEFINED_POINTS:
        return f"exact: equal for {equal_at} random integer matrices"
    if verdict == "wrong" and differs_at is not None:
        return f"exact: differs at {differs_at}"
    raise NotJustified(f"{key}: matrices do not confirm {verdict!r}")


# --- numbers --------------------------------------------------------------------------------

def round_half_up(value: Fraction, figures: int) -> Decimal:
    """`value` to `figures` significant figures, ties away from zero, on the exact decimal."""
    with localcontext() as ctx:
        ctx.prec = 200
        d = Decimal(value.numerator) / Decimal(value.denominator)
        if d == 0:
            return Decimal(0)
        rounded = d.quantize(Decimal(1).scaleb(d.adjusted() - figures + 1), ROUND_HALF_UP)
        if rounded.adjusted() > d.adjusted():  # 9.995 -> 10.0: one figure fewer after the carry
            rounded = d.quantize(Decimal(1).scaleb(rounded.adjusted() - figures + 1),
                                 ROUND_HALF_UP)
        return rounded


def number_verdict(answer: str, key: Fraction, *, rtol=None, atol=None, sigfigs=None) -> str:
    """The verdict on a numeric answer written as a trusted Python formula (`9.54e-7`, `1/0`,
    `inf`): undefined -> unreadable; infinite -> wrong for a finite key; else the tolerance, in
    exact decimals: significant figures round both half up and compare; |a - k| <= max(atol,
    rtol |k|) inclusive (no tolerance given: rtol 1e-6, the grader's documented default)."""
    try:
        with mp.workdps(LOW_DPS):
            value = Formula(answer).value({})
    except Undefined:
        return "unreadable"
    if not isinstance(value, Fraction):
        if mpmath.isinf(value):
            return "wrong"
        raise NotJustified(f"{answer!r} is not an exact decimal")
    if sigfigs is not None:
        return "correct" if round_half_up(value, sigfigs) == round_half_up(key, sigfigs) \
            else "wrong"
    if rtol is None and atol is None:
        rtol = Fraction("1e-6")
    bound = max(Fraction(str(atol)) if atol is not None else Fraction(0),
                Fraction(str(rtol)) * abs(key) if rtol is not None else Fraction(0))
    return "correct" if abs(value - key) <= bound else "wrong"


def check_number(verdict: str, answer: str, key: Fraction, **tolerance) -> str:
    got = number_verdict(answer, key, **tolerance)
    if got != verdict:
        raise NotJustified(f"{answer!r} vs key {key}: claimed {verdict}, exact decimals say {got}")
    if got == "unreadable":
        return f"{answer} is undefined"
    if got == "wrong" and Formula(answer).names() == set() and "inf" in answer:
        return f"{answer} is infinite, the key {_decimal(key)}"
    return f"exact decimals: {answer} vs {_decimal(key)} is {got}"


def _decimal(x: Fraction) -> str:
    with localcontext() as ctx:
        ctx.prec = 40
        return str((Decimal(x.numerator) / Decimal(x.denominator)).normalize())
