"""Declared domains: the values a name declared `positive` or `nonnegative` takes.

A question may declare the domain of its variables (the declaration schema's `positive`,
`nonnegative` and `integers` lists, docs/contracts.md). Two formulas are then compared only at
points of that domain, by every check: the float samples, the search for a narrow real domain,
the multi-precision confirmation (one-sided limits at a boundary, precise.py), the
hand-checkable counterexamples (counterexample.py) and the symbolic check's assumptions.

- `positive`: every sample is the magnitude of the name's usual sample (near ones in 0.2..2,
  wide ones over the decades), never 0.
- `nonnegative`: the same magnitudes, and 0 at one near point of each such name (a different
  point per name, so that 0 meets the other names' ordinary values): `sign(x)` is not 1 there.
- integer names (values/indexed.py) take whole values 0..9; declared `positive` as well, 1..9.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .evaluate import Env

ZERO_POINT = 1  # the near point where the first nonnegative name is 0 (the next one: 2, ...)


@dataclass(frozen=True, slots=True)
class Domains:
    """The names declared positive and those declared nonnegative (disjoint), and the integer
    names (sampled at whole values by values/indexed.py; here for the symbolic check)."""

    positive: frozenset[str] = frozenset()
    nonnegative: frozenset[str] = frozenset()
    integers: frozenset[str] = frozenset()

    @property
    def restricts_samples(self) -> bool:
        return bool(self.positive or self.nonnegative)

    @property
    def signless(self) -> frozenset[str]:
        """Names that are never negative."""
        return self.positive | self.nonnegative

    def restrict(self, env: Env, skip: frozenset[str] | set[str] = frozenset()) -> Env:
        """A copy of `env` whose declared names (but `skip`, names given whole values
        elsewhere) take values in their domains; the drawn matrices and functions are shared
        (they depend on names only)."""
        if not self.restricts_samples:
            return env
        restricted = replace(env, symbols=dict(env.symbols), positive=self.positive,
                             nonnegative=self.nonnegative)
        near = env.k - env.wide
        for i, name in enumerate(sorted(self.nonnegative - set(skip))):
            values = np.abs(env.symbol(name).real)
            if near > 1:
                values[(ZERO_POINT + i) % near] = 0.0
            restricted.symbols[name] = values.astype(complex)
        for name in sorted(self.positive - set(skip)):
            restricted.symbols[name] = np.abs(env.symbol(name).real).astype(complex)
        return restricted


NO_DOMAINS = Domains()
_RESTRICTED: dict[tuple, Env] = {}
MAX_SHARED = 256


def shared_restricted(env: Env, domains: Domains, key: tuple) -> Env:
    """`domains.restrict(env)` for a shared environment (`key` names it), kept like
    decide.sampling_env's: its values depend only on the names and the declarations."""
    if not domains.restricts_samples:
        return env
    full = (key, domains)
    found = _RESTRICTED.get(full)
    if found is None:
        if len(_RESTRICTED) >= MAX_SHARED:
            _RESTRICTED.clear()
        found = _RESTRICTED[full] = domains.restrict(env)
    return found
