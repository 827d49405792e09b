"""Exact identity testing of rational expressions: Schwartz–Zippel modulo random primes.

Rational expressions here are numbers as typed (exact decimals: `0.5` is 1/2, `1e-9` is 10^-9,
never the binary float), symbols, + − × ÷, powers to a constant whole exponent of any size (a
negative one is a reciprocal), factorials and binomials of whole numbers, and binomial(n, k)
of a formula n with a constant whole k (the polynomial n (n-1) ... (n-k+1) / k!). Two of them are
equal on the reals (wherever both are defined) exactly when they are the same rational function,
i.e. when N = P1·Q2 − P2·Q1 is the zero polynomial (A = P1/Q1, B = P2/Q2, integer coefficients).

The test (Schwartz 1980, Zippel 1979; DeMillo–Lipton 1978): draw a prime p at random from
[2^61, 2^62) and a point r uniformly from F_p^n, evaluate both trees modulo p at r (powers by
`pow(a, e, p)`, so a huge exponent costs a few dozen multiplications).
- A nonzero result is a proof that A ≠ B: "different" is never wrong.
- Zero when N ≠ 0 needs p to divide every coefficient of N, or r to be a root of N mod p:
  Pr ≤ (B/61)/2^55 + D/2^61 per trial, where D bounds the degree of N and 2^B the size of its
  coefficients (both bounded by a walk over the trees, `_bounds`; a nonzero coefficient below
  2^B has at most B/61 prime factors in the range, which holds more than 2^55 primes).
  Independent trials (each its own prime and point) are repeated until the product of the
  per-trial bounds is ≤ 2^-60: **an "equal" verdict is wrong with probability at most 2^-60.**
  When D or B is so large that 6 trials cannot reach that bound the test declines (None).
A point where a denominator vanishes mod p is drawn again (at most a few times, then None): so
1/(x − x), undefined everywhere, is left to the float path, which says so. (Conditioning on a
nonzero denominator changes the bound by a factor 1/(1 − D/p), which the 2^-60 absorbs.)

The primes come from a pool drawn at random when the module is loaded (each check uses
distinct primes of the pool and fresh random points); a learner cannot aim at them.

The same walk evaluates exactly with `Fraction` (`exact_value`), for certified counterexamples
at hand-checkable points.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..reading.nodes import (
    Add,
    Div,
    Factorial,
    FuncN,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    facts,
    is_constant,
)
from .differentiate import expand_derivatives

TARGET_BITS = 60  # an "equal" verdict is wrong with probability at most 2^-TARGET_BITS
MAX_TRIALS = 6
MAX_REDRAWS = 4  # points where a denominator vanishes mod p, drawn again
PRIME_BITS = 62
POOL_SIZE = 12
# Exact (Fraction) evaluation is for small points only: its numbers grow with the exponents.
MAX_EXACT_BITS = 200_000
MAX_BINOMIAL_K = 1000  # binomial(n, k) of a formula n is a polynomial of degree k

_RANDOM = random.SystemRandom()  # os.urandom: nothing to seed, nothing shared to corrupt


class _Pole(Exception):  # noqa: N818 - a signal: a denominator is 0 at this point
    pass


class NotRational(Exception):  # noqa: N818 - a signal: this tree is not a rational expression
    pass


# -- primes ----------------------------------------------------------------------------------

_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)  # deterministic below 3.3e24


def is_prime(n: int) -> bool:
    """Miller–Rabin with the first 12 primes as witnesses: exact for n < 3.3·10^24."""
    if n < 2:
        return False
    for q in _WITNESSES:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(bits: int = PRIME_BITS) -> int:
    """A prime drawn uniformly from [2^(bits-1), 2^bits)."""
    while True:
        n = _RANDOM.randrange(1 << (bits - 1), 1 << bits) | 1
        if is_prime(n):
            return n


_PRIMES = tuple(random_prime() for _ in range(POOL_SIZE))


# -- the arithmetic: one walk, two number systems ------------------------------------------

class Modular:
    """Arithmetic in F_p."""

    def __init__(self, p: int) -> None:
        self.p = p

    def number(self, q: Fraction) -> int:
        den = q.denominator % self.p
        if den == 0:
            raise _Pole
        return q.numerator * pow(den, -1, self.p) % self.p

    def add(self, values: list[int]) -> int:
        return sum(values) % self.p

    def mul(self, values: list[int]) -> int:
        result = 1
        for v in values:
            result = result * v % self.p
        return result

    def neg(self, a: int) -> int:
        return -a % self.p

    def div(self, a: int, b: int) -> int:
        if b % self.p == 0:
            raise _Pole
        return a * pow(b, -1, self.p) % self.p

    def power(self, a: int, e: int) -> int:
        if e < 0 and a % self.p == 0:
            raise _Pole
        return pow(a, e, self.p)


class Exact:
    """Arithmetic in the rationals, with a bound on the size of the numbers."""

    def number(self, q: Fraction) -> Fraction:
        return q

    def add(self, values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0))

    def mul(self, values: list[Fraction]) -> Fraction:
        return math.prod(values, start=Fraction(1))

    def neg(self, a: Fraction) -> Fraction:
        return -a

    def div(self, a: Fraction, b: Fraction) -> Fraction:
        if b == 0:
            raise _Pole
        return a / b

    def power(self, a: Fraction, e: int) -> Fraction:
        if a == 0 and e < 0:
            raise _Pole
        size = abs(e) * (a.numerator.bit_length() + a.denominator.bit_length())
        if size > MAX_EXACT_BITS:
            raise NotRational("too large to evaluate exactly")
        return a ** e


def _number(node: Num) -> Fraction:
    """The decimal as typed (`inf` is not a rational number)."""
    return _decimal(node.text, node.value)


@lru_cache(maxsize=4096)
def _decimal(text: str, value: float) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        if not math.isfinite(value):
            raise NotRational("not finite") from None
        return Fraction(value)  # a number the parser built itself (its text is its value)


def constant_fraction(node: Node) -> Fraction:
    """Exact value of a constant rational subtree (exponents, factorial arguments)."""
    return _eval(node, Exact(), {})


def _whole(node: Node) -> int:
    if not is_constant(node):
        raise NotRational("a formula where a whole number is needed")
    value = constant_fraction(node)
    if value.denominator != 1:
        raise NotRational("not a whole number")
    return value.numerator


def _eval(node: Node, field, point: dict):
    rule = _EVAL.get(type(node))
    if rule is None:
        raise NotRational(type(node).__name__)
    return rule(node, field, point)


def _sym(node: Sym, field, point: dict):
    if node.name not in point:
        raise NotRational("a name without a value")
    return point[node.name]


def _pow(node: Pow, field, point: dict):
    return field.power(_eval(node.base, field, point), _whole_here(node.exp, field, point))


def _factorial(node: Factorial, field, point: dict):
    n = _whole_here(node.arg, field, point)
    if n < 0:
        raise _Pole
    if n > MAX_FACTORIAL_HERE:
        raise NotRational("too large to evaluate exactly")
    return field.number(Fraction(math.factorial(n)))  # n <= MAX_FACTORIAL (the parser's limit)


def _func_n(node: FuncN, field, point: dict):
    if type(field) is Exact and node.name == "binomial" and not all(map(is_constant, node.args)):
        n, k = (_whole_here(a, field, point) for a in node.args)  # at an integer point
        if n >= 0:
            return Fraction(math.comb(n, k) if 0 <= k <= n else 0)
    return _eval(falling_factorial_form(node), field, point)


# A formula where a whole number is needed (2^L, n!, binomial(L, k)) has one at an integer point
# of a sum's check (values/indexed.py); only exact Fractions can tell, not the modular field.
MAX_FACTORIAL_HERE = 1000
MAX_EXPONENT_HERE = 10_000


def _whole_here(node: Node, field, point: dict) -> int:
    if is_constant(node) or type(field) is not Exact:
        return _whole(node)
    value = _eval(node, field, point)
    if value.denominator != 1 or abs(value.numerator) > MAX_EXPONENT_HERE:
        raise NotRational("not a whole number here")
    return value.numerator


def _series(node: Series, field, point: dict):
    """A sum or product of Fractions, term by term (exact_value only: the modular test has no
    rule for it, so rational_form never sees one)."""
    if type(field) is not Exact:
        raise NotRational("a sum or product")
    lower, upper = _whole_here(node.lower, field, point), _whole_here(node.upper, field, point)
    step = -1 if node.descending else 1
    count = max((lower - upper if node.descending else upper - lower) + 1, 0)
    if count > MAX_SERIES_TERMS_HERE:
        raise NotRational("too many terms to evaluate exactly")
    inner = dict(point)
    terms = []
    for j in range(count):
        inner[node.var] = Fraction(lower + step * j)
        terms.append(_eval(node.body, field, inner))
    return field.add(terms) if node.op == "sum" else field.mul(terms)


MAX_SERIES_TERMS_HERE = 2000


def falling_factorial_form(node: FuncN) -> Node:
    """binomial(n, k) for a constant whole k >= 0 as the polynomial n (n-1) ... (n-k+1) / k!,
    equal to the gamma form for every real n (DLMF 26.3.1, 5.2.5); binomial(n, k) of whole
    numbers n >= 0 is math.comb. Anything else is not rational."""
    if node.name != "binomial":
        raise NotRational(node.name)
    n_node, k_node = node.args
    k = _whole(k_node)
    if is_constant(n_node):
        n = _whole(n_node)
        if n >= 0:
            value = math.comb(n, k) if 0 <= k <= n else 0
            return Num(float(value) if value < 1e300 else math.inf, str(value))
    if k < 0 or k > MAX_BINOMIAL_K:
        raise NotRational("binomial with a negative or large k")
    factors = tuple(Add((n_node, Num(float(-i), str(-i)))) for i in range(k))
    return Div(Mul(factors) if factors else Num(1.0, "1"),
               Num(float(math.factorial(k)) if k <= 170 else math.inf, str(math.factorial(k))))


_EVAL = {
    Num: lambda n, field, point: field.number(_number(n)),
    Sym: _sym,
    Neg: lambda n, field, point: field.neg(_eval(n.arg, field, point)),
    Add: lambda n, field, point: field.add([_eval(t, field, point) for t in n.terms]),
    Mul: lambda n, field, point: field.mul([_eval(f, field, point) for f in n.factors]),
    Div: lambda n, field, point: field.div(_eval(n.num, field, point),
                                           _eval(n.den, field, point)),
    Pow: _pow,
    Factorial: _factorial,
    FuncN: _func_n,
    Series: _series,
}


# -- bounds: degree and coefficient size of the cleared numerator --------------------------

def _bounds(node: Node) -> tuple[int, float, float]:
    """(D, n, d): the degrees of numerator plus denominator are at most D, and their integer
    coefficients (after clearing) have 1-norms at most 2^n and 2^d (the 1-norm is
    submultiplicative and subadditive, so the rules below hold). NotRational if not rational."""
    rule = _BOUNDS.get(type(node))
    if rule is None:
        raise NotRational(type(node).__name__)
    return rule(node)


def _bits(k: int) -> float:
    return math.log2(abs(k)) if k else 0.0


def _num_bounds(node: Num):
    q = _number(node)
    return 0, _bits(q.numerator), _bits(q.denominator)


def _sum_bounds(node: Add):
    D, n, d = _bounds(node.terms[0])
    for t in node.terms[1:]:
        D2, n2, d2 = _bounds(t)
        D, n, d = D + D2, max(n + d2, n2 + d) + 1, d + d2
    return D, n, d


def _mul_bounds(node: Mul):
    parts = [_bounds(f) for f in node.factors]
    return sum(p[0] for p in parts), sum(p[1] for p in parts), sum(p[2] for p in parts)


def _div_bounds(node: Div):
    (D1, n1, d1), (D2, n2, d2) = _bounds(node.num), _bounds(node.den)
    return D1 + D2, n1 + d2, d1 + n2


def _pow_bounds(node: Pow):
    e = _whole(node.exp)
    D, n, d = _bounds(node.base)
    return abs(e) * D, abs(e) * (d if e < 0 else n), abs(e) * (n if e < 0 else d)


def _constant_bounds(node: Node):
    value = _eval(node, Exact(), {})
    return 0, _bits(value.numerator), _bits(value.denominator)


def _binomial_bounds(node: FuncN):
    return _bounds(falling_factorial_form(node))


_BOUNDS = {
    Num: _num_bounds,
    Sym: lambda n: (1, 0.0, 0.0),
    Neg: lambda n: _bounds(n.arg),
    Add: _sum_bounds,
    Mul: _mul_bounds,
    Div: _div_bounds,
    Pow: _pow_bounds,
    Factorial: _constant_bounds,
    FuncN: _binomial_bounds,
}


# -- the test ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RationalTree:
    """A rational expression (derivatives expanded) and its `_bounds`."""

    node: Node
    bounds: tuple[int, float, float]


_RATIONAL: dict[int, tuple[Node, RationalTree | None]] = {}


def rational_form(node: Node) -> RationalTree | None:
    """The tree with derivatives expanded, and its bounds, when it is a rational expression of
    plain symbols; else None (functions, e, pi, roots, matrices, declared functions). Cached per
    tree (an expected answer is met by many answers), as reading.nodes.facts is."""
    hit = _RATIONAL.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    result = _rational_form(node)
    if len(_RATIONAL) > 1024:  # keeps the node alive while cached, so its id cannot be reused
        _RATIONAL.clear()
    _RATIONAL[id(node)] = (node, result)
    return result


def _rational_form(node: Node) -> RationalTree | None:
    f = facts(node)
    if f.matrices or f.functions or f.multi_arg:
        return None
    if f.has_diff:
        node = expand_derivatives(node)
    try:
        return RationalTree(node, _bounds(node))
    except (NotRational, _Pole, OverflowError, ValueError):
        return None


def trials_needed(answer: RationalTree, expected: RationalTree) -> int | None:
    """Trials for an error probability <= 2^-TARGET_BITS, or None beyond MAX_TRIALS."""
    (Da, na, da), (De, ne, de) = answer.bounds, expected.bounds
    degree = Da + De
    coefficient_bits = max(na + de, ne + da) + 1
    per_trial = degree / 2 ** (PRIME_BITS - 1) + (coefficient_bits / (PRIME_BITS - 1)) / 2 ** 55
    if per_trial >= 2 ** -(TARGET_BITS // MAX_TRIALS):
        return None
    return max(1, math.ceil(TARGET_BITS / -math.log2(per_trial)))


def identical(answer: RationalTree, expected: RationalTree) -> bool | None:
    """True (equal, error probability <= 2^-60), False (certainly different), or None (too
    large for the bound, or undefined at every point drawn)."""
    trials = trials_needed(answer, expected)
    if trials is None:
        return None
    a, e = answer.node, expected.node
    names = sorted(facts(a).symbols | facts(e).symbols)
    for p in _RANDOM.sample(_PRIMES, trials):
        field = Modular(p)
        for _ in range(MAX_REDRAWS):
            point = {name: _RANDOM.randrange(p) for name in names}
            try:
                difference = (_eval(a, field, point) - _eval(e, field, point)) % p
            except _Pole:
                continue
            except NotRational:
                return None
            break
        else:
            return None  # a denominator vanished at every point drawn: undefined (float path)
        if difference != 0:
            return False
    return True


def exact_value(node: Node, point: dict[str, Fraction]) -> Fraction | None:
    """The exact value at a rational point, or None (a pole, too large, not rational)."""
    try:
        return _eval(node, Exact(), point)
    except (_Pole, NotRational, OverflowError, ValueError, ZeroDivisionError):
        return None
