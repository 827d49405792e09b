"""Numeric evaluation of the tree with numpy, vectorized over k sample points at once.

A value is a complex array: shape (k,) for a scalar, (k, rows, cols) for a matrix. Declared matrix
symbols are random dense n x n matrices (so A B and B A differ), or n x 1 columns for lowercase
names such as g when the expected answer reads as such (see decide.py); undefined functions are random
smooth functions whose derivatives are known in closed form:
    F(t) = a sin(b t + c) + h exp(g t) + p2 t^2 + p3 t^3.
Every value of a name is drawn from a generator seeded by that name, so the expected answer and
the learner's answer always see the same values and the expected values can be cached.
"""

from __future__ import annotations

import math
import threading
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from ..errors import CannotDecide, EvalError, GraderError
from ..reading.constant import binomial_of, constant_value, factorial_of
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
    Moment,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    Transpose,
    is_constant,
    walk,
)
from .differentiate import expand_derivatives

MAX_MATRIX_POWER = 8
WIDE_LOW, WIDE_HIGH = -3.0, 5.0  # decades of the wide sample points: 0.001 to 100,000
FUNCTION_TERMS = ("a", "b", "c", "h", "g", "p2", "p3")


@dataclass
class FunctionModel:
    """Coefficient arrays of shape (k,) for F(t) = a sin(bt+c) + h exp(gt) + p2 t^2 + p3 t^3."""

    coef: dict[str, np.ndarray]
    description: tuple[str, ...] = ()  # per sample, for counterexamples ("t^2", "sin(t)")

    def value(self, t: np.ndarray, order: int) -> np.ndarray:
        """F^(order)(t), the coefficients broadcast over t's trailing axes (matrices). Only the
        terms that survive the derivative are computed (this runs for every sampled F)."""
        c = self.coef
        if t.ndim > 1:
            c = {k: v.reshape(v.shape + (1,) * (t.ndim - 1)) for k, v in c.items()}
        a, b, h, g = c["a"], c["b"], c["h"], c["g"]
        if order:  # b^0 = g^0 = 1: the undifferentiated F needs neither power
            a, h = a * b ** order, h * g ** order
        result = a * np.sin(b * t + c["c"] + order * math.pi / 2) + h * np.exp(g * t)
        if order < 3:
            square = t * t if order == 0 else 2 * t if order == 1 else 2 + 0 * t
            result = result + c["p2"] * square
        if order < 4:
            cube = (t ** 3 if order == 0 else 3 * t * t if order == 1 else 6 * t if order == 2
                    else 6 + 0 * t)
            result = result + c["p3"] * cube
        return result


