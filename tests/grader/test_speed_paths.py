"""The per-answer shortcuts of the common path give what the general code gives.

- compare_values of two scalar formulas (its own, shorter path) decides exactly as the general
  path does on the same values as one-entry columns, masks and all.
- Declarations and tolerances are read once per question (bounded caches of pure functions): a
  bad one is refused again on every request, never remembered as good.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.kinds.request import grade_request, tolerance
from grader.values.decide import compare_values

K = 24

# Values a formula takes at the sample points: ordinary numbers, some within rounding of each
# other, zeros, infinities, NaN (undefined) and non-real values (outside the real domain).
special = st.sampled_from([0.0, -0.0, 1.0, 1.0 + 1e-15, 1.0 + 1e-9, 1.0 + 1e-5, np.inf, -np.inf,
                           np.nan, 1e300, 1e-300])
real = st.one_of(st.floats(-1e6, 1e6), special)
value = st.one_of(real, st.builds(complex, real, st.sampled_from([0.0, 1e-12, 0.5, np.nan])))


def column(values: list) -> np.ndarray:
    return np.array(values, dtype=complex)


@settings(max_examples=300, deadline=None)
@given(st.lists(value, min_size=K, max_size=K), st.lists(value, min_size=K, max_size=K),
       st.booleans())
def test_scalar_path_decides_as_the_general_path(answer, expected, same_as_expected):
    a = column(expected if same_as_expected else answer)
    e = column(expected)
    fast = compare_values(a, e)
    general = compare_values(a.reshape(K, 1, 1), e.reshape(K, 1, 1))  # a 1x1 "matrix"
    assert (fast.status, fast.sample) == (general.status, general.sample)
    if fast.points is not None:
        for mask in ("valid", "clear", "tight", "undefined"):
            assert np.array_equal(getattr(fast.points, mask), getattr(general.points, mask))
        assert np.array_equal(fast.points.rounding, general.points.rounding)
        assert np.array_equal(fast.points.relative, general.points.relative)
        assert fast.points.rounding_level(8) == general.points.rounding_level(8)


def test_a_bad_declaration_is_refused_every_time():
    request = {"kind": "expression", "expected": "x", "answer": "x", "symbols": ["x", "1x"]}
    for _ in range(3):  # not remembered as good after the first refusal
        assert grade_request(request).unreadable
    assert grade_request({**request, "symbols": ["x"]}).correct


def test_declarations_are_the_same_whatever_the_cache_holds():
    first = grade_request({"kind": "expression", "expected": "x_{l+1}", "answer": "x_{l+1}",
                           "symbols": ["x_{l+1}"]})
    again = grade_request({"kind": "expression", "expected": "x_{l+1}", "answer": "x_{l+1}",
                           "symbols": ["x_{l+1}"]})
    assert first.correct and again.correct and first.interpreted == again.interpreted


def test_a_declared_name_that_is_not_a_string_is_refused():
    result = grade_request({"kind": "expression", "expected": "x", "answer": "x",
                            "symbols": ["x", 5]})
    assert result.unreadable and "must be strings" in result.error


def test_tolerances_are_not_mixed_up_by_the_cache():
    assert tolerance({"sigfigs": 3}).sigfigs == 3
    assert tolerance({"rtol": 1}).rtol == 1.0
    for bad in ({"sigfigs": True}, {"rtol": -1.0}, {"rtol": float("nan")}, {"sigfigs": 2.5},
                {"rtol": [0.1]}):
        for _ in range(2):
            result = grade_request({"kind": "numeric", "expected": 1.0, "answer": "1", **bad})
            assert result.unreadable, bad
    # 0.0 and -0.0 are one cache key but not one description ("0" / "-0"): zeros are not cached
    assert str(tolerance({"atol": 0.0}).atol) == "0.0"
    assert str(tolerance({"atol": -0.0}).atol) == "-0.0"
