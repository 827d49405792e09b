"""Shared, lazily built generated problems: each (template, difficulty, seed) is built once."""

from __future__ import annotations

import functools

import pytest

import compute

SEEDS = range(30)


@functools.cache
def _problems(template: str, difficulty: str) -> tuple[dict, ...]:
    return tuple(compute.generate(template, seed=s, difficulty=difficulty) for s in SEEDS)


@pytest.fixture(scope="session")
def problems():
    """problems(template, difficulty) -> the problems for seeds 0..29 (treat as read-only)."""
    return _problems
