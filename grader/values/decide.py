"""Decide whether two formulas are equivalent by evaluating both at random points.

Rule: evaluate both trees at k random points (random n x n matrices for matrix symbols, random
smooth functions for undefined functions). With plain symbols the k = 24 points are 8 near ones
(|x| in 0.2..2) and 16 spread over the decades 0.001..100,000, both signs (evaluate.Env.symbol).
A point is *valid* when both values are finite and real. The one real-domain rule
(grader/README.md): the two are compared where both are real, and must be real together on
enough of the domain; a point where exactly one of the two is real (2 log x for log x^2 at
x = -1, either way round) is not a difference by itself, only a fact for the note a right answer
gets. Names with a declared domain are sampled only inside it (domains.py).
- some valid point differs clearly (|a-b| > 1e-4 max(|a|,|b|) + 1e-8)  -> different
- enough points are valid (6, or half of k when k < 12) and all agree
  (|a-b| <= 1e-7 max(|a|,|b|) + 1e-10)                                   -> equal
- too few valid points, and at some point exactly one of the two is real: the two are real on
  different sets that share too little to compare (`sqrt(-x^2-1)` for 1)  -> different, unless
  the caller finds more of the shared domain (`common_domain_env`, from kinds/expression.py) or
  confirm.py finds the undefined points removable
- otherwise (few valid points, or differences near rounding level)      -> undecided
Shapes are compared first; vectors written as rows or columns count as the same shape.
The verdict keeps its per-point masks: confirm.py checks a float verdict exactly where floats
cannot be trusted (`rounding` marks the points that agree to 2e-14 relative, no absolute slack).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..reading.nodes import Node, facts
from ..result import Counterexample
from .evaluate import Env, FunctionModel, shape_of

SCALAR_SAMPLES = 8  # near points, then WIDE_SAMPLES over the decades
WIDE_SAMPLES = 16
MIN_VALID = 6
ROUNDING_RTOL = 2e-14  # float agreement this close (relative only) needs no confirmation
SCAN_SAMPLES = 512  # looked through when no sample lies in the expected answer's real domain
SEEK_SPREAD = 0.1  # points drawn around the few inside a narrow domain: x (1 + u), |u| <= 0.1
MATRIX_SAMPLES = 4
MATRIX_SIZE = 3
SEED = 20240611
TIGHT_RTOL, TIGHT_ATOL = 1e-7, 1e-10
CLEAR_RTOL, CLEAR_ATOL = 1e-4, 1e-8

_ENVS: dict[tuple[int, int, bool], Env] = {}


@dataclass(frozen=True, slots=True)
class SampleVerdict:
    status: str  # equal | different | undecided | shape
    sample: int | None = None  # index of a differing sample
    answer_shape: tuple[int, ...] | None = None
    expected_shape: tuple[int, ...] | None = None
    env: Env | None = None  # the sampling environment the verdict was reached in
    example: Counterexample | None = None  # a certified counterexample, when one is known
    path: str = "float"  # float | exact | precise: which check decided (confirm.py)
    points: PointMasks | None = None  # per-point facts of a float comparison
    # A "different" verdict whose difference was certified (confirm.py) at the random `sample`,
    # or at `nice`, a hand-checkable point (counterexample.nice_difference: environment, index,
    # both formulas' values there).
    certified: bool = False
    nice: tuple | None = None
    shown: tuple[str, str] | None = None  # multi-precision values at `sample`, when certified
    # The verdict on the first samples, when this one was taken where both formulas are real
    # (kinds/expression.py: `_on_the_shared_domain`): its points show where only one is.
    first: SampleVerdict | None = None


class PointMasks:
    """Per sample point (bool arrays of length k): both values valid; a clear difference; tight
    agreement; exactly one of the two undefined (not a real number) where the other is defined.
    On demand (confirm.py):
    agreement at rounding level, and the relative difference."""

    __slots__ = ("valid", "clear", "tight", "undefined", "_diff", "_scale")

    def __init__(self, valid, clear, tight, undefined, diff, scale) -> None:
        self.valid, self.clear, self.tight, self.undefined = valid, clear, tight, undefined
        self._diff, self._scale = diff, scale

    @property
    def rounding(self) -> np.ndarray:
        with np.errstate(all="ignore"):
            return (self._diff <= ROUNDING_RTOL * self._scale).all(axis=1) & self.valid

    @property
    def relative(self) -> np.ndarray:
        with np.errstate(all="ignore"):
            ratio = self._diff / np.where(self._scale > 0, self._scale, 1)
        return np.where(self.valid, ratio.max(axis=1), 0.0)

    def rounding_level(self, near: int) -> bool:
        """At least two of the first `near` points are valid, and all of those agree at rounding
        level (confirm.py: such an agreement needs no confirmation)."""
        valid = self.valid[:near]
        count = np.count_nonzero(valid)
        if count < 2:
            return False
        # every entry at rounding level (comparisons with inf and NaN raise no float warning);
        # counted, as in decide(): every valid point is ok
        ok = np.logical_and.reduce(self._diff[:near] <= ROUNDING_RTOL * self._scale[:near],
                                   axis=1)
        return np.count_nonzero(ok & valid) == count

    @property
    def domains_differ(self) -> bool:
        """Whether at some point exactly one of the two is real: a right verdict says where
        (values/domain_note.py)."""
        return bool(np.count_nonzero(self.undefined))

    def too_little_shared(self) -> bool:
        """Real on different sets that share too few points to compare: fewer valid points than
        `enough_valid` asks for, and a point where exactly one of the two is real."""
        return not enough_valid(int(np.count_nonzero(self.valid)), len(self.valid)) and \
            self.domains_differ

    def decide(self, dropped: np.ndarray | None = None) -> str:
        """equal | different | undecided, ignoring the `dropped` points."""
        if dropped is None:
            valid, clear, undefined = self.valid, self.clear, self.undefined
        else:
            keep = ~dropped
            valid, clear, undefined = self.valid & keep, self.clear & keep, self.undefined & keep
        # count_nonzero: the cheapest numpy reduction on these few points (this runs per answer)
        if np.count_nonzero(clear):
            return "different"
        valid_points = np.count_nonzero(valid)
        if enough_valid(valid_points, len(valid)):
            # tight[valid].all(), counted: every valid point is tight
            return "equal" if np.count_nonzero(self.tight & valid) == valid_points \
                else "undecided"
        # too few points where both are real: a difference in real domain when one side is
        # real where the other is not (the shared domain is too small to compare on)
        return "different" if np.count_nonzero(undefined) else "undecided"

    def differing(self) -> list[int]:
        """Points that differ: clear differences; when the two share too few points to compare,
        the points where only one of them is real."""
        clear = np.flatnonzero(self.clear).tolist()
        if self.too_little_shared():
            return clear + np.flatnonzero(self.undefined & ~self.clear).tolist()
        return clear


def enough_valid(valid: int, k: int) -> bool:
    return valid >= min(MIN_VALID, (k + 1) // 2)


def uses_matrices(*nodes: Node) -> bool:
    return any(facts(node).matrices for node in nodes)


def sampling_env(matrix_mode: bool, vectors: bool = False) -> Env:
    """Shared, deterministic environment: values depend only on the names (thread-safe to share).

    With `vectors`, lowercase matrix symbols (g, x) are n x 1 columns so that `g^T W` and `W g`
    have different shapes; the caller falls back to all-square when the expected answer does not
    fit that reading (e.g. a lowercase name used as a square matrix).
    """
    k = MATRIX_SAMPLES if matrix_mode else SCALAR_SAMPLES + WIDE_SAMPLES
    key = (k, MATRIX_SIZE, vectors and matrix_mode)
    if key not in _ENVS:
        _ENVS[key] = Env(k=k, n=MATRIX_SIZE, seed=SEED, column_vectors=key[2],
                         wide=0 if matrix_mode else WIDE_SAMPLES)
    return _ENVS[key]


def domain_env(env: Env, expected_value: np.ndarray, k: int) -> Env | None:
    """k points inside a narrow real domain. When the expected answer is a real number at some
    but fewer than MIN_VALID of `env`'s points (`(x - 2)^(3k)`, `log(x - 0.5) + log(0.6 - x)`
    after a scan), k new points around those (`around`). None when no point is valid or enough
    are."""
    return around(env, _real_and_finite(expected_value.reshape(env.k, -1)), k)


def common_domain_env(env: Env, answer_value: np.ndarray, expected_value: np.ndarray,
                      k: int) -> Env | None:
    """k points inside the part of the domain where both formulas are real, when they share
    some but fewer than MIN_VALID of `env`'s points (`1 + 0 log(x - 1000)` for 1: x > 1000)."""
    both = _real_and_finite(answer_value.reshape(env.k, -1)) & \
        _real_and_finite(expected_value.reshape(env.k, -1))
    return around(env, both, k)


