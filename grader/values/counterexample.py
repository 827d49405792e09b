"""Find a counterexample a learner can check by hand: small integers, simple functions, 2x2 matrices.

The sampling verdict already says "different"; here both formulas are evaluated again at "nice"
points (x = 2, 1, 3, -1, 1/2 ..., F(t) = t^2, t^3, sin t, e^t, integer 2x2 matrices) and the first
point where they clearly differ is reported with both values. If no nice point differs, the random
sample that did is reported instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ..messages import message
from ..reading.nodes import Node, facts
from ..result import Counterexample
from .decide import compare_values
from .evaluate import Env, FunctionModel, evaluate

NICE_VALUES = (2.0, 1.0, 3.0, -1.0, 0.5, -2.0, 1.5, 4.0)
# Names with a declared domain (values/domains.py) take nice values inside it.
NICE_POSITIVE = (2.0, 1.0, 3.0, 0.5, 1.5, 4.0)
NICE_NONNEGATIVE = (2.0, 1.0, 3.0, 0.0, 0.5, 1.5, 4.0)
NICE_FUNCTIONS = (("t^2", "p2"), ("t^3", "p3"), ("sin(t)", "sin"), ("e^t", "exp"))
MAX_CANDIDATES = 64  # e.g. 8 x 8: every pair of nice values for two symbols
MIN_CANDIDATES = 16  # enough random integer matrices to find one that shows a difference
NICE_MATRIX_SIZE = 2
MAX_CERTIFIED_TRIES = 4  # nice points whose float difference is checked in multi-precision


def nice_values(name: str, positive: frozenset[str], nonnegative: frozenset[str],
                integers: frozenset[str] = frozenset()) -> tuple:
    """The nice values of a name inside its declared domain (whole ones for an integer)."""
    if name in positive:
        values = NICE_POSITIVE
    else:
        values = NICE_NONNEGATIVE if name in nonnegative else NICE_VALUES
    return tuple(v for v in values if v.is_integer()) if name in integers else values


@lru_cache(maxsize=256)
def nice_env(names: tuple[str, ...], functions: tuple[str, ...], matrices: tuple[str, ...],
             column_vectors: bool = False, positive: frozenset[str] = frozenset(),
             nonnegative: frozenset[str] = frozenset()) -> Env:
    """Candidate points: a full grid over the first symbols and functions (nice values x nice
    functions, at most MAX_CANDIDATES points), seeded picks for the rest; names declared
    positive or nonnegative take nice values in their domain. Deterministic for its arguments,
    so one Env per combination of names is shared."""
    values_of = {name: nice_values(name, positive, nonnegative) for name in names}
    dims = [(name, len(values_of[name])) for name in names] + \
           [(name, len(NICE_FUNCTIONS)) for name in functions]
    k, strides = 1, {}
    for name, size in dims:
        if k * size > MAX_CANDIDATES:
            break
        strides[name] = k
        k *= size
    k = max(k, MIN_CANDIDATES)
    rng = np.random.default_rng(5)

    def digits(name: str, size: int) -> list[int]:
        if name in strides:
            return [(j // strides[name]) % size for j in range(k)]
        return rng.integers(0, size, k).tolist()

    env = Env(k=k, n=NICE_MATRIX_SIZE, seed=7, column_vectors=column_vectors,
              positive=positive, nonnegative=nonnegative)
    for name in names:
        values = values_of[name]
        env.symbols[name] = np.array([values[d] for d in digits(name, len(values))],
                                     dtype=complex)
    for name in functions:
        coef = {key: np.zeros(k) for key in ("a", "b", "c", "h", "g", "p2", "p3")}
        labels = []
        for j, d in enumerate(digits(name, len(NICE_FUNCTIONS))):
            label, kind = NICE_FUNCTIONS[d]
            labels.append(label)
            if kind == "sin":
                coef["a"][j], coef["b"][j] = 1.0, 1.0
            elif kind == "exp":
                coef["h"][j], coef["g"][j] = 1.0, 1.0
            else:
                coef[kind][j] = 1.0
        env.functions[f"{name}#0"] = FunctionModel(coef, tuple(labels))
    for name in matrices:
        cols = 1 if env.is_vector(name) else NICE_MATRIX_SIZE
        env.matrices[name] = rng.integers(-2, 3, (k, NICE_MATRIX_SIZE, cols)).astype(complex)
    return env


def nice_difference(answer: Node, expected: Node, column_vectors: bool = False,
                    certify: Callable[[Env, int], bool] | None = None,
                    domains_of: Env | None = None, values_only: bool = False) -> tuple | None:
    """The first nice point where the two formulas differ in floats (and, given `certify`, where
    that difference is certified), as (environment, index, answer values, expected values);
    None if there is none. The names keep the declared domains of `domains_of` (the
    environment the verdict was sampled in). With `values_only` (the verdict rests on values
    that differ where both are real) a point where only one side is real is not shown, even where
    the nice points share too little: `sqrt(x - 1000)` is wrong for `sqrt(x) - sqrt(1000)`
    because of its values above 1000, not because it is undefined at x = 2."""
    fa, fe = facts(answer), facts(expected)
    if fa.multi_arg or fe.multi_arg:
        return None
    names = tuple(sorted(fa.symbols | fe.symbols))
    positive = domains_of.positive & set(names) if domains_of is not None else frozenset()
    nonnegative = domains_of.nonnegative & set(names) if domains_of is not None else frozenset()
    env = nice_env(names, tuple(sorted(fa.functions | fe.functions)),
                   tuple(sorted(fa.matrices | fe.matrices)), column_vectors,
                   frozenset(positive), frozenset(nonnegative))
    a, e = evaluate(answer, env), evaluate(expected, env)
    verdict = compare_values(a, e, flatten_vectors=not (fa.matrices | fe.matrices))
    if verdict.status != "different":
        return None
    points = verdict.points
    candidates = np.flatnonzero(points.clear).tolist() if values_only else points.differing()
    for j in candidates[:MAX_CERTIFIED_TRIES]:
        if certify is None or certify(env, j):
            return env, j, a, e
    return None


def find_counterexample(answer: Node, expected: Node, random_env: Env,
                        random_sample: int | None, lang: str = "en",
                        nice: tuple | None = None, search: bool = True,
                        shown: tuple[str, str] | None = None) -> Counterexample | None:
    """A nice point (`nice`, else searched for when `search`), else the random sample (its
    values written as `shown` when given: multi-precision texts that differ)."""
    fa, fe = facts(answer), facts(expected)
    names = sorted(fa.symbols | fe.symbols)
    functions = sorted(fa.functions | fe.functions)
    matrices = sorted(fa.matrices | fe.matrices)
    if nice is None and search:
        try:
            nice = nice_difference(answer, expected, random_env.column_vectors,
                                   domains_of=random_env)
        except Exception:  # noqa: BLE001 - a nicer example is optional; fall back to the random one
            nice = None
    if nice is not None:
        env, j, a, e = nice
        return describe(env, j, names, functions, matrices, a, e, lang)
    if random_sample is None:
        return None
    a, e = evaluate(answer, random_env), evaluate(expected, random_env)
    example = describe(random_env, random_sample, names, [], matrices, a, e, lang, exact=False)
    if shown is not None:
        example = Counterexample(example.point, *shown)
    return example


def describe(env: Env, j: int, names: list[str], functions: list[str], matrices: list[str],
             a: np.ndarray, e: np.ndarray, lang: str, exact: bool = True) -> Counterexample:
    parts = [f"{n} = {format_value(env.symbols[n][j])}" for n in names if n in env.symbols]
    for f in functions:
        model = env.functions.get(f"{f}#0")
        if model is not None and model.description:
            parts.append(f"{f}(t) = {model.description[j]}")
    parts += [f"{m} = {format_value(env.matrices[m][j])}" for m in matrices if m in env.matrices]
    point = ", ".join(parts)  # empty when nothing varies: the feedback says so (feedback.py)
    prefix = "" if exact else "≈ "
    return Counterexample(point, _value_text(a[j], prefix, lang), _value_text(e[j], prefix, lang))


def _value_text(value: np.ndarray, prefix: str, lang: str) -> str:
    z = np.asarray(value)
    finite = np.isfinite(z).all()
    real = finite and (np.abs(z.imag) <= 1e-9 * (1 + np.abs(z.real))).all()
    if not real:
        return message("value_not_real" if finite else "value_undefined", lang)
    if z.size == 1 and float(z.real.flat[0]).is_integer():
        return format_value(value)  # a whole number is written exactly (integer points)
    return prefix + format_value(value)


def format_value(value: np.ndarray | complex) -> str:
    value = np.asarray(value)
    if value.ndim == 2:
        if value.shape[1] == 1:
            return "[" + ", ".join(format_value(v) for v in value[:, 0]) + "]ᵀ"
        return "[" + ", ".join("[" + ", ".join(format_value(v) for v in row) + "]"
                               for row in value) + "]"
    z = complex(value)
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        return "undefined"
    if abs(z.imag) <= 1e-9 * max(1.0, abs(z.real)):
        return _real(z.real)
    sign = "+" if z.imag >= 0 else "-"
    return f"{_real(z.real)} {sign} {_real(abs(z.imag))}i"


def _real(x: float) -> str:
    if abs(x - round(x)) < 1e-9 and abs(x) < 1e15:
        return str(int(round(x)))
    return f"{x:.6g}"
