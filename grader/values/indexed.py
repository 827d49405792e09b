"""Sample formulas with sums, products, family members or integer names at integer points.

A sum or product is decided by evaluating both formulas at many integer values of their bounds
(issue 24): every integer name (declared in `integers`, or used in a bound or a member's index)
takes whole values 0..INTEGER_HIGH (0..RELATION_HIGH, and no values over the decades,
when relations are declared), the other names their usual random values (evaluate.Env).
Only points where every range of either formula *as written* makes sense are used: an upward
range from a to b needs b >= a - 1 (b = a - 1 is the empty range: a sum of 0, a product of 1),
a downward one a >= b - 1. So `x_L = x_l + \\sum_{i=l}^{L-1} F_i(x_i)` is checked where l <= L,
and `\\sum_{i=1}^{n} i = n(n+1)/2` where n >= 0, as the texts mean them; points with an empty
range come first so that the empty case is always checked when it can occur. Ranges whose
bounds use an enclosing sum's index are not constrained: there the usual convention holds (a
range that runs past its end is empty).

With declared relations (`x_{l+1} = x_l + F_l(x_l)`) the family's members are computed by running
the recursion from random first members at each point (evaluate._member_value).

Rational terms are then checked exactly (exact.py's `exact_value`, Fractions) at every integer
point, with the other names at exact binary values of their float samples: an exact "different"
is certified, and an exact "equal" at every point replaces the float agreement. The exact
check runs only when the floats do not agree at rounding level, and takes the real names at
fractions with denominators up to 1000 near their samples, at the first EXACT_POINTS points
(Fractions cost a few microseconds an operation; the floats have seen all 24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from ..errors import GraderError
from ..reading.families import Relation
from ..reading.nodes import Add, Diff, Member, Node, Series, Sym, facts, free_names, walk
from ..result import Counterexample
from .confirm import texts_that_differ
from .counterexample import format_value
from .decide import MATRIX_SIZE, SEED, SampleVerdict, compare_values
from .domains import Domains
from .evaluate import Env, evaluate
from .exact import exact_value
from .precise import NotPrecise, difference_at
from .shapes import VectorSpace, infer_space
from .vector_sampling import vector_verdict, with_space

INTEGER_HIGH = 9
RELATION_HIGH = 6
CANDIDATES = 600
SCALAR_POINTS = 24
MATRIX_POINTS = 12  # matrix products are checked at more points than other matrix formulas
WIDE_POINTS = 8  # scalar points whose real names spread over the decades (evaluate.Env.symbol)
EMPTY_FIRST = 3  # points with an empty range put first, when there are such points
MAX_EXACT_BITS = 20_000
EXACT_DENOMINATOR = 1000
EXACT_POINTS = 8  # the first points: an empty range and distinct integer values come first


@dataclass(frozen=True, slots=True)
class Indexing:
    """What a question declares about its names' values: integer names, the families'
    relations, and the names declared positive or nonnegative (values/domains.py)."""

    integers: frozenset[str] = frozenset()
    relations: tuple[Relation, ...] = ()
    positive: frozenset[str] = frozenset()
    nonnegative: frozenset[str] = frozenset()
    # Declared vectors (issue 25): their names, the vector functions, and the vectors defined
    # by a relation (`y = x + Wx`); `space` is their sizes, inferred from the lines being
    # compared (values/shapes.py; set by the kinds that read the lines).
    vectors: frozenset[str] = frozenset()
    vector_functions: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    definitions: tuple[tuple[str, Node], ...] = ()
    space: VectorSpace | None = None

    @property
    def domains(self) -> Domains:
        return Domains(self.positive, self.nonnegative, self.integers)


NO_INDEXING = Indexing()


def needs_integer_points(answer: Node, expected: Node, indexing: Indexing | None) -> bool:
    if facts(answer).indexed or facts(expected).indexed:
        return True
    if indexing is None or not indexing.integers:
        return False
    used = facts(answer).symbols | facts(expected).symbols
    return bool(indexing.integers & used)


def integer_names(nodes: tuple[Node, ...], indexing: Indexing) -> set[str]:
    """Declared integers used, and every free name in a bound or a member's index."""
    names: set[str] = set()
    for node in nodes:
        used = free_names(node)
        names |= indexing.integers & used
        for part in walk(node):
            if type(part) is Series:
                names |= (_names(part.lower) | _names(part.upper)) & used
            elif type(part) is Member:
                names |= _names(part.index) & used
            elif type(part) is Diff and "_" in part.var:  # d/dx_{l}: l is an integer
                names |= set(re.findall(r"[A-Za-z]+", part.var.partition("_")[2])) & used
    return names


def _names(node: Node) -> set[str]:
    return {n.name for n in walk(node) if type(n) is Sym}


def _ranges(nodes: tuple[Node, ...], free: set[str]) -> list[Series]:
    """The ranges whose bounds use only free integer names (none of an enclosing index)."""
    return [part for node in nodes for part in walk(node) if type(part) is Series
            and (_names(part.lower) | _names(part.upper)) <= free]


