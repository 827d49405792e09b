"""The normalization, initialization and numerics templates against independent computations:
finite differences, seeded Monte-Carlo stacks, hand-rounded BF16, and the facts the bank teaches.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compute
from tests.compute.test_closed_forms import bf16_round, finite_difference_jacobian


def layer_norm(z, eps):
    return (z - z.mean()) / np.sqrt(z.var() + eps)


def rms_norm(z, eps):
    return z / np.sqrt((z**2).mean() + eps)


@pytest.mark.parametrize("difficulty", compute.DIFFICULTIES)
def test_norm_products_match_finite_differences(problems, difficulty):
    for problem in problems("norm_jacobian_vector", difficulty):
        z, v, eps = (np.array(problem["params"][k]) for k in ("z", "v", "eps"))
        for norm, name in ((layer_norm, "ln_jvp"), (rms_norm, "rms_jvp")):
            J = finite_difference_jacobian(lambda t, norm=norm, eps=eps: norm(t, eps), z)
            np.testing.assert_allclose(problem["answers"][name], J @ v, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("eps", [1e-5, 1e-3])
def test_layer_norm_null_space_and_scale_invariance(eps):
    """J_LN 1 = 0, J_LN zhat = eps zhat / sigma^3 (about 0), and LN(alpha z) = LN(z) up to eps:
    the facts behind "the gradient through LayerNorm is orthogonal to its input"."""
    z = [1.0, -2.0, 0.5, 3.0, -1.5]
    ones = compute.solve("norm_jacobian_vector", {"z": z, "v": [1.0] * 5, "eps": eps})["answers"]
    assert ones["ln_jvp"] == [0.0] * 5  # an exact zero, not 1e-17
    zhat = ones["ln"]
    along = compute.solve("norm_jacobian_vector", {"z": z, "v": zhat, "eps": eps})["answers"]
    sigma = math.sqrt(np.var(z) + eps)
    np.testing.assert_allclose(along["ln_jvp"], eps * np.array(zhat) / sigma**3, atol=1e-12)
    scaled = compute.solve("norm_jacobian_vector",
                           {"z": [4 * v for v in z], "v": [1.0] * 5, "eps": eps})["answers"]
    np.testing.assert_allclose(scaled["ln"], zhat, rtol=2 * eps)


def monte_carlo_variance(params, alpha, samples=200_000, seed=0):
    """Var x_L of a sampled stack: F_l = s xi (normalized) or sqrt(c) xi x_l (unnormalized), xi
    ~ N(0, 1) fresh per block, so that Cov(x_l, F_l) = 0 as the template assumes."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, math.sqrt(params["var0"]), samples)
    for _ in range(params["depth"]):
        xi = rng.standard_normal(samples)
        branch = (math.sqrt(params["branch"]) * xi if params["normalized"]
                  else math.sqrt(params["branch"]) * xi * x)
        x = x + alpha * branch
    return x.var()


@pytest.mark.parametrize(("params", "rel"), [
    ({"depth": 16, "var0": 1.0, "branch": 1.0, "normalized": True}, 0.02),
    ({"depth": 12, "var0": 0.5, "branch": 0.5, "normalized": False}, 0.05),
    ({"depth": 32, "var0": 1.0, "branch": 1.0, "normalized": False}, 0.05),
])
def test_variance_recursion_matches_a_sampled_stack(params, rel):
    # A fixed seed makes the sample deterministic; the tolerances are several standard errors.
    answers = compute.solve("residual_variance_depth", params)["answers"]
    scaled = 1 / math.sqrt(params["depth"])
    assert monte_carlo_variance(params, scaled) == pytest.approx(answers["var_scaled"], rel=rel)
    if params["normalized"]:  # the unnormalized unscaled stack is too heavy-tailed to sample
        assert monte_carlo_variance(params, 1.0) == pytest.approx(answers["var_unscaled"],
                                                                  rel=rel)


def test_scaled_branches_stay_bounded_at_any_depth():
    for depth in (10, 100, 1000):
        a = compute.solve("residual_variance_depth",
                          {"depth": depth, "var0": 1.0, "branch": 1.0, "normalized": False})
        assert a["answers"]["var_scaled"] < math.e  # (1 + 1/L)^L < e
        assert a["answers"]["var_unscaled"] == pytest.approx(2.0**depth)


@settings(max_examples=40, deadline=None)
@given(lam=st.lists(st.sampled_from([0.5, 0.9, 1.0, 1.1, 2.0]), min_size=1, max_size=30))
def test_shortcut_factor_is_the_product_of_the_lambdas(lam):
    a = compute.solve("scaled_shortcut", {"lam": lam, "F": [0.5] * len(lam), "x0": 1.0})
    assert a["answers"]["shortcut_factor"] == pytest.approx(math.prod(lam), rel=1e-12)