def around(env: Env, ok: np.ndarray, k: int) -> Env | None:
    """k points around the points of `env` marked `ok`: each keeps one of them, the others move
    every value by a factor 1 + u, |u| <= SEEK_SPREAD (random functions are kept with their
    point). None when no point is marked or enough are."""
    inside = np.flatnonzero(ok)
    if len(inside) == 0 or (env.k == k and enough_valid(len(inside), k)):
        return None
    picks = inside[np.arange(k) % len(inside)]
    rng = np.random.default_rng([SEED, len(inside)])
    seek = Env(k=k, n=env.n, seed=env.seed, column_vectors=env.column_vectors,
               positive=env.positive, nonnegative=env.nonnegative)
    kept = min(len(inside), k)
    for name, values in env.symbols.items():
        factor = 1 + rng.uniform(-SEEK_SPREAD, SEEK_SPREAD, k)
        factor[:kept] = 1.0  # the points already inside stay as they are
        seek.symbols[name] = (values[picks].real * factor).astype(complex)
    for key, model in env.functions.items():
        seek.functions[key] = FunctionModel({c: v[picks] for c, v in model.coef.items()})
    return seek


def spread_out(env: Env, valid: np.ndarray, names: set[str]) -> bool:
    """Whether the valid points are more than a few isolated points: every one of `names` takes
    as many different values at them as `enough_valid` asks for (a shared domain that is the
    single point x = 0, which the search around it keeps finding, is not enough to compare on)."""
    for name in names:
        values = env.symbol(name)
        if not enough_valid(len(np.unique(values[valid].real)), len(valid)):
            return False
    return True


