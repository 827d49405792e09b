"""Where a right answer's real domain differs from the expected answer's: the point its note names.

The one real-domain rule (grader/README.md, "Declared domains and the one real-domain rule")
compares two formulas where both are real; a right verdict whose samples met a point where
exactly one of them is real (`\\sqrt{x}\\sqrt{x}` for `x` at x = -1) carries a note naming such a
point and the side that is undefined there. The point is a hand-checkable one when one shows it
(x = 2, 1, 3, -1, 1/2, ...; inside the declared domains), else a sampled one; either way it is
certified in multi-precision arithmetic (precise.undefined_on_one_side: undefined at 30 and 60
digits, and not removable), so that a float overflow (`e^x e^{-x}` at x = 10^5) or a removable
point never makes a note.
"""

from __future__ import annotations

import numpy as np

from ..errors import GraderError
from ..reading.nodes import Node, facts
from ..result import Counterexample
from .counterexample import describe, nice_env
from .decide import SampleVerdict, real_and_finite
from .evaluate import Env, evaluate
from .precise import NotPrecise, undefined_on_one_side

MAX_TRIES = 4  # points of each kind (nice, sampled) checked in multi-precision


def domain_difference_point(answer: Node, expected: Node, verdict: SampleVerdict, lang: str,
                            integers: frozenset[str] = frozenset()) -> Counterexample | None:
    """A certified point where exactly one of two formulas judged equal is real, with both
    values as a counterexample writes them (the undefined one as "a value that is not a real
    number"); None when the verdict met no such point or none is certified. With `integers`
    (names declared whole) the sampled points are used, which are whole for them."""
    if verdict.status != "equal":
        return None
    if verdict.first is not None:  # equal where both are real, found after the first samples
        verdict = verdict.first
    points, env = verdict.points, verdict.env
    if points is None or env is None or not points.domains_differ:
        return None
    return one_sided_point(answer, expected, env, points.undefined, lang, integers)


def one_sided_point(answer: Node, expected: Node, env: Env, one_sided: np.ndarray, lang: str,
                    integers: frozenset[str] = frozenset()) -> Counterexample | None:
    """A certified point where exactly one of the two formulas is real: a hand-checkable one
    when one shows it, else one of the points of `env` marked `one_sided`."""
    fa, fe = facts(answer), facts(expected)
    if fa.matrices or fe.matrices or fa.multi_arg or fe.multi_arg:
        return None
    names = sorted(fa.symbols | fe.symbols)
    functions = sorted(fa.functions | fe.functions)
    try:
        if not integers & set(names):
            nice = nice_env(tuple(names), tuple(functions), (), False,
                            frozenset(env.positive & set(names)),
                            frozenset(env.nonnegative & set(names)))
            a, e = evaluate(answer, nice), evaluate(expected, nice)
            for j in np.flatnonzero(real_and_finite(a) != real_and_finite(e))[:MAX_TRIES]:
                if undefined_on_one_side(answer, expected, nice, int(j)):
                    return describe(nice, int(j), names, functions, [], a, e, lang)
        a, e = evaluate(answer, env), evaluate(expected, env)
        for j in np.flatnonzero(one_sided)[:MAX_TRIES].tolist():
            if undefined_on_one_side(answer, expected, env, j):
                return describe(env, j, names, [], [], a, e, lang, exact=False)
    except (NotPrecise, GraderError, FloatingPointError, ValueError):
        return None
    return None
