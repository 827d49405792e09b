"""Confirm or overturn the float sampling verdict where floating point cannot see the difference.

- Two rational expressions (exact.py): the modular identity test decides, whatever the floats
  said ("equal" with error probability <= 2^-60; "different" is a proof), and a "different"
  verdict gets a counterexample evaluated exactly at a hand-checkable point.
- Anything else (precise.py): a float "equal" that is not at rounding level, or that rests on an
  absolute tolerance (tiny values), is checked again at a few points in multi-precision
  arithmetic, as is an "undecided" whose valid points disagree only slightly; a float
  "different" is kept only when some point's difference is certified there (a point where only
  one of the two is undefined, when its limit there is not the other's value). An agreement at
  rounding level is checked at BEYOND_DOUBLE points: differences below double precision count.
  An expected answer written with long decimals is compared at their precision (own_precision).
- Numbers without a finite value: `inf` is `inf` (the floats skip infinite values), and
  formulas of numbers with infinities are their limits (extended.py).
"""

from __future__ import annotations

import math
from dataclasses import replace
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np

from ..errors import GraderError
from ..reading.constant import constant_value
from ..reading.nodes import Factorial, Node, Num, Pow, facts, is_constant, walk
from ..result import Counterexample
from .counterexample import nice_difference, nice_values
from .decide import PointMasks, SampleVerdict, enough_valid
from .domains import NO_DOMAINS, Domains
from .evaluate import Env
from .exact import exact_value, identical, rational_form
from .extended import extended_value
from .precise import NotPrecise, difference_at, texts_at

MAX_EXACT_CANDIDATES = 64
SHORT_TEXT = 12  # a counterexample value this short is taken at once
MAX_CONFIRM = 3  # points of a float agreement confirmed in multi-precision
BEYOND_DOUBLE = 2  # near points where a rounding-level agreement is checked in multi-precision
LONG_DECIMAL = 10  # a decimal key with this many significant figures is compared at its precision
ORDINARY = (1e-4, 1e4)  # constants of these magnitudes need no check beyond double precision
EXPONENT_AMPLIFIES = 30
# Certified differences (precise.difference_at): values that differ, or (where the two share too
# little to compare, decide.PointMasks.differing) a point where only one side is real that is
# not removable.
DIFFERENCES = ("different", "answer_undefined", "expected_undefined")


def exactly(answer: Node, expected: Node, domains: Domains = NO_DOMAINS, *,
            example: bool = True) -> SampleVerdict | None:
    """The modular test's verdict on two rational expressions (None for anything else): run
    before the float samples, which an "equal" verdict then does not need. A "different"
    verdict's counterexample lies in the names' declared `domains` (not looked for without
    `example`: a caller that reads only the status)."""
    ra = rational_form(answer)
    re = rational_form(expected) if ra is not None else None
    if ra is None or re is None:
        return None
    same = identical(ra, re)
    if same is None or not same and own_precision(expected):
        return None  # a long decimal key is compared at its own precision (_beyond_double)
    if same:
        return SampleVerdict("equal", path="exact")
    shown = exact_counterexample(ra.node, re.node, domains) if example else None
    return SampleVerdict("different", example=shown, path="exact")


def confirmed(answer: Node, expected: Node, verdict: SampleVerdict,
              exact: SampleVerdict | None = None, *, example: bool = True) -> SampleVerdict:
    """The float verdict, checked where floats cannot see; `exact` is the verdict of `exactly`
    when it had one. Without `example` (a caller that reads only the status) the same status
    comes back, its counterexample fields not necessarily those shown to a learner."""
    if verdict.status == "shape":
        return verdict
    if exact is not None:
        return replace(exact, env=verdict.env,
                       sample=verdict.sample if verdict.status == "different" else None)
    points, env = verdict.points, verdict.env
    if facts(answer).constant and facts(expected).constant and (
            verdict.status == "undecided" or _has_infinity(answer) or _has_infinity(expected)):
        limits = _infinities(answer, expected, verdict)
        if limits is not verdict or verdict.status == "undecided":
            return limits
    if points is None or env is None or facts(answer).matrices or facts(expected).matrices:
        return verdict  # matrices: the float verdict stands
    if verdict.status == "equal" and trusted_agreement(points, env):
        return _beyond_double(answer, expected, verdict)
    if verdict.status == "undecided" and not (points.valid & ~points.tight).any():
        return verdict  # too few points in the domain: nothing to look at more closely
    try:
        return _precise_verdict(answer, expected, verdict, example)
    except NotPrecise:
        return verdict