@dataclass
class Env:
    """Values for every name at k sample points; matrices are n x n."""

    k: int
    n: int
    seed: int
    column_vectors: bool = False  # lowercase matrix names (g, x) are n x 1 columns
    wide: int = 0  # the last `wide` of the k points spread over decades (see symbol)
    symbols: dict[str, np.ndarray] = field(default_factory=dict)
    matrices: dict[str, np.ndarray] = field(default_factory=dict)
    functions: dict[str, FunctionModel] = field(default_factory=dict)
    # Indexed families (reading/families.py): recursions by family name, and the members they
    # gave, by (family, index), each an array over all k points (values/indexed.py builds such
    # environments; the shared ones have no relations).
    relations: dict = field(default_factory=dict)
    members: dict = field(default_factory=dict)
    # (family, index per point): the member whose value is moved by MEMBER_STEP * i, for a
    # derivative by that member (_member_derivative)
    perturbed: tuple | None = None
    # Declared vectors (issue 25; values/shapes.py): (rows, cols) by name (a vector function's
    # (output, input); a family's members take the family's), and vectors defined by a relation.
    sizes: dict = field(default_factory=dict)
    definitions: dict = field(default_factory=dict)
    # Declared domains (values/domains.py): names whose values are > 0, and >= 0. A limit taken
    # at a point of such a name stays inside its domain (precise.py: one-sided at 0).
    positive: frozenset = frozenset()
    nonnegative: frozenset = frozenset()

    def bound(self, name: str, values: np.ndarray) -> Env:
        """This environment with the index `name` of a sum or product set to `values` (the
        caches of drawn matrices, functions and members are shared: they depend on names only)."""
        return replace(self, symbols={**self.symbols, name: values})

    def rng(self, name: str) -> np.random.Generator:
        return np.random.default_rng([zlib.crc32(name.encode()), self.seed])

    def symbol(self, name: str) -> np.ndarray:
        """Near points: |x| in (0.2, 2), a quarter of them negative. Wide points: magnitudes
        10^u, u stratified over [WIDE_LOW, WIDE_HIGH] (one draw per stratum, in a random order
        per name so that names meet at different scales), either sign with equal chance:
        differences that live below x = -40 or above x = 1000 are seen."""
        if name not in self.symbols:
            near = self.k - self.wide
            magnitude = self.rng(name).uniform(0.2, 2.0, near)
            signs = np.where(self.rng(name + "#sign").random(near) < 0.25, -1.0, 1.0)
            values = magnitude * signs
            if self.wide:
                r = self.rng(name + "#wide")
                strata = (r.permutation(self.wide) + r.random(self.wide)) / self.wide
                exponents = WIDE_LOW + (WIDE_HIGH - WIDE_LOW) * strata
                wide_signs = np.where(r.random(self.wide) < 0.5, -1.0, 1.0)
                values = np.concatenate([values, wide_signs * 10.0 ** exponents])
            self.symbols[name] = values.astype(complex)
        return self.symbols[name]

    def size_of(self, name: str) -> tuple[int, int] | None:
        """(rows, cols) of a sized vector, matrix or vector function; a family's member (x_3,
        F_2) takes its family's."""
        return self.sizes.get(name) or self.sizes.get(name.partition("_")[0])

    def matrix(self, name: str) -> np.ndarray:
        if name not in self.matrices:
            shape = self.size_of(name)
            if shape is None:
                shape = (self.n, 1 if self.is_vector(name) else self.n)
            self.matrices[name] = self.rng(name).normal(0, 1, (self.k, *shape)) + 0j
        return self.matrices[name]

    def is_vector(self, name: str) -> bool:
        return self.column_vectors and name[:1].islower()

    def function(self, name: str, arg_index: int = 0) -> FunctionModel:
        key = f"{name}#{arg_index}"
        if key not in self.functions:
            r = self.rng(key)
            self.functions[key] = FunctionModel({
                "a": r.uniform(0.5, 1.5, self.k), "b": r.uniform(0.5, 1.5, self.k),
                "c": r.uniform(0, 2 * math.pi, self.k), "h": r.uniform(0.2, 1.0, self.k),
                "g": r.uniform(-0.7, 0.7, self.k), "p2": r.uniform(-0.5, 0.5, self.k),
                "p3": r.uniform(-0.5, 0.5, self.k)})
        return self.functions[key]


# Terms of sums and products evaluated in one `evaluate` call (per thread), members computed
# from a relation, and the largest member index a relation is run to.
MAX_SERIES_EVALUATIONS = 1000  # 3 nested sums over n <= 9 take 819
MAX_RELATION_INDEX = 64
_Budget = threading.local()


def evaluate(node: Node, env: Env) -> np.ndarray:
    _Budget.terms = MAX_SERIES_EVALUATIONS
    with np.errstate(all="ignore"):
        return _eval(expand_derivatives(node), env)


def is_matrix(value: np.ndarray) -> bool:
    return value.ndim == 3


def shape_of(value: np.ndarray) -> tuple[int, ...]:
    return tuple(value.shape[1:])


def _eval(node: Node, env: Env) -> np.ndarray:
    rule = _EVAL.get(type(node))
    if rule is None:  # a Diff: expand_derivatives has replaced every one before this walk
        raise EvalError("cannot_evaluate")
    return rule(node, env)


# -- derivatives by a family member (∂x_L/∂x_l, nodes.by_member) ------------------------------

MEMBER_STEP = 1e-30
# Not analytic, so the complex step cannot differentiate through them.
_NOT_ANALYTIC = frozenset(("abs", "sign", "floor", "ceil", "max", "min", "cbrt"))


def _member_derivative(node: Diff, env: Env) -> np.ndarray:
    """d expr / d x_l at each point, by the complex step (Squire & Trapp 1998; Martins, Sturdza
    & Alonso 2003): x_l (the member of that point's index) is moved by MEMBER_STEP * i and the
    family's later members are run again from it through the relation, so the derivative of
    x_L carries the whole chain x_l -> x_{l+1} -> ... -> x_L. Exact to rounding for analytic
    formulas (no cancellation: the step is imaginary); formulas with |x|, sign, max are
    refused."""
    if any(type(n) in (Func, FuncN) and n.name in _NOT_ANALYTIC for n in walk(node.expr)):
        raise CannotDecide("member_derivative_not_smooth")
    family, _, subscript = node.var.partition("_")
    index, ok = _whole_values(_eval(member_index(subscript), env))
    if family in env.sizes:  # a family of vectors (issue 25): a Jacobian, column by column
        return _vector_member_derivative(node, env, family, np.where(ok, index, -1), ok)
    if any(type(n) is Member and n.family == family and n.kind != "symbol"
           for n in walk(node.expr)):
        raise CannotDecide("matrix_derivative")
    moved = replace(env, members={}, perturbed=(family, np.where(ok, index, -1)))
    base = _eval(node.expr, replace(env, perturbed=None))
    value = _eval(node.expr, moved)
    derivative = ((value - base).imag / MEMBER_STEP).astype(complex)  # values are complex
    return np.where(_broadcast_mask(ok, value), derivative, np.nan)


