"""Sample formulas with declared vectors (issue 25) in environments sized by values/shapes.py.

Both formulas are evaluated at the same VECTOR_POINTS points: every vector and matrix drawn
normal(0, 1) at its inferred size, vector functions and scalar functions of vectors random with
closed-form Jacobians (evaluate.py), Jacobians of formulas by the complex step. A row where a
column is meant, or a transposed Jacobian, is a "shape" verdict the feedback names.
"""

from __future__ import annotations

from dataclasses import replace

from ..reading.nodes import Node
from .decide import SEED, SampleVerdict, compare_values
from .evaluate import Env, evaluate, identity_only, is_matrix
from .shapes import VectorSpace

VECTOR_POINTS = 6
MATRIX_SIZE_FALLBACK = 3  # Env.n: the size of an identity that meets no other matrix
MAX_SHARED_ENVS = 256
_ENVS: dict[tuple, Env] = {}


def with_space(env: Env, space: VectorSpace) -> Env:
    """`env`'s scalar values (integer points included) with the vectors of `space`; shared by
    every comparison with the same base environment and space (values depend on names only)."""
    key = (id(env), space)
    hit = _ENVS.get(key)
    if hit is not None and hit[0] is env:
        return hit[1]
    if len(_ENVS) >= MAX_SHARED_ENVS:
        _ENVS.clear()
    sized = replace(env, matrices={}, members={}, symbols=dict(env.symbols),
                    functions=dict(env.functions), sizes=space.size_of(),
                    definitions=dict(space.definitions))
    _ENVS[key] = (env, sized)
    return sized


_BASE = Env(k=VECTOR_POINTS, n=MATRIX_SIZE_FALLBACK, seed=SEED)


def vector_env(space: VectorSpace) -> Env:
    return with_space(_BASE, space)


MAX_CACHED_VALUES = 512
_VALUES: dict[tuple[int, Node], tuple[Env, object]] = {}


def evaluate_against(node: Node, other, env: Env, keep: bool = False):
    """A formula whose only matrix is `I` takes the size of the value it is compared with
    (`\\frac{\\partial x}{\\partial x} = I`). With `keep`, the value is kept per shared
    environment, as the expected answer's values are (kinds/expression.py `prepare`): the
    reference of a comparison is compared again and again (every answer to a question, every
    line after a step that followed). A kept value is never written to."""
    if identity_only(node) and other is not None and is_matrix(other):
        return evaluate(node, replace(env, n=other.shape[1]))
    if not keep:
        return evaluate(node, env)
    key = (id(env), node)
    hit = _VALUES.get(key)
    if hit is not None and hit[0] is env:
        return hit[1]
    value = evaluate(node, env)
    if len(_VALUES) >= MAX_CACHED_VALUES:
        _VALUES.clear()
    _VALUES[key] = (env, value)
    return value


def vector_verdict(answer: Node, expected: Node, space: VectorSpace,
                   env: Env | None = None) -> SampleVerdict:
    """Raises EvalError (shapes that do not fit) and CannotDecide as evaluate does."""
    env = env if env is not None else vector_env(space)
    expected_value = evaluate_against(expected, None, env, keep=True)
    answer_value = evaluate_against(answer, expected_value, env)
    if identity_only(expected):
        expected_value = evaluate_against(expected, answer_value, env)
    return compare_values(answer_value, expected_value, flatten_vectors=False, env=env)
