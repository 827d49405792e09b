"""Drawing friendly numbers: values on a grid (integers, one decimal, ...) from a numpy rng."""

from __future__ import annotations


def grid(rng, low: float, high: float, step: float, shape=None):
    """Uniform over {low, low + step, ..., high}, as plain floats (lists for a shape)."""
    k = rng.integers(round(low / step), round(high / step) + 1, size=shape)
    values = (k * step).round(6) if shape is not None else round(float(k) * step, 6)
    return values.tolist() if shape is not None else values


def pick(rng, choices):
    """One of `choices`, as the Python value it is."""
    return choices[int(rng.integers(len(choices)))]


def size(rng, low: int, high: int) -> int:
    return int(rng.integers(low, high + 1))