def _vector_member_derivative(node: Diff, env: Env, family: str, index: np.ndarray,
                               ok: np.ndarray) -> np.ndarray:
    """∂expr/∂x_l for a family of vectors: the j-th entry of x_l (the member of each point's
    own index) moved by MEMBER_STEP i, the later members run again through the relation;
    column j = Im(expr) / step (as _member_derivative, one entry at a time)."""
    columns = []
    for j in range(env.size_of(family)[0]):
        moved = replace(env, members={}, perturbed=(family, index, j))
        value = _eval(node.expr, moved)
        if is_matrix(value) and 1 not in value.shape[1:]:
            raise EvalError("jacobian_of_matrix")
        columns.append(value.reshape(env.k, -1).imag / MEMBER_STEP)
    jacobian = np.stack(columns, axis=-1).astype(complex)
    return np.where(_broadcast_mask(ok, jacobian), jacobian, np.nan)


@lru_cache(maxsize=256)
def member_index(subscript: str) -> Node:
    """The index of `x_<subscript>` as a formula (`l+1` -> l + 1)."""
    from ..reading.parser import parse  # noqa: PLC0415 - the reading stage, only for this

    try:
        return parse(subscript)[0]
    except GraderError as err:
        raise EvalError("cannot_evaluate") from err


def _add(node: Add, env: Env) -> np.ndarray:
    if env.sizes:
        return _add_vectors(node, env)
    values = [_eval(t, env) for t in node.terms]
    shapes = {shape_of(v) for v in values}
    if len(shapes) > 1:
        raise EvalError("add_shapes", shapes=" + ".join(_shape_text(v) for v in values))
    return sum(values[1:], values[0])


def _mul(node: Mul, env: Env) -> np.ndarray:
    if env.sizes:
        return _mul_vectors(node, env)
    result = _eval(node.factors[0], env)
    for f in node.factors[1:]:
        result = _multiply_values(result, _eval(f, env))
    return result


# -- vectors (issue 25): sizes from values/shapes.py ---------------------------------------------

def identity_only(node: Node) -> bool:
    """A formula whose only matrix is the identity (`I`, `2I`, `-I`): its size is the size of
    what it meets, so it is evaluated after its neighbours."""
    has_identity = False
    for n in walk(node):
        kind = type(n)
        if kind is Ident:
            has_identity = True
        elif kind in (MatSym, Apply, Member, Diff, Series, Matrix):
            return False
    return has_identity


def _sized(env: Env, n: int) -> Env:
    return env if env.n == n else replace(env, n=n)


def scalar_of_1x1(value: np.ndarray) -> np.ndarray:
    """x^T y is a 1×1 matrix, which multiplies and adds as the scalar it is."""
    return value[:, 0, 0] if value.ndim == 3 and value.shape[1:] == (1, 1) else value


def _add_vectors(node: Add, env: Env) -> np.ndarray:
    """Terms of one shape; 1×1 terms are scalars; `I` takes the size of the other terms."""
    values: list[np.ndarray | None] = [None if identity_only(t) else scalar_of_1x1(_eval(t, env))
                                       for t in node.terms]
    known = [v for v in values if v is not None]
    size = next((v.shape[1] for v in known if is_matrix(v)), env.n)
    values = [v if v is not None else _eval(t, _sized(env, size))
              for v, t in zip(values, node.terms, strict=True)]
    shapes = {shape_of(v) for v in values}
    if len(shapes) > 1:
        key = "add_vector_scalar" if () in shapes else "add_shapes"
        raise EvalError(key, shapes=" + ".join(_shape_text(v) for v in values))
    return sum(values[1:], values[0])


def _mul_vectors(node: Mul, env: Env) -> np.ndarray:
    """In order; an identity factor next to a matrix is left out (I A = A I = A), and a 1×1
    value (x^T y) multiplies as a scalar."""
    values = [None if identity_only(f) else scalar_of_1x1(_eval(f, env)) for f in node.factors]
    if any(v is not None and is_matrix(v) for v in values):
        values = [v for v in values if v is not None]
    else:
        values = [v if v is not None else _eval(f, env)
                  for v, f in zip(values, node.factors, strict=True)]
    result = values[0]
    for v in values[1:]:
        try:
            result = _multiply_values(result, v)
        except EvalError as err:
            if err.key != "mul_shapes":
                raise
            raise EvalError("vector_mul_shapes", **err.params) from None
    return result


