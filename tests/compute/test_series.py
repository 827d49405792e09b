"""Curves for the app: closed-form multipliers and deep-MLP gradient norms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compute
from compute import series


def test_curve_matches_the_text():
    curve = series.gradient_multiplier_curve(0.5, 20)
    assert curve["depth"] == list(range(21))
    assert curve["plain"][20] == pytest.approx(9.54e-7, rel=1e-3)
    assert curve["residual"][20] == pytest.approx(1.5**20)


@pytest.mark.parametrize(("a", "plain", "residual"), [
    (-1.0, [1, 1, 1, 1], [1, 0, 0, 0]),   # 1 + a = 0: the residual multiplier dies after a layer
    (0.0, [1, 0, 0, 0], [1, 1, 1, 1]),    # no branch derivative: identity path only
    (-2.0, [1, 2, 4, 8], [1, 1, 1, 1]),
])
def test_curve_corner_cases(a, plain, residual):
    curve = series.gradient_multiplier_curve(a, 3)
    assert curve["plain"] == plain and curve["residual"] == residual


@settings(deadline=None)  # timing belongs to bench/, and the machine is shared
@given(a=st.floats(-10, 10, allow_nan=False), n=st.integers(0, 60))
def test_curve_is_the_closed_form(a, n):
    curve = series.gradient_multiplier_curve(a, n)
    assert curve["plain"][n] == pytest.approx(abs(a) ** n, rel=1e-12)
    assert curve["residual"][n] == pytest.approx(abs(1 + a) ** n, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(a=st.floats(-10, 10, allow_nan=False).filter(lambda v: abs(v) > 1e-3),
       n=st.integers(1, 60))
def test_curve_agrees_with_the_template(a, n):
    curve = series.gradient_multiplier_curve(a, n)
    answers = compute.solve("gradient_multiplier", {"n": n, "a": a})["answers"]
    assert answers["plain"] == pytest.approx(curve["plain"][n], rel=1e-9)
    assert answers["residual"] == pytest.approx(curve["residual"][n], rel=1e-9, abs=1e-300)


def test_curve_rejects_bad_input_at_once():
    with pytest.raises(compute.ParamsError) as caught:
        series.gradient_multiplier_curve(float("nan"), -1)
    assert {field for field, _ in caught.value.problems} == {"a", "max_depth"}
    with pytest.raises(compute.ParamsError, match="overflow"):
        series.gradient_multiplier_curve(9.0, 1000)


def test_deep_mlp_norms_match_the_template():
    norms = series.deep_mlp_grad_norms(40, 64, 0.8, 3)
    answers = compute.solve("deep_mlp_gradients",
                            {"depth": 40, "width": 64, "gain": 0.8, "seed": 3})["answers"]
    assert norms["layer"] == list(range(41))
    assert norms["plain"] == answers["grad_norm_plain"]
    assert norms["residual"] == answers["grad_norm_residual"]


def test_deep_mlp_norms_accept_integral_floats():
    assert series.deep_mlp_grad_norms(3.0, 4.0, 1, 2.0) == series.deep_mlp_grad_norms(3, 4, 1, 2)


def test_deep_mlp_norms_reject_bad_settings():
    with pytest.raises(compute.ParamsError) as caught:
        series.deep_mlp_grad_norms(0, 1024, -1.0, 0)
    assert {field for field, _ in caught.value.problems} == {"depth", "width", "gain"}
