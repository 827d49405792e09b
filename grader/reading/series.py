"""Sums and products over an integer range: how their bounds are read, and their limits.

`\\sum_{i=a}^{b} f(i)`, `\\prod_{i=a}^{b} f(i)` (also `∑`, `∏`, `sum(f, i, a, b)`,
`prod(f, i, a, b)`): `i` is a bound integer index; names in a bound (`n`, `L`) are integers.

Direction. A range runs from its lower bound (written under the sign) to its upper bound, one
step at a time. It runs **downwards** when it is written that way, decided once from the bounds
as written, with every name in them at a reference value (names starting in lower case 20, in
capitals 40: a layer `l` is below the depth `L`, a written number is small): downwards when the
upper bound is then at least 2 below the lower one: `\\prod_{l=L}^{1} A_l` = A_L ... A_1,
`\\prod_{l=3}^{1} A_l` = A_3 A_2 A_1, `\\prod_{i=L-1}^{l}` = A_{L-1} ... A_l. Otherwise it runs
upwards: `\\prod_{l=1}^{L} A_l` = A_1 ... A_L, `\\sum_{i=l}^{L-1}`; a range that ends one below its
start (`\\sum_{i=1}^{0}`, `\\sum_{i=l}^{l-1}`) is empty: a sum of 0, a product of 1. Factors always
multiply in the order the index runs, so the order of non-commuting factors is what is written.

A bare `\\sum_l` or `\\prod_l` (no bounds) is refused with a message asking for the range: the
texts write the Jacobian chain as a bare `\\prod_l` meaning the deepest layer first, which is
neither convention a reader can assume; written with bounds, both orders can be said.
"""

from __future__ import annotations

from ..errors import LimitError, ParseError
from .constant import constant_value
from .nodes import Add, Div, Mul, Neg, Node, Num, Pow, Series, Sym, children, is_constant, walk

# Terms of a sum or product with constant bounds, nested ones multiplied (\sum_{i=1}^{10^9} is
# refused at once); the same bound as evaluate.MAX_SERIES_EVALUATIONS, for ranges with names.
MAX_SERIES_TERMS = 1000
MAX_SERIES_NESTING = 4
REFERENCE_LOWERCASE, REFERENCE_CAPITAL = 20, 40
SERIES_OPS = {"sum": "sum", "prod": "prod", "product": "prod"}
SERIES_SIGNS = {"sum": r"\sum", "prod": r"\prod"}  # how a Series' op is written in LaTeX


def make_series(op: str, var: str, lower: Node, upper: Node, body: Node, pos: int) -> Series:
    """The Series node, after the checks that need no evaluation."""
    if var in _names(lower) | _names(upper):
        raise ParseError("series_bound_uses_index", pos, var=var)
    for bound in (lower, upper):
        if is_constant(bound):
            value = constant_value(bound)
            if value is None or not value.is_integer():
                raise ParseError("series_bound_whole", pos)
    descending = runs_downward(lower, upper)
    if _static_terms(lower, upper, body) > MAX_SERIES_TERMS:
        raise LimitError("series_too_long", pos, limit=MAX_SERIES_TERMS)
    nesting = 1 + max((_nesting(n) for n in (lower, upper, body)), default=0)
    if nesting > MAX_SERIES_NESTING:
        raise LimitError("series_too_deep", pos, limit=MAX_SERIES_NESTING)
    return Series(op, var, lower, upper, body, descending)


def _static_terms(lower: Node, upper: Node, body: Node) -> float:
    """Terms to evaluate as far as the written numbers tell: this range's (when its bounds are
    numbers) times the largest count of the ranges nested in its body."""
    count = 1.0
    if is_constant(lower) and is_constant(upper):
        count = abs(constant_value(upper) - constant_value(lower)) + 1
    inner = [_static_terms(n.lower, n.upper, n.body) for n in walk(body) if type(n) is Series]
    return count * max(inner, default=1.0)


def runs_downward(lower: Node, upper: Node) -> bool:
    """Whether the range is written downwards (see the module docstring)."""
    low, high = _reference(lower), _reference(upper)
    return low is not None and high is not None and high <= low - 2


def _reference(node: Node) -> float | None:
    """The bound with every name at its reference value, or None when that has no value."""
    substituted = _substitute(node)
    return None if substituted is None else constant_value(substituted)


def _substitute(node: Node) -> Node | None:
    kind = type(node)
    if kind is Num:
        return node
    if kind is Sym:
        value = REFERENCE_CAPITAL if node.name[:1].isupper() else REFERENCE_LOWERCASE
        return Num(float(value), str(value))
    if kind is Neg:
        arg = _substitute(node.arg)
        return None if arg is None else Neg(arg)
    if kind in (Add, Mul):
        parts = [_substitute(p) for p in (node.terms if kind is Add else node.factors)]
        if any(p is None for p in parts):
            return None
        return Add(tuple(parts)) if kind is Add else Mul(tuple(parts))
    if kind in (Div, Pow):
        a, b = (node.num, node.den) if kind is Div else (node.base, node.exp)
        a, b = _substitute(a), _substitute(b)
        if a is None or b is None:
            return None
        return Div(a, b) if kind is Div else Pow(a, b)
    return None


def _names(node: Node) -> set[str]:
    return {n.name for n in walk(node) if type(n) is Sym}


def _nesting(node: Node) -> int:
    """How many sums and products are nested in `node`, at most."""
    deepest = 0
    stack = [(node, 0)]
    while stack:
        current, depth = stack.pop()
        if type(current) is Series:
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((c, depth) for c in (current.lower, current.upper, current.body))
            continue
        stack.extend((c, depth) for c in children(current))
    return deepest