VECTOR_HIDDEN = 4  # the hidden width of a random vector function A tanh(B x + c)


def _vector_function(name: str, value: np.ndarray, order: int, env: Env) -> np.ndarray:
    """A declared vector function F(x) = A tanh(B x + c) (A: out × h, B: h × in, c: h × 1, random
    normal), whose Jacobian is known in closed form: J_F(x) = A diag(1 - tanh²(B x + c)) B."""
    if not is_matrix(value) or value.shape[2] != 1:
        raise EvalError("vector_function_argument", name=name)
    size_in = value.shape[1]
    size_out, size_takes = env.size_of(name) or (size_in, size_in)
    if size_takes != size_in:
        raise EvalError("vector_function_argument", name=name)
    a, b, c = _drawn(env, f"{name}#vector{size_out}x{size_in}", lambda r: (
        r.normal(0, 1, (env.k, size_out, VECTOR_HIDDEN)),
        r.normal(0, 1, (env.k, VECTOR_HIDDEN, size_in)),
        r.normal(0, 1, (env.k, VECTOR_HIDDEN, 1))))
    hidden = np.tanh(np.matmul(b, value) + c)
    if order == 0:
        return np.matmul(a, hidden)
    if order == 1:
        return np.matmul(a * np.swapaxes(1 - hidden ** 2, 1, 2), b)
    raise EvalError("vector_function_order", name=name)


def _scalar_function_of_vector(name: str, value: np.ndarray, order: int,
                               env: Env) -> np.ndarray:
    """A declared scalar function of a vector (a loss L(y)): L(y) = sum_i a_i sin(b_i y_i + c_i)
    + y^T S y / 2 (S symmetric, random) of a column y, whose gradient is known in closed form:
    ∇L(y) = a ∘ b ∘ cos(b ∘ y + c) + S y. `L'(y)` is the gradient as a row (∂L/∂y)."""
    if value.shape[2] != 1:  # a row (L(y^T)) is not the column it takes
        raise EvalError("vector_function_argument", name=name)
    column = value
    n = column.shape[1]
    a, b, c, s = _drawn(env, f"{name}#loss{n}", lambda r: (
        r.uniform(0.5, 1.5, (env.k, n, 1)), r.uniform(0.5, 1.5, (env.k, n, 1)),
        r.uniform(0, 2 * math.pi, (env.k, n, 1)), _symmetric(r.normal(0, 0.5, (env.k, n, n)))))
    if order == 0:
        quadratic = np.matmul(np.swapaxes(column, 1, 2), np.matmul(s, column))[:, 0, 0] / 2
        return (a * np.sin(b * column + c)).sum(axis=(1, 2)) + quadratic
    if order == 1:
        return np.swapaxes(a * b * np.cos(b * column + c) + np.matmul(s, column), 1, 2)
    raise EvalError("vector_function_order", name=name)


def _symmetric(half: np.ndarray) -> np.ndarray:
    return half + np.swapaxes(half, 1, 2)


def _drawn(env: Env, key: str, draw) -> tuple[np.ndarray, ...]:
    """A random function's coefficients, drawn once per environment (kept with its functions:
    they depend on the name and the sizes only)."""
    if key not in env.functions:
        env.functions[key] = draw(env.rng(key))
    return env.functions[key]


JACOBIAN_STEP = 1e-30


def _vector_derivative(node: Diff, env: Env) -> np.ndarray:
    """The Jacobian of expr by the declared vector `var`, one column per entry of var, by the
    complex step (Squire & Trapp 1998): var's j-th entry moved by JACOBIAN_STEP i, the vectors
    defined from it computed again, column j = Im(expr) / step. Exact to rounding for analytic
    formulas (no cancellation); with |x|, sign, max, min (not analytic) it is not decided.
    A scalar's Jacobian is a row; a row vector's is read as its column's."""
    if node.order != 1 or any(type(n) is Diff and n.vector for n in walk(node.expr)):
        raise EvalError("vector_derivative_order")
    if any(type(n) in (Func, FuncN) and n.name in _NOT_ANALYTIC for n in walk(node.expr)):
        raise CannotDecide("member_derivative_not_smooth")
    x = _eval(MatSym(node.var), env)
    if not is_matrix(x) or x.shape[2] != 1:
        raise EvalError("vector_derivative_by", var=node.var)
    kept = {name: v for name, v in env.matrices.items() if name not in env.definitions}
    columns = []
    for j in range(x.shape[1]):
        moved = x.copy()
        moved[:, j, 0] += 1j * JACOBIAN_STEP
        value = _eval(node.expr, replace(env, matrices={**kept, node.var: moved}, members={}))
        if is_matrix(value) and 1 not in value.shape[1:]:
            raise EvalError("jacobian_of_matrix")
        columns.append(value.reshape(env.k, -1).imag / JACOBIAN_STEP)
    return np.stack(columns, axis=-1).astype(complex)


