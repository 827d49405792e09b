"""Keys that are mathematically zero come out as exactly 0.0 ("snap at the key's scale").

A float64 sum that should cancel to zero leaves rounding noise instead: 0.3 - 0.1 - 0.2 is
5.6e-17, and a learner's `0` is then 100 % away from the key. The noise is bounded by a few units
in the last place of the *terms* being added, not of the result: recursive summation of n terms
errs by at most about n * u * sum |terms| (u = 2^-53). So every template that adds or subtracts
computes, next to each key, its scale: the same formula evaluated on absolute values (|x| + |W||x|
for x + Wx), which bounds sum |terms|. A key within `terms * SNAP_ULPS * u * scale` of zero is the
noise of a cancellation and becomes exactly 0.0.

A true nonzero key of a generated problem is never that small: the drawn numbers lie on decimal
grids (steps of 0.01 or coarser, eps >= 1e-6) and each key combines a handful of them, so a
nonzero key is many orders of magnitude above 1e-13 of its scale. tests/compute/test_zero_keys.py
holds the rule to exact rational arithmetic over 2,000 seeds per template: a key is 0.0 exactly
when its exact value is 0.

Products need no snapping: a product is 0 only when a factor is exactly 0, and its rounding error
is relative to the (possibly tiny) result, e.g. 0.1^60 stays 1e-60.
"""

from __future__ import annotations

UNIT_ROUNDOFF = 2.0**-53
SNAP_ULPS = 256  # margin over the n * u bound for the few operations a key takes


def snap(value, scale, *, terms: int = 1):
    """`value` (a float64 tensor) with every entry within terms * SNAP_ULPS * u * `scale` of zero
    replaced by +0.0; `scale` has value's shape (or broadcasts to it) and bounds sum |terms|."""
    from compute import backend

    torch = backend.torch()
    value = torch.as_tensor(value, dtype=torch.float64)
    scale = torch.as_tensor(scale, dtype=torch.float64)
    noise = value.abs() <= terms * SNAP_ULPS * UNIT_ROUNDOFF * scale
    return torch.where(noise, torch.zeros_like(value), value)


def snap_float(value: float, scale: float, *, terms: int = 1) -> float:
    """`snap` for one Python float."""
    return 0.0 if abs(value) <= terms * SNAP_ULPS * UNIT_ROUNDOFF * abs(scale) else value