def scan_env(names: set[str]) -> Env:
    """SCAN_SAMPLES points to look for a real domain the k samples all missed: half uniform in
    (-4, 4), half over the decades 0.001..1e5 with either sign."""
    scan = Env(k=SCAN_SAMPLES, n=MATRIX_SIZE, seed=SEED + 1)
    rng = np.random.default_rng([SEED, 11])
    half = SCAN_SAMPLES // 2
    for name in sorted(names):
        near = rng.uniform(-4, 4, half)
        far = np.where(rng.random(half) < 0.5, -1.0, 1.0) * 10.0 ** rng.uniform(-3, 5, half)
        scan.symbols[name] = np.concatenate([near, far]).astype(complex)
    return scan


def real_and_finite(value: np.ndarray) -> np.ndarray:
    """Per sample point of sampled values (k first): whether every entry is a finite real."""
    return _real_and_finite(value.reshape(value.shape[0], -1))


def valid_count(value: np.ndarray) -> int:
    return int(real_and_finite(value).sum())


def canonical_shape(value: np.ndarray, flatten_vectors: bool = True) -> tuple[int, ...]:
    """() for a scalar or 1x1, (m,) for a row or column vector (when flattened), else (r, c)."""
    return canonical(shape_of(value), flatten_vectors)


def canonical(shape: tuple[int, ...], flatten_vectors: bool = True) -> tuple[int, ...]:
    """canonical_shape of a (rows, cols) shape: numeric answers know it without evaluating."""
    if shape == (1, 1):
        return ()
    if flatten_vectors and len(shape) == 2 and 1 in shape:
        return (shape[0] * shape[1],)
    return shape


def compare_values(answer: np.ndarray, expected: np.ndarray, flatten_vectors: bool = True,
                   env: Env | None = None) -> SampleVerdict:
    """`flatten_vectors`: a row and a column with the same entries count as the same vector
    (typed literals); with matrix symbols a row g^T differs from a column g."""
    if answer.ndim == 1 and expected.ndim == 1:  # two scalars, the common case
        return _compare_scalars(answer, expected, env)
    a_shape = canonical_shape(answer, flatten_vectors)
    e_shape = canonical_shape(expected, flatten_vectors)
    if a_shape != e_shape:
        return SampleVerdict("shape", answer_shape=a_shape, expected_shape=e_shape, env=env)
    k = answer.shape[0]
    a = answer.reshape(k, -1)
    b = expected.reshape(k, -1)
    if a.shape != b.shape:  # 1x1 matrix vs scalar, or row vs column when flattening
        a, b = a.reshape(k, -1), b.reshape(k, -1)
    if _finite_reals(a, b):
        return _compare_finite_reals(a.real, b.real, env)
    answer_ok, expected_ok = _real_and_finite(a), _real_and_finite(b)
    valid = answer_ok & expected_ok
    if valid.all():  # the common case: every value finite
        diff = np.abs(a - b)
    else:  # inf - inf (both blow up at one point, 1/(x+1) at x = -1) is no number: skip it
        finite = np.isfinite(a) & np.isfinite(b)
        diff = np.abs(np.subtract(a, b, out=np.zeros_like(a), where=finite))
    scale = np.maximum(np.abs(a), np.abs(b))
    with np.errstate(all="ignore"):
        clear = (diff > CLEAR_RTOL * scale + CLEAR_ATOL).any(axis=1) & valid
        tight = (diff <= TIGHT_RTOL * scale + TIGHT_ATOL).all(axis=1) & valid
    undefined = _domain_difference(answer_ok, expected_ok)
    return _verdict(PointMasks(valid, clear, tight, undefined, diff, scale), env)