def _derivative(node: Diff, env: Env) -> np.ndarray:
    return _vector_derivative(node, env) if node.vector else _member_derivative(node, env)


def _matsym(node: MatSym, env: Env) -> np.ndarray:
    name = node.name
    if name in env.definitions and name not in env.matrices:
        value = _eval(env.definitions[name], env)
        if not is_matrix(value) or value.shape[1:] != env.sizes.get(name, value.shape[1:]):
            raise EvalError("definition_shape", name=name)
        env.matrices[name] = value
    return env.matrix(name)


def _multiply_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if not is_matrix(a) and not is_matrix(b):
        return a * b
    if not is_matrix(a):
        return a[:, None, None] * b
    if not is_matrix(b):
        return a * b[:, None, None]
    if a.shape[2] != b.shape[1]:
        raise EvalError("mul_shapes", left=_shape_text(a), right=_shape_text(b))
    return np.matmul(a, b)


def _div(node: Div, env: Env) -> np.ndarray:
    num, den = _eval(node.num, env), _eval(node.den, env)
    if env.sizes:
        num, den = scalar_of_1x1(num), scalar_of_1x1(den)
    if is_matrix(den):
        raise EvalError("matrix_division")
    return num / (den[:, None, None] if is_matrix(num) else den)


def _pow(node: Pow, env: Env) -> np.ndarray:
    base = _eval(node.base, env)
    if env.sizes:
        base = scalar_of_1x1(base)
    if not is_matrix(base):
        exponent = _eval(node.exp, env)
        if is_matrix(exponent):
            raise EvalError("matrix_exponent")
        return _real_power(base, exponent)
    k = constant_value(node.exp) if is_constant(node.exp) else None
    if k is None or not float(k).is_integer() or abs(k) > MAX_MATRIX_POWER:
        raise EvalError("matrix_power", limit=MAX_MATRIX_POWER)
    if base.shape[1] != base.shape[2]:
        raise EvalError("matrix_power_square", shape=_shape_text(base))
    if k < 0:
        try:
            base = np.linalg.inv(base)
        except np.linalg.LinAlgError as err:
            raise EvalError("singular_matrix") from err
    return np.linalg.matrix_power(base, int(abs(k)))


def _apply(node: Apply, env: Env, values: list[np.ndarray] | None = None) -> np.ndarray:
    name, order = node.name, node.order
    if values is None:
        values = [_eval(a, env) for a in node.args]
    if env.sizes and len(values) == 1 and (env.size_of(name) or is_matrix(values[0])):
        if env.size_of(name):  # a declared vector function (or a member of a family of them)
            return _vector_function(name, values[0], order, env)
        return _scalar_function_of_vector(name, values[0], order, env)
    if len(values) == 1:
        return env.function(name).value(values[0], order)
    if len({v.shape for v in values}) != 1:
        raise EvalError("function_argument_shapes", name=name)
    # F(t1, ..., tm) = sum_i F_i(t_i) + p prod_i t_i: depends on every argument and their mix.
    mix = env.function(name, len(values)).coef["a"]
    by_argument = Counter(node.partials)
    if not by_argument:
        total = sum(env.function(name, i).value(v, 0) for i, v in enumerate(values))
    elif len(by_argument) == 1:  # d^m/dt_i^m: F_i^(m)(t_i), and p prod_{j != i} t_j when m = 1
        ((i, m),) = by_argument.items()
        total = env.function(name, i).value(values[i], m)
    else:  # mixed partials: the sum's terms depend on one argument each, so they drop out
        total = 0 * values[0]
    if any(m > 1 for m in by_argument.values()):
        return total  # the mix is linear in each argument
    product = None
    for i, v in enumerate(values):
        if i not in by_argument:
            product = v if product is None else product * v
    if product is None:  # differentiated by every argument once: the mix's coefficient alone
        product = 1 + 0 * values[0]
    return total + mix.reshape(mix.shape + (1,) * (product.ndim - 1)) * product