def test_identity_shortcuts_keep_the_factor_at_one():
    a = compute.solve("scaled_shortcut", {"lam": [1.0] * 100, "F": [0.1] * 100, "x0": 2.0})
    assert a["answers"]["shortcut_factor"] == 1.0
    assert a["answers"]["x_n"] == pytest.approx(12.0)
    halved = compute.solve("scaled_shortcut", {"lam": [0.5] * 50, "F": [0.0] * 50, "x0": 1.0})
    assert halved["answers"]["shortcut_factor"] == 0.5**50  # the gradient vanishes


def test_stochastic_depth_of_the_paper():
    # Huang et al. 2016: 54 blocks (ResNet-110), p_L = 0.5 -> about 40 blocks on average.
    a = compute.solve("stochastic_depth", {"blocks": 54, "p_last": 0.5, "block": 27,
                                           "x": [1.0], "f": [1.0]})["answers"]
    assert a["expected_depth"] == pytest.approx(40.25)
    assert a["survival"] == pytest.approx(0.75)


@pytest.mark.parametrize("seed", range(5))
def test_expected_depth_matches_sampled_depths(problems, seed):
    p = problems("stochastic_depth", "hard")[seed]
    L, pL = p["params"]["blocks"], p["params"]["p_last"]
    survival = 1 - np.arange(1, L + 1) / L * (1 - pL)
    rng = np.random.default_rng(seed)
    depths = (rng.random((20_000, L)) < survival).sum(axis=1)
    std_error = depths.std() / math.sqrt(len(depths))
    assert abs(depths.mean() - p["answers"]["expected_depth"]) < 5 * std_error


@pytest.mark.parametrize(("x", "f", "fp16", "bf16"), [
    (256.0, 0.5, 256.5, 256.0),     # the example: in BF16 256 + 0.5 = 256
    (256.0, 1.0, 257.0, 256.0),     # a BF16 tie between 256 and 258: the even significand
    (2048.0, 0.5, 2048.0, 2048.0),  # FP16's spacing at 2048 is 2 (the bank's FP16 question)
    (-640.0, 0.375, -639.5, -640.0),
])
def test_rounded_sums(x, f, fp16, bf16):
    a = compute.solve("mixed_precision_sum", {"x": x, "f": f})["answers"]
    assert (a["sum_fp16"], a["sum_bf16"]) == (fp16, bf16)


@settings(max_examples=60, deadline=None)
# x = m * 2^e stays below the template's 60,000 limit (255 * 2^8 = 65,280 would be refused).
@given(m=st.integers(128, 255), e=st.integers(-6, 7), f_m=st.integers(1, 255),
       f_e=st.integers(-8, 0), sign=st.sampled_from([1, -1]))
def test_sums_are_one_rounding_of_the_exact_sum(m, e, f_m, f_e, sign):
    x, f = m * 2.0**e, sign * f_m * 2.0**f_e
    if abs(x + f) < 2.0**-14:
        return
    a = compute.solve("mixed_precision_sum", {"x": x, "f": f})["answers"]
    assert a["sum_fp16"] == float(np.float16(x) + np.float16(f))
    assert a["sum_bf16"] == bf16_round(x + f)
    assert a["spacing_fp16"] == float(np.spacing(np.float16(x)))
    assert a["spacing_bf16"] == 2.0 ** (math.floor(math.log2(x)) - 7)


def test_values_that_bf16_cannot_hold_are_refused():
    with pytest.raises(compute.ParamsError) as caught:
        compute.solve("mixed_precision_sum", {"x": 257.0, "f": 0.1})
    fields = {field for field, _ in caught.value.problems}
    assert fields == {"x", "f"}


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=2, max_size=8).filter(lambda v: len(set(v)) > 1))
def test_bn_running_stats_with_momentum_one_is_the_batch_estimate(values):
    """momentum = 1 keeps nothing of the old averages: the running mean is the batch mean and the
    running variance numpy's unbiased estimate (ddof=1), while the batch variance is ddof=0."""
    x = [v / 10 for v in values]
    answers = compute.solve("bn_running_stats", {"x": x, "momentum": 1.0, "running_mean": 7.0,
                                                 "running_var": 3.0})["answers"]
    np.testing.assert_allclose(answers["running_mean"], np.mean(x), atol=1e-12)
    np.testing.assert_allclose(answers["running_var"], np.var(x, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(answers["batch_var"], np.var(x, ddof=0), rtol=1e-12)


@pytest.mark.parametrize("difficulty", compute.DIFFICULTIES)
def test_folded_layer_reproduces_eval_batchnorm_on_inputs(problems, difficulty):
    """W' x + b' equals BatchNorm(eval) applied to W x + b for random inputs x."""
    rng = np.random.default_rng(3)
    for problem in problems("bn_folding", difficulty):
        p, a = problem["params"], problem["answers"]
        W, b = np.array(p["W"]), np.array(p["b"])
        for x in rng.normal(size=(4, W.shape[1])):
            bn = (np.array(p["gamma"]) * (W @ x + b - np.array(p["mean"]))
                  / np.sqrt(np.array(p["var"]) + p["eps"]) + np.array(p["beta"]))
            np.testing.assert_allclose(np.array(a["W_fold"]) @ x + np.array(a["b_fold"]), bn,
                                       rtol=1e-9, atol=1e-12)
