"""Laws that hold for any valid params (Hypothesis), checked on torch's answers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import compute

values = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def block_params(draw):
    n = draw(st.integers(1, 5))
    vector = arrays(np.float64, n, elements=values)
    return {"x": draw(vector).tolist(), "W": draw(arrays(np.float64, (n, n), elements=values))
            .tolist(), "t": draw(vector).tolist()}


@settings(max_examples=30, deadline=None)
@given(block_params())
def test_linear_block_gradient_is_the_sum_of_its_two_paths(params):
    a = compute.solve("linear_residual_block", params)["answers"]
    x, W, t = (np.array(params[k]) for k in ("x", "W", "t"))
    g = x + W @ x - t
    np.testing.assert_allclose(a["grad_x"], np.add(a["grad_x_identity"], a["grad_x_branch"]),
                               rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(a["grad_x"], (np.eye(len(x)) + W).T @ g, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(a["grad_W"], np.outer(g, x), rtol=1e-9, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(alpha=values, data=st.data())
def test_scaled_residual_jacobian(alpha, data):
    n = data.draw(st.integers(1, 4))
    W = data.draw(arrays(np.float64, (n, n), elements=values))
    g = data.draw(arrays(np.float64, n, elements=values))
    a = compute.solve("residual_scaling", {"alpha": alpha, "W": W.tolist(), "g": g.tolist()})
    J = np.eye(n) + alpha * W
    np.testing.assert_allclose(a["answers"]["J"], J, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a["answers"]["grad_x"], J.T @ g, rtol=1e-9, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(p=st.floats(0.01, 0.95), data=st.data())
def test_dropout_expectation_is_the_undropped_sum(p, data):
    n = data.draw(st.integers(1, 6))
    x = data.draw(arrays(np.float64, n, elements=values))
    h = data.draw(arrays(np.float64, n, elements=values))
    mask = data.draw(arrays(np.int64, n, elements=st.integers(0, 1)))
    a = compute.solve("dropout_residual",
                      {"p": p, "x": x.tolist(), "h": h.tolist(), "mask": mask.tolist()})
    np.testing.assert_allclose(a["answers"]["expected_output"], x + h, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(a["answers"]["train_output"], x + mask * h / (1 - p),
                               rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(var_x=st.floats(0, 100), var_f=st.floats(0, 100), rho=st.floats(-1, 1))
def test_variance_of_sum_is_never_negative(var_x, var_f, rho):
    cov = rho * np.sqrt(var_x * var_f)
    var = compute.solve("variance_of_sum", {"var_x": var_x, "var_f": var_f, "cov": cov})
    assert var["answers"]["var"] >= -1e-9
    assert var["answers"]["var"] == var_x + var_f + 2 * cov or np.isclose(
        var["answers"]["var"], var_x + var_f + 2 * cov, rtol=1e-12, atol=1e-12)