def _func_n(node: FuncN, env: Env) -> np.ndarray:
    values = [_eval(a, env) for a in node.args]
    if any(is_matrix(v) for v in values):
        raise EvalError("function_argument_shapes", name=node.name)
    if node.name == "log":  # log(x, base), both logarithms real (log(1)/log(-1) is undefined)
        log = _FUNCS["log"]
        return log(values[0]) / log(values[1])
    if node.name == "binomial":
        return _real_pointwise(binomial_of, *values)
    if node.name == "atan2":  # real arguments only; no value at (0, 0)
        y, x = values
        ok = (np.abs(y.imag) <= 1e-12 * (1 + np.abs(y.real))) \
            & (np.abs(x.imag) <= 1e-12 * (1 + np.abs(x.real))) & ((y.real != 0) | (x.real != 0))
        return np.where(ok, np.arctan2(y.real, x.real), np.nan).astype(complex)
    result = values[0]
    for v in values[1:]:  # real arguments: compare real parts; a complex one is caught later
        keep = result.real >= v.real if node.name == "max" else result.real <= v.real
        result = np.where(keep, result, v)
    return result


def _factorial(node: Factorial, env: Env) -> np.ndarray:
    value = _eval(node.arg, env)
    if is_matrix(value):
        raise EvalError("function_argument_shapes", name="factorial")
    return _real_pointwise(factorial_of, value)


def _real_pointwise(f, *values: np.ndarray) -> np.ndarray:
    """f of real arguments, point by point (math.gamma has no numpy form): NaN where an argument
    is not real or f is undefined (a pole), inf where it overflows."""
    out = np.full(values[0].shape, np.nan, dtype=complex)
    ok = np.ones(values[0].shape, dtype=bool)
    for v in values:
        ok &= np.isfinite(v) & (np.abs(v.imag) <= 1e-12 * (1 + np.abs(v.real)))
    for j in np.flatnonzero(ok):
        try:
            out[j] = f(*(float(v.real[j]) for v in values))
        except ValueError:
            continue
        except OverflowError:
            out[j] = np.inf
    return out


def _transpose(node: Transpose, env: Env) -> np.ndarray:
    value = _eval(node.arg, env)
    return np.swapaxes(value, 1, 2) if is_matrix(value) else value


def _matrix(node: Matrix, env: Env) -> np.ndarray:
    entries = [[_eval(e, env) for e in row] for row in node.rows]
    if any(is_matrix(e) for row in entries for e in row):
        raise EvalError("nested_matrix")
    return np.stack([np.stack(row, axis=-1) for row in entries], axis=-2)


# -- sums, products and family members (reading/series.py, reading/families.py) -----------------

def _whole_values(value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(integers, ok): a bound or index at each point, and where it is a real whole number."""
    if is_matrix(value):
        raise EvalError("function_argument_shapes", name="sum")
    real = value.real
    ok = np.isfinite(value) & (np.abs(value.imag) <= 1e-9) & (np.abs(real) < 2 ** 31)
    rounded = np.round(np.where(ok, real, 0.0))
    ok &= np.abs(real - rounded) <= 1e-9 * (1 + np.abs(real))
    return rounded.astype(np.int64), ok


def _series(node: Series, env: Env) -> np.ndarray:
    """Terms in the order the index runs (`descending`: downwards); at each point only that
    point's own terms count; a range that runs past its end is empty (0 for a sum, 1 or I for a
    product). Points whose bounds are not whole numbers are undefined."""
    lower, lower_ok = _whole_values(_eval(node.lower, env))
    upper, upper_ok = _whole_values(_eval(node.upper, env))
    step = -1 if node.descending else 1
    count = np.maximum((lower - upper + 1) if node.descending else (upper - lower + 1), 0)
    count = np.where(lower_ok & upper_ok, count, 0)
    most = max(int(count.max(initial=0)), 1)  # one term at least: the body's shape
    _Budget.terms = getattr(_Budget, "terms", MAX_SERIES_EVALUATIONS) - most
    if _Budget.terms < 0:
        raise EvalError("series_terms_exceeded", limit=MAX_SERIES_EVALUATIONS)
    total = None
    for j in range(most):
        term = _eval(node.body, env.bound(node.var, (lower + step * j).astype(complex)))
        active = j < count
        total = _accumulate(node.op, total, term, active)
    return np.where(_broadcast_mask(lower_ok & upper_ok, total), total, np.nan)


def _broadcast_mask(mask: np.ndarray, like: np.ndarray) -> np.ndarray:
    return mask.reshape(mask.shape + (1,) * (like.ndim - 1))


def _accumulate(op: str, total: np.ndarray | None, term: np.ndarray,
                active: np.ndarray) -> np.ndarray:
    mask = _broadcast_mask(active, term)
    if op == "sum":
        term = np.where(mask, term, 0)
        return term if total is None else total + term
    if not is_matrix(term):
        term = np.where(mask, term, 1)
        return term if total is None else _multiply_values(total, term)
    if term.shape[1] != term.shape[2]:
        raise EvalError("matrix_power_square", shape=_shape_text(term))
    identity = np.broadcast_to(np.eye(term.shape[1], dtype=complex), term.shape)
    term = np.where(mask, term, identity)
    return term if total is None else _multiply_values(total, term)  # in the order the index runs


def _member(node: Member, env: Env) -> np.ndarray:
    """Each point takes the member its own index names: x_{l+1} at l = 2 is x_3."""
    index, ok = _whole_values(_eval(node.index, env))
    args = [_eval(a, env) for a in node.args]
    if node.kind == "function" and len(args) == 1 and not is_matrix(args[0]):
        return _function_members(node, index, ok, args[0], env)
    result = None
    for m in np.unique(index[ok]).tolist():
        value = _member_value(node, int(m), args, env)
        if result is None:
            result = np.full(value.shape, np.nan, dtype=complex)
        at = _broadcast_mask((index == m) & ok, value)
        result = np.where(at, value, result)
    if result is None:  # no point has a whole index: undefined everywhere
        return np.full(env.k, np.nan, dtype=complex)
    return result


def _function_members(node: Member, index: np.ndarray, ok: np.ndarray, arg: np.ndarray,
                      env: Env) -> np.ndarray:
    """F_i(t) at every point, each with its own member's coefficients: one evaluation of the
    random function (evaluate.FunctionModel) whatever the number of distinct indices."""
    if not ok.any():
        return np.full(arg.shape, np.nan, dtype=complex)
    low, high = int(index[ok].min()), int(index[ok].max())
    table = _coefficient_table(node.family, low, high, env)
    rows, points = np.where(ok, index, low) - low, np.arange(env.k)
    value = FunctionModel({t: table[t][rows, points] for t in FUNCTION_TERMS}).value(
        arg, node.order)
    return np.where(_broadcast_mask(ok, value), value, np.nan)


def _coefficient_table(family: str, low: int, high: int, env: Env) -> dict[str, np.ndarray]:
    """Per term, the coefficients of the members low..high (rows) at every point (columns);
    kept with the environment's members."""
    key = (family, "coefficients", low, high)
    if key not in env.members:
        models = [env.function(f"{family}_{m}") for m in range(low, high + 1)]
        env.members[key] = {t: np.stack([model.coef[t] for model in models])
                            for t in FUNCTION_TERMS}
    return env.members[key]