def _infinities(answer: Node, expected: Node, verdict: SampleVerdict) -> SampleVerdict:
    """Numbers without a finite value: infinity is a value (`inf` is `inf`, not `-inf`, not 5),
    and powers, exponentials and products of numbers with infinities are their limits
    (extended.py: `2^{-\\infty}` is 0, `(1/2)^{-\\infty}` is `\\infty`)."""
    a, e = extended_value(answer), extended_value(expected)
    if a is None and e is not None and math.isinf(e):
        # no value (nor limit) where the expected answer is infinite: (-\infty)^{1/3} has no
        # real value, as (-8)^{1/3} has none (a real power of a negative base; cbrt(-\infty) is
        # -\infty). Any sample shows it: a formula of numbers is undefined at every one.
        return replace(verdict, status="different", path="exact",
                       sample=0 if verdict.env is not None else None)
    if a is None or e is None or not (math.isinf(a) or math.isinf(e)):
        return verdict
    if a == e:  # inf == inf, inf != -inf, inf != 5
        return replace(verdict, status="equal", sample=None, path="exact")
    shown = Counterexample("", _extended_text(a), _extended_text(e))
    return replace(verdict, status="different", sample=None, example=shown, path="exact")


def _extended_text(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return texts_that_differ(Fraction(value), Fraction(value))[0]


def trusted_agreement(points: PointMasks, env: Env) -> bool:
    """Float agreement that needs no confirmation: at rounding level (2e-14 relative, no
    absolute slack) at every valid near point, and at least two of them; the wide points only
    need the float rule (far from 0 their values carry a float's own rounding, 1e-12 and more,
    and tiny values there are below a float's resolution)."""
    return points.rounding_level(env.k - env.wide)


def _beyond_double(answer: Node, expected: Node, verdict: SampleVerdict) -> SampleVerdict:
    """A float agreement at rounding level, checked at 30/60 digits at BEYOND_DOUBLE valid near
    points (one for numbers): a certified difference there is a difference, however small
    (`\\ln(2^{50}+1)/\\ln 2` is not 50), unless it is within the precision of the expected
    answer's own long decimals (`own_precision`)."""
    if not (_extreme_constants(answer) or _extreme_constants(expected)):
        return verdict  # ordinary constants: no difference hides below a double's rounding
    if _has_infinity(answer) or _has_infinity(expected):  # (an infinity is extreme too)
        return verdict  # limits at infinity (2^{-\\infty}): no point to evaluate them at
    points, env = verdict.points, verdict.env
    near = np.flatnonzero(points.valid[:env.k - env.wide])
    count = 1 if facts(answer).constant and facts(expected).constant else BEYOND_DOUBLE
    tolerance = own_precision(expected)
    try:
        for j in near[:count].tolist():
            if difference_at(answer, expected, env, j, tolerance) in DIFFERENCES:
                return replace(verdict, status="different", sample=j, certified=True,
                               shown=texts_at(answer, expected, env, j), path="precise")
    except NotPrecise:
        pass
    return verdict


@lru_cache(maxsize=1024)
def _extreme_constants(node: Node) -> bool:
    """Whether a formula has what can hide a difference below double precision: a number, a
    constant power or a factorial of magnitude outside ORDINARY (1e-4..1e4: `10^{-17}`,
    `2^{50}`, `1e-16`, `20!`), a constant exponent of EXPONENT_AMPLIFIES or more
    (`(1 + x)^{50}`), or a decimal of LONG_DECIMAL figures (`0.333333333333`). Without them, a
    rounding-level agreement is kept: the check at 30/60 digits would cost every right answer
    with a function in it."""
    for n in walk(node):
        if type(n) is Num:
            if n.value and not ORDINARY[0] <= abs(n.value) <= ORDINARY[1] or \
                    _half_unit(n.text) is not None:
                return True
        elif type(n) in (Pow, Factorial) and is_constant(n):
            value = constant_value(n)
            if value is None or value and not ORDINARY[0] <= abs(value) <= ORDINARY[1]:
                return True
        if type(n) is Pow and is_constant(n.exp):
            exponent = constant_value(n.exp)
            if exponent is None or abs(exponent) >= EXPONENT_AMPLIFIES:
                return True
    return False


def _has_infinity(node: Node) -> bool:
    return any(type(n) is Num and not math.isfinite(n.value) for n in walk(node))


@lru_cache(maxsize=512)
def own_precision(expected: Node) -> float:
    """Half a unit in the last figure of the expected answer's least precise long decimal
    (LONG_DECIMAL significant figures or more: a printed float such as -9.42477796076938; for
    the shortest text of a double, half an ulp from that double), relative to that decimal;
    0.0 when it has none (shorter decimals are exact: 0.5 x is x/2)."""
    widest = 0.0
    for node in walk(expected):
        if type(node) is Num and node.value:
            half_unit = _half_unit(node.text)
            if half_unit is not None:
                widest = max(widest, half_unit / abs(node.value))
    return widest


def _half_unit(text: str) -> float | None:
    """Half a unit in the last figure of a decimal of LONG_DECIMAL figures or more (for a printed
    double, at least half an ulp from that double), else None."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        return None
    whole, _, fraction = mantissa.lstrip("+-").partition(".")
    figures = len((whole + fraction).lstrip("0"))
    if figures < LONG_DECIMAL:
        return None
    try:
        half_unit = 0.5 * 10.0 ** (int(exponent or 0) - len(fraction))
        value, written = float(text), Decimal(text)
    except (ValueError, ArithmeticError):  # not a plain decimal (written another way)
        return None
    if Decimal(repr(value)) == written:
        # The shortest text of a double (as Python, JavaScript and JSON print it): that double
        # stands for the values that round to it, within half an ulp of it, and the text is
        # `gap` away from the double.
        gap = abs(Decimal(value) - written)
        return max(half_unit, math.ulp(value) / 2 + float(gap))
    return half_unit


def _certified(answer: Node, expected: Node, env: Env, j: int) -> bool:
    found = difference_at(answer, expected, env, j, own_precision(expected))
    return found in DIFFERENCES


def _precise_verdict(answer: Node, expected: Node, verdict: SampleVerdict,
                     example: bool = True) -> SampleVerdict:
    """Look closer at the points that decide: a float difference must be certified, at a nice
    point first (the counterexample shown) or at a random one (else it was a rounding artefact
    or an overflow, and the point is dropped); a float agreement that is not trusted is confirmed
    at every point that is not tight and at the MAX_CONFIRM least tight others. Without
    `example` the random points come first: the status is the same (different when either
    kind of point is certified), the nice points are searched only when no random one is."""
    points, env = verdict.points, verdict.env
    differing = points.differing()
    if differing and example:
        nice = _at_a_nice_point(answer, expected, verdict, differing[0])
        if nice is not None:
            return nice
    dropped = np.zeros_like(points.valid)
    for j in differing:
        if _certified(answer, expected, env, j):
            shown = texts_at(answer, expected, env, j) if example else None
            return replace(verdict, status="different", sample=j, certified=True,
                           shown=shown, path="precise")
        dropped[j] = True
    if differing and not example:
        nice = _at_a_nice_point(answer, expected, verdict, differing[0])
        if nice is not None:
            return nice
    valid = points.valid & ~dropped
    if not enough_valid(int(valid.sum()), len(valid)):
        return replace(verdict, status="undecided", sample=None, path="precise")
    loose = np.flatnonzero(valid & ~points.tight)
    near_rounding = np.flatnonzero(valid & points.tight & ~points.rounding)
    worst = near_rounding[np.argsort(-points.relative[near_rounding])][:MAX_CONFIRM]
    for j in [*loose, *worst]:
        found = difference_at(answer, expected, env, int(j), own_precision(expected))
        if found in DIFFERENCES:
            return replace(verdict, status="different", sample=int(j), certified=True,
                           shown=texts_at(answer, expected, env, int(j)), path="precise")
        if found not in ("equal", "removable"):
            return replace(verdict, status="undecided", sample=None, path="precise")
    return replace(verdict, status="equal", sample=None, path="precise")


def _at_a_nice_point(answer: Node, expected: Node, verdict: SampleVerdict,
                     sample: int) -> SampleVerdict | None:
    """The verdict "different" (its random sample `sample`) with a nice point where the
    difference is certified (counterexample.nice_difference), or None when there is none."""
    points, env = verdict.points, verdict.env
    try:
        nice = nice_difference(answer, expected, env.column_vectors,
                               certify=lambda e, j: _certified(answer, expected, e, j),
                               domains_of=env, values_only=bool(np.count_nonzero(points.clear)))
    except (GraderError, FloatingPointError, ValueError):  # a nice point is optional
        return None
    if nice is None:
        return None
    return replace(verdict, status="different", sample=sample, nice=nice,
                   certified=True, path="precise")


def exact_counterexample(answer: Node, expected: Node,
                         domains: Domains = NO_DOMAINS) -> Counterexample | None:
    """A hand-checkable point (x = 2, 1, 3, -1, 1/2, ...; inside the names' declared domains)
    where both are defined and their exact values differ, the one whose values are shortest to
    write (the first whose values are at most SHORT_TEXT characters), with both values written
    to the digits that show it."""
    names = sorted(facts(answer).symbols | facts(expected).symbols)
    values = [[Fraction(v).limit_denominator(8) for v in
               nice_values(name, domains.positive, domains.nonnegative, domains.integers)]
              for name in names]
    best = None  # the point whose values are shortest to write (2^10000 + 1 at x = 2 is not)
    for i, combo in enumerate(product(*values)):
        if i >= MAX_EXACT_CANDIDATES:
            break
        point = dict(zip(names, combo, strict=True))
        a, e = exact_value(answer, point), exact_value(expected, point)
        if a is None or e is None or a == e:
            continue
        shown = texts_that_differ(a, e)
        length = max(len(t) for t in shown)
        if best is None or length < best[0]:
            where = ", ".join(f"{n} = {_plain(v)}" for n, v in point.items())
            best = (length, Counterexample(where, *shown))
        if length <= SHORT_TEXT:
            break
    return None if best is None else best[1]


def texts_that_differ(a: Fraction, b: Fraction) -> tuple[str, str]:
    """Decimal texts of two different numbers with enough significant digits to tell them apart
    (`2.000000003` and `2.000000001`, not `2` and `2`); "…" marks a rounded text."""
    for digits in (6, 10, 16, 24, 40, 60):
        ta, tb = _decimal(a, digits), _decimal(b, digits)
        if Decimal(ta.rstrip("…")) != Decimal(tb.rstrip("…")):
            return ta, tb
    return ta, tb


def _plain(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _decimal(q: Fraction, digits: int) -> str:
    if q.denominator == 1 and abs(q.numerator) < 10 ** 15:
        return str(q.numerator)
    with localcontext() as ctx:
        ctx.prec = digits
        d = Decimal(q.numerator) / Decimal(q.denominator)
    text = f"{d:g}" if d.adjusted() < -6 or d.adjusted() >= digits else f"{d:f}"
    return text if d == q else text + "…"