def _compare_scalars(answer: np.ndarray, expected: np.ndarray, env: Env | None) -> SampleVerdict:
    """compare_values of two scalar formulas (values of shape (k,)): the same masks, with the
    per-point reductions over one column left out (a few numpy calls fewer per answer)."""
    if _finite_reals(answer, expected):
        return _compare_finite_reals(answer.real, expected.real, env)
    answer_finite, expected_finite = np.isfinite(answer), np.isfinite(expected)
    answer_ok = _real_where(answer, answer_finite)
    expected_ok = _real_where(expected, expected_finite)
    valid = answer_ok & expected_ok
    if np.count_nonzero(valid) == len(valid):  # every value finite
        diff = np.abs(answer - expected)
    else:  # inf - inf is no number: skip it (as in compare_values)
        finite = answer_finite & expected_finite
        diff = np.abs(np.subtract(answer, expected, out=np.zeros_like(answer), where=finite))
    scale = np.maximum(np.abs(answer), np.abs(expected))
    # no float warnings to silence: products and comparisons of inf and NaN raise none
    clear = (diff > CLEAR_RTOL * scale + CLEAR_ATOL) & valid
    tight = (diff <= TIGHT_RTOL * scale + TIGHT_ATOL) & valid
    undefined = _domain_difference(answer_ok, expected_ok)
    # PointMasks keeps (k, entries) arrays: one column here
    return _verdict(PointMasks(valid, clear, tight, undefined, diff[:, None], scale[:, None]), env)


def _finite_reals(answer: np.ndarray, expected: np.ndarray) -> bool:
    """Whether every value of both is a finite real number (the commonest case)."""
    if np.count_nonzero(answer.imag) or np.count_nonzero(expected.imag):
        return False
    size = answer.size
    return np.count_nonzero(np.isfinite(answer.real)) == size and \
        np.count_nonzero(np.isfinite(expected.real)) == size


def _compare_finite_reals(answer: np.ndarray, expected: np.ndarray,
                          env: Env | None) -> SampleVerdict:
    """compare_values where every value of both is a finite real number (values of shape (k,)
    or (k, entries)): the same masks, from the real parts (|x + 0i| is |x|
    exactly: the complex difference of two real values has the real difference's modulus),
    every point valid, none where only one side is real. Fewer numpy calls: this runs for
    nearly every answer."""
    diff = np.abs(answer - expected)  # 1e308 - (-1e308) is infinite: a clear difference
    scale = np.maximum(np.abs(answer), np.abs(expected))
    clear = diff > CLEAR_RTOL * scale + CLEAR_ATOL
    tight = diff <= TIGHT_RTOL * scale + TIGHT_ATOL
    if diff.ndim == 2:  # per point: some entry differs clearly, every entry is tight
        clear, tight = np.logical_or.reduce(clear, axis=1), np.logical_and.reduce(tight, axis=1)
    else:  # PointMasks keeps (k, entries) arrays: one column
        diff, scale = diff[:, None], scale[:, None]
    valid = np.ones(len(clear), dtype=bool)
    undefined = np.zeros(len(clear), dtype=bool)
    return _verdict(PointMasks(valid, clear, tight, undefined, diff, scale), env)


def _domain_difference(answer_ok: np.ndarray, expected_ok: np.ndarray) -> np.ndarray:
    """The points where one side is real and the other is not. Where the expected answer is
    real at no point at all, there is no real domain to compare: nothing is counted there."""
    if not np.count_nonzero(expected_ok):
        return expected_ok
    return expected_ok != answer_ok


def _verdict(points: PointMasks, env: Env | None) -> SampleVerdict:
    status = points.decide()
    if status == "different":  # prefer a point where both are defined: an easier counterexample
        return SampleVerdict(status, sample=points.differing()[0], points=points, env=env)
    return SampleVerdict(status, points=points, env=env)


def _real_where(values: np.ndarray, finite: np.ndarray) -> np.ndarray:
    """_real_and_finite of scalar values (shape (k,)), without the reduction over entries, given
    np.isfinite(values)."""
    imag = values.imag
    if not np.count_nonzero(imag):  # every value real (NaN counts as nonzero, as in any())
        return finite
    # abs, sums, products and comparisons of inf and NaN raise no float warning
    return finite & (np.abs(imag) <= 1e-9 * (1 + np.abs(values.real)))


def _real_and_finite(values: np.ndarray) -> np.ndarray:
    """Inputs are real, so a point where a formula turns complex is outside its real domain."""
    imag = values.imag
    if not imag.any():  # the common case: every value real (a few numpy calls instead of ten)
        return np.isfinite(values.real).all(axis=1)
    with np.errstate(all="ignore"):
        real = np.abs(imag) <= 1e-9 * (1 + np.abs(values.real))
    return (np.isfinite(values) & real).all(axis=1)