def _member_value(node: Member, m: int, args: list[np.ndarray], env: Env) -> np.ndarray:
    """The member of index m at every point."""
    name = f"{node.family}_{m}"
    if node.kind == "function":
        return _apply(Apply(name, node.args, node.order), env, args)
    relation = env.relations.get(node.family)
    if relation is None or m < relation.first_index:
        if relation is not None and m < 0:  # before the first member
            size = env.size_of(node.family)  # a family of vectors: undefined vectors
            return np.full((env.k, *size) if size else env.k, np.nan, dtype=complex)
        if node.kind == "matrix":  # (a family of vectors too: moved when differentiated by)
            return _moved(node.family, m, env.matrix(name), env)
        drawn = env.members.get(name)  # kept with the members: a bound index copies `symbols`
        if drawn is None:
            drawn = env.members[name] = env.symbol(name)
        return _moved(node.family, m, drawn, env)
    key = (node.family, m)
    if key not in env.members:
        if m > MAX_RELATION_INDEX:
            raise EvalError("relation_too_far", limit=MAX_RELATION_INDEX)
        at = np.full(env.k, m - relation.offset, dtype=complex)
        env.members[key] = _moved(node.family, m, _eval(relation.rhs, env.bound(relation.var, at)),
                                  env)
    return env.members[key]


def _moved(family: str, m: int, value: np.ndarray, env: Env) -> np.ndarray:
    """The member's value, moved by the complex step where it is the one differentiated by."""
    if env.perturbed is None or env.perturbed[0] != family:
        return value
    hit = env.perturbed[1] == m
    if not hit.any():
        return value
    step = 1j * MEMBER_STEP
    if len(env.perturbed) > 2:  # a vector member: only its entry perturbed[2] moves
        step = np.zeros(value.shape[1:], dtype=complex)
        step[env.perturbed[2], 0] = 1j * MEMBER_STEP
    return value + step * _broadcast_mask(hit, value)


def _scalar(env: Env, value: float) -> np.ndarray:
    return np.full(env.k, value, dtype=complex)


def _moment(node: Moment, env: Env) -> np.ndarray:
    """Moments are decided over distributions (values/moments.py), never at sampled numbers."""
    raise CannotDecide("moment_by_sampling")