def _members(nodes: tuple[Node, ...], free: set[str]) -> list[Member]:
    """The family members whose index uses only free integer names."""
    return [part for node in nodes for part in walk(node) if type(part) is Member
            and _names(part.index) <= free]


def indexed_env(nodes: tuple[Node, ...], matrix_mode: bool, indexing: Indexing,
                vectors: bool = False) -> Env:
    """An environment whose integer names take whole values at which every range of `nodes`
    makes sense (see the module docstring). Shared by every comparison with the same integer
    names, ranges, member indices and relations (its values depend on nothing else), as
    decide.sampling_env is."""
    names = tuple(sorted(integer_names(nodes, indexing)))
    free = set(names)
    ranges = tuple(dict.fromkeys((r.lower, r.upper, r.descending) for r in _ranges(nodes, free)))
    indices = tuple(dict.fromkeys(m.index for m in _members(nodes, free)))
    key = (names, ranges, indices, matrix_mode, vectors, indexing.relations, indexing.domains)
    env = _ENVS.get(key)
    if env is None:
        if len(_ENVS) >= MAX_SHARED_ENVS:
            _ENVS.clear()
        env = _ENVS[key] = _new_env(names, ranges, indices, matrix_mode, indexing, vectors)
    return env


MAX_SHARED_ENVS = 256
_ENVS: dict[tuple, Env] = {}


def _new_env(names: tuple[str, ...], ranges: tuple, indices: tuple, matrix_mode: bool,
             indexing: Indexing, vectors: bool) -> Env:
    k = MATRIX_POINTS if matrix_mode else SCALAR_POINTS
    # A recursion run from values over the decades overflows within a few layers (x + F(x)
    # with a cubic F): with relations, near values only, and depths up to RELATION_HIGH.
    wide = 0 if matrix_mode or indexing.relations else WIDE_POINTS
    env = Env(k=k, n=MATRIX_SIZE, seed=SEED, column_vectors=vectors and matrix_mode, wide=wide)
    env = indexing.domains.restrict(env, skip=set(names))  # the real names' declared domains
    env.relations = {r.family: r for r in indexing.relations}
    if not names:
        return env
    high = RELATION_HIGH if indexing.relations else INTEGER_HIGH
    rng = np.random.default_rng([SEED, len(names), 24])
    table = rng.integers(0, high + 1, (CANDIDATES, len(names)))
    table = np.unique(table, axis=0)
    rng.shuffle(table)
    probe = Env(k=len(table), n=1, seed=SEED)
    for column, name in enumerate(names):
        probe.symbols[name] = table[:, column].astype(complex)
    keep = np.ones(len(table), dtype=bool)
    for column, name in enumerate(names):  # a positive integer is 1..9
        if name in indexing.positive:
            keep &= table[:, column] >= 1
    empty = np.zeros(len(table), dtype=bool)
    for lower, upper, descending in ranges:
        try:
            low, high = evaluate(lower, probe).real, evaluate(upper, probe).real
        except GraderError:
            continue
        count = (low - high + 1) if descending else (high - low + 1)
        keep &= count >= 0
        empty |= count == 0
    for index in indices:  # x_{L-1} needs L >= 1: layers start at 0
        try:
            keep &= evaluate(index, probe).real >= 0
        except GraderError:
            continue
    rows = table[keep]
    if len(rows) == 0:
        rows = table  # no point where every range makes sense: sample anyway, undefined points
    else:
        first = np.flatnonzero(empty[keep])[:EMPTY_FIRST]
        rest = np.setdiff1d(np.arange(len(rows)), first)
        rows = rows[np.concatenate([first, rest])]
    picks = rows[np.arange(k) % len(rows)]
    for column, name in enumerate(names):
        env.symbols[name] = picks[:, column].astype(complex)
    return env


def indexed_verdict(answer: Node, expected: Node, indexing: Indexing | None) -> SampleVerdict:
    """Both formulas at the same integer points; exact where their terms are rational."""
    indexing = indexing or NO_INDEXING
    matrix_mode = bool(facts(answer).matrices or facts(expected).matrices)
    if indexing.vectors:
        space = indexing.space or sized_space(indexing, (expected, answer))
        env = with_space(indexed_env((answer, expected), True, indexing), space)
        return vector_verdict(answer, expected, space, env)
    env = indexed_env((answer, expected), matrix_mode, indexing, vectors=True)
    try:
        expected_value = evaluate(expected, env)
    except GraderError:
        if not env.column_vectors:
            raise
        env = indexed_env((answer, expected), matrix_mode, indexing)
        expected_value = evaluate(expected, env)
    answer_value = evaluate(answer, env)
    verdict = compare_values(answer_value, expected_value, flatten_vectors=not matrix_mode,
                             env=env)
    if verdict.status == "shape":
        return verdict
    if verdict.status == "different" and not matrix_mode:
        verdict = _domain_differences(answer, expected, env, verdict, answer_value)
    if verdict.status == "equal" and verdict.points.rounding_level(env.k - env.wide):
        return verdict  # agreement at rounding level: the float rule of confirm.py
    exact = None if matrix_mode else _exact_verdict(answer, expected, env, verdict.sample)
    if exact is not None:
        return exact
    if verdict.status == "different" and verdict.points.undefined[verdict.sample]:
        # one side undefined there: counterexample.py writes the point and says which, in the
        # learner's language
        return replace(verdict, certified=True)
    if verdict.status == "different":  # the point as sampled: integer names, both values
        j = verdict.sample
        shown = ", ".join(f"{n} = {int(env.symbols[n][j].real)}"
                          for n in sorted(integer_names((answer, expected), indexing)))
        example = Counterexample(shown, format_value(answer_value[j]),
                                 format_value(expected_value[j]))
        return replace(verdict, example=example)
    return verdict