# One rule per node type (Diff has none: derivatives are expanded before evaluation).
_EVAL = {
    Num: lambda n, env: _scalar(env, n.value),
    Const: lambda n, env: _scalar(env, math.e if n.name == "e" else math.pi),
    Sym: lambda n, env: env.symbol(n.name),
    MatSym: _matsym,
    Ident: lambda n, env: np.broadcast_to(np.eye(env.n, dtype=complex), (env.k, env.n, env.n)),
    Neg: lambda n, env: -_eval(n.arg, env),
    Add: _add,
    Mul: _mul,
    Div: _div,
    Pow: _pow,
    Func: lambda n, env: _FUNCS[n.name](_eval(n.arg, env)),
    FuncN: _func_n,
    Apply: _apply,
    Transpose: _transpose,
    Factorial: lambda n, env: _factorial(n, env),
    Matrix: _matrix,
    Series: _series,
    Member: _member,
    Diff: _derivative,  # by a member or a declared vector: left by the expansion
    Moment: _moment,
}


def _shape_text(value: np.ndarray) -> str:
    return "×".join(map(str, shape_of(value))) if is_matrix(value) else "1×1"


def _real_power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """base^exponent in the reals: a negative base takes whole exponents only ((-8)^(1/3) is not
    real, as on paper; cbrt(-8) is -2), so a complex intermediate never cancels back to a real
    value (sqrt(x)^2 is undefined at x = -2, not -2)."""
    value = np.power(base, exponent)
    whole = exponent.real == np.round(exponent.real)
    if whole.all() if np.ndim(whole) else whole:
        return value
    return np.where((base.real < 0) & ~whole, np.nan, value)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _real_function(f, inside=None, analytic=False):
    """A function of real numbers only (cube root, sign, floor, the inverse functions): NaN
    (undefined) off the real line and outside its real domain `inside(x)`. The principal complex
    branch would be wrong here: arcsin(2) + arccos(2) = pi/2 exactly, the imaginary parts
    cancelling, although neither is defined for a real x = 2."""
    def apply(x: np.ndarray) -> np.ndarray:
        ok = np.abs(x.imag) <= 1e-12 * (1 + np.abs(x.real))
        real = x.real
        if inside is not None:
            ok &= inside(real)
        with np.errstate(all="ignore"):
            if analytic and np.count_nonzero(x.imag):  # a complex step's tiny imaginary part
                # is kept (a Jacobian's column, values/evaluate.py _vector_derivative)
                return np.where(ok, f(np.where(ok, real + 1j * x.imag, 0.5)), np.nan)
            return np.where(ok, f(np.where(ok, real, 0.5)), np.nan).astype(complex)
    return apply


def _within_one(x: np.ndarray) -> np.ndarray:
    return np.abs(x) <= 1


def _beyond_one(x: np.ndarray) -> np.ndarray:
    return np.abs(x) >= 1


# Real domains (A&S 4.4, 4.6): arcsin, arccos on [-1, 1]; arcsec, arccsc for |x| >= 1; arcosh
# from 1; artanh on (-1, 1), arcoth outside [-1, 1]; arsech on (0, 1], arcsch off 0.
_FUNCS = {
    "sqrt": _real_function(np.sqrt, lambda x: x >= 0, analytic=True),
    "cbrt": _real_function(np.cbrt),
    "exp": np.exp, "log": _real_function(np.log, lambda x: x > 0, analytic=True),
    "abs": lambda x: np.abs(x).astype(complex), "sign": _real_function(np.sign),
    "sigmoid": _sigmoid,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sec": lambda x: 1 / np.cos(x),
    "csc": lambda x: 1 / np.sin(x), "cot": lambda x: np.cos(x) / np.sin(x),
    "arcsin": _real_function(np.arcsin, _within_one),
    "arccos": _real_function(np.arccos, _within_one),
    "arctan": _real_function(np.arctan),
    "arcsec": _real_function(lambda x: np.arccos(1 / x), _beyond_one),
    "arccsc": _real_function(lambda x: np.arcsin(1 / x), _beyond_one),
    "arccot": _real_function(lambda x: np.arctan(1 / x), lambda x: x != 0),  # (-pi/2, pi/2]
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "sech": lambda x: 1 / np.cosh(x),
    "csch": lambda x: 1 / np.sinh(x), "coth": lambda x: np.cosh(x) / np.sinh(x),
    "asinh": _real_function(np.arcsinh),
    "acosh": _real_function(np.arccosh, lambda x: x >= 1),
    "atanh": _real_function(np.arctanh, lambda x: np.abs(x) < 1),
    "asech": _real_function(lambda x: np.arccosh(1 / x), lambda x: (x > 0) & (x <= 1)),
    "acsch": _real_function(lambda x: np.arcsinh(1 / x), lambda x: x != 0),
    "acoth": _real_function(lambda x: np.arctanh(1 / x), lambda x: np.abs(x) > 1),
    "floor": _real_function(np.floor), "ceil": _real_function(np.ceil),
}