def _domain_differences(answer: Node, expected: Node, env: Env, verdict: SampleVerdict,
                        answer_value: np.ndarray) -> SampleVerdict:
    """The points where exactly one formula is undefined, looked at in multi-precision
    (precise.difference_at): a removable one (`(n+1)!/(n-1)!` for `n(n+1)` at n = 0, either way
    round) is dropped. Formulas with sums or members, which precise.py does not evaluate, keep
    the float facts there, except that a point where only the expected answer (or the line
    before) is undefined is skipped: without its limit it cannot be told from a removable one."""
    points = verdict.points
    dropped = np.zeros_like(points.valid)
    for j in np.flatnonzero(points.undefined & ~points.clear).tolist():
        try:
            found = difference_at(answer, expected, env, j)
        except (NotPrecise, GraderError):
            found = None
        if found in ("removable", "both_undefined", "equal") or (
                found is None and _real_at(answer_value, j)):
            dropped[j] = True
    if not dropped.any():
        return verdict
    status = points.decide(dropped)
    if status != "different":
        return replace(verdict, status=status, sample=None)
    kept = [j for j in points.differing() if not dropped[j]]
    return replace(verdict, sample=kept[0])


def _real_at(values: np.ndarray, j: int) -> bool:
    """Whether every entry of the value at sample j is a finite real number."""
    z = np.asarray(values[j])
    with np.errstate(all="ignore"):
        return bool(np.isfinite(z).all() and (np.abs(z.imag) <= 1e-9 * (1 + np.abs(z.real))).all())


def _exact_verdict(answer: Node, expected: Node, env: Env,
                   differing: int | None) -> SampleVerdict | None:
    """Fractions at every point (the differing one first; points with the same values once),
    when both formulas are rational there (None otherwise)."""
    names = sorted(facts(answer).symbols | facts(expected).symbols)
    if any(name not in env.symbols for name in names):
        return None
    defined = 0
    order = ([differing] if differing is not None else []) + [
        j for j in range(env.k) if j != differing]
    seen = set()
    for j in order[:EXACT_POINTS]:
        point = {name: _short_fraction(env.symbols[name][j].real) for name in names}
        signature = tuple(point.values())
        if signature in seen:
            defined += 1  # the same values as a point already found equal
            continue
        seen.add(signature)
        a, e = exact_value(answer, point), exact_value(expected, point)
        if a is None or e is None:
            return None  # not rational here (or a pole): the float verdict stands
        if a.numerator.bit_length() + e.numerator.bit_length() > MAX_EXACT_BITS:
            return None
        defined += 1
        if a != e:
            shown = ", ".join(f"{n} = {_point_text(point[n])}" for n in names)
            example = Counterexample(shown, *texts_that_differ(a, e))
            return SampleVerdict("different", sample=j, env=env, example=example, path="exact",
                                 certified=True)
    if defined < min(EXACT_POINTS, env.k):
        return None
    return SampleVerdict("equal", env=env, path="exact")


def _short_fraction(value: float) -> Fraction:
    """An integer name's value exactly; a real name's as a fraction with a small denominator
    near its sample (a 53-bit float raised to the 9th power makes the Fractions slow; the exact
    check needs rational points, not these exact ones)."""
    exact = Fraction(float(value))
    return exact if exact.denominator == 1 else exact.limit_denominator(EXACT_DENOMINATOR)


def _point_text(value: Fraction) -> str:
    """The point exactly as evaluated: 3, -34/21."""
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


def sized_space(indexing: Indexing, nodes: tuple[Node, ...]) -> VectorSpace:
    """The sizes of the declared vectors, read from `nodes` in order (values/shapes.py), after
    the relations of the families of vectors (`x_{l+1} = x_l + F_l(x_l)`: F's output is x's
    size)."""
    recursions = tuple(Add((Member(r.family, Sym(r.var), "matrix"), r.rhs))
                       for r in indexing.relations if r.family in indexing.vectors)
    return infer_space(recursions + tuple(nodes), indexing.vectors, indexing.vector_functions,
                       indexing.matrices, indexing.definitions)
