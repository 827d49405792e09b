"""Every template's torch answers against an independent numpy computation.

Closed forms for the linear templates, finite differences for the LayerNorm Jacobians, manual
backprop (and finite differences on the input) for the deep MLP, exact formulas for the counts.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import compute

RTOL, ATOL = 1e-9, 1e-12


def linear_residual_block(p):
    x, W, t = np.array(p["x"]), np.array(p["W"]), np.array(p["t"])
    y = x + W @ x
    g = y - t
    return {"y": y, "loss": 0.5 * g @ g, "grad_y": g, "grad_x": (np.eye(len(x)) + W).T @ g,
            "grad_x_identity": g, "grad_x_branch": W.T @ g, "grad_W": np.outer(g, x)}


def gradient_multiplier(p):
    return {"plain": abs(p["a"]) ** p["n"], "residual": abs(1 + p["a"]) ** p["n"]}


def chain_product(p):
    a = np.array(p["a"])
    return {"plain": np.prod(a), "residual": np.prod(1 + a)}


def residual_mapping(p):
    return {"F": np.array(p["H"]) - np.array(p["x"])}


def layer_norm(z, eps):
    return (z - z.mean()) / np.sqrt(z.var() + eps)  # numpy's var is the population variance


def finite_difference_jacobian(f, x, step=1e-6):
    columns = [(f(x + step * e) - f(x - step * e)) / (2 * step) for e in np.eye(len(x))]
    return np.stack(columns, axis=1)


def prenorm_postnorm_jacobian(p):
    x, W, eps = np.array(p["x"]), np.array(p["W"]), p["eps"]
    return {
        "J_pre": finite_difference_jacobian(lambda z: z + W @ layer_norm(z, eps), x),
        "J_post": finite_difference_jacobian(lambda z: layer_norm(z + W @ z, eps), x),
    }


def residual_scaling(p):
    J = np.eye(len(p["g"])) + p["alpha"] * np.array(p["W"])
    return {"J": J, "grad_x": J.T @ np.array(p["g"])}


def mlp_backprop_norms(weights, x0, residual):
    """Manual backprop: g_l = [I if residual] g_{l+1} + W_l^T ((1 - tanh^2(W_l h_l)) g_{l+1})."""
    hs, h = [], np.array(x0)
    for W in weights:
        hs.append(h)
        branch = np.tanh(W @ h)
        h = h + branch if residual else branch
    g = np.full(len(x0), 1 / len(x0))
    norms = [np.linalg.norm(g)]
    for W, h in zip(reversed(weights), reversed(hs), strict=True):
        through_branch = W.T @ ((1 - np.tanh(W @ h) ** 2) * g)
        g = g + through_branch if residual else through_branch
        norms.append(np.linalg.norm(g))
    return np.array(norms[::-1])


def deep_mlp_gradients(p):
    weights = [np.array(W) for W in p["weights"]]
    return {"grad_norm_plain": mlp_backprop_norms(weights, p["x0"], residual=False),
            "grad_norm_residual": mlp_backprop_norms(weights, p["x0"], residual=True)}


def transformer_block_shapes(p):
    B, T, d, m = p["B"], p["T"], p["d"], p["ffn_mult"]
    attn, ffn, ln = 4 * d * d + 4 * d, 2 * m * d * d + m * d + d, 4 * d
    return {"attn_output_shape": [B, T, d], "ffn_hidden_shape": [B, T, m * d],
            "attn_params": attn, "ffn_params": ffn, "layernorm_params": ln,
            "block_params": attn + ffn + ln}


def projection_shortcut(p):
    if p["d_in"] == p["d_out"]:
        return {"shortcut_params": 0}
    return {"shortcut_params": p["d_in"] * p["d_out"] + (p["d_out"] if p["bias"] else 0)}


def dropout_residual(p):
    x, h, mask = np.array(p["x"]), np.array(p["h"]), np.array(p["mask"])
    return {"train_output": x + mask * h / (1 - p["p"]), "expected_output": x + h}


def variance_of_sum(p):
    return {"var": p["var_x"] + p["var_f"] + 2 * p["cov"]}


def norm_jacobian_vector(p):
    z, v, eps = np.array(p["z"]), np.array(p["v"]), p["eps"]
    d, sigma, r = len(z), np.sqrt(z.var() + eps), np.sqrt((z**2).mean() + eps)
    zhat, zr = (z - z.mean()) / sigma, z / r
    return {"ln": zhat, "ln_jvp": (v - v.mean() - zhat * (zhat @ v) / d) / sigma,
            "rms": zr, "rms_jvp": (v - zr * (zr @ v) / d) / r}


def bn_running_stats(p):
    x, m = np.array(p["x"]), p["momentum"]
    n = len(x)
    mean = x.sum() / n
    var = ((x - mean) ** 2).sum() / n
    return {"batch_mean": mean, "batch_var": var,
            "running_mean": (1 - m) * p["running_mean"] + m * mean,
            "running_var": (1 - m) * p["running_var"] + m * var * n / (n - 1)}


def bn_folding(p):
    W, b = np.array(p["W"]), np.array(p["b"])
    gamma, beta, mean, var = (np.array(p[k]) for k in ("gamma", "beta", "mean", "var"))
    scale = gamma / np.sqrt(var + p["eps"])
    return {"W_fold": scale[:, None] * W, "b_fold": scale * (b - mean) + beta}


def residual_variance_depth(p):
    L, v0, b = p["depth"], p["var0"], p["branch"]
    if p["normalized"]:
        return {"var_unscaled": v0 + L * b, "var_scaled": v0 + b}
    return {"var_unscaled": v0 * (1 + b) ** L, "var_scaled": v0 * (1 + b / L) ** L}


def init_variance(p):
    """Glorot & Bengio 2010 (2 / (n_in + n_out)), He et al. 2015 (2 / n for ReLU), with the gain
    written out: tanh 5/3, leaky ReLU 2 / (1 + a^2); U(-b, b) has variance b^2 / 3."""
    gain2 = {"linear": 1.0, "tanh": 25 / 9, "relu": 2.0,
             "leaky_relu": 2 / (1 + p.get("slope", 0.0) ** 2)}[p["nonlinearity"]]
    n = {"fan_in": p["fan_in"], "fan_out": p["fan_out"],
         "fan_avg": (p["fan_in"] + p["fan_out"]) / 2}[p["mode"]]
    return {"variance": gain2 / n, "std": np.sqrt(gain2 / n), "bound": np.sqrt(3 * gain2 / n)}


def scaled_shortcut(p):
    lam, F = np.array(p["lam"]), np.array(p["F"])
    after = [np.prod(lam[i + 1:]) for i in range(len(lam))]  # prod_{j > i} lambda_j
    return {"x_n": np.prod(lam) * p["x0"] + np.dot(after, F), "shortcut_factor": np.prod(lam)}


def stochastic_depth(p):
    L, pL, block = p["blocks"], p["p_last"], p["block"]
    p_l = 1 - block / L * (1 - pL)
    return {"expected_depth": L - (1 - pL) * (L + 1) / 2, "survival": p_l,
            "test_output": np.array(p["x"]) + p_l * np.array(p["f"])}


def bf16_round(value):
    """Round to BF16 on the float32 bit pattern: nearest, ties to even (no torch)."""
    bits = np.array([value], dtype=np.float32).view(np.uint32)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & np.uint32(0xFFFF0000)
    return float(bits.view(np.float32)[0])


def mixed_precision_sum(p):
    x, f = p["x"], p["f"]
    exponent = np.floor(np.log2(abs(x)))
    return {"sum_fp16": float(np.float16(x) + np.float16(f)),
            "sum_bf16": bf16_round(x + f),  # x + f is exact in float64 for these values
            "spacing_fp16": float(abs(np.spacing(np.float16(abs(x))))),
            "spacing_bf16": 2.0 ** (exponent - 7)}


REFERENCES = {f.__name__: f for f in (
    linear_residual_block, gradient_multiplier, chain_product, residual_mapping,
    init_variance,
    prenorm_postnorm_jacobian, residual_scaling, deep_mlp_gradients, transformer_block_shapes,
    projection_shortcut, dropout_residual, variance_of_sum, norm_jacobian_vector,
    bn_running_stats, bn_folding,
    residual_variance_depth, scaled_shortcut, stochastic_depth, mixed_precision_sum)}

# finite differences carry ~1e-9 truncation/rounding error; closed forms agree to rounding
TOLERANCES = {"prenorm_postnorm_jacobian": (1e-6, 1e-7)}


def test_every_template_has_a_reference():
    assert set(REFERENCES) == {t["name"] for t in compute.list_templates()}


@pytest.mark.parametrize(("template", "difficulty"),
                         list(itertools.product(REFERENCES, compute.DIFFICULTIES)))
def test_answers_match_closed_form(problems, template, difficulty):
    rtol, atol = TOLERANCES.get(template, (RTOL, ATOL))
    for seed, problem in enumerate(problems(template, difficulty)):
        expected = REFERENCES[template](problem["params"])
        assert problem["answers"].keys() == expected.keys()
        for name, value in expected.items():
            np.testing.assert_allclose(problem["answers"][name], value, rtol=rtol, atol=atol,
                                       err_msg=f"{template} seed={seed} {name}")


@pytest.mark.parametrize("difficulty", compute.DIFFICULTIES)
def test_layer_norm_jacobian_closed_form(problems, difficulty):
    """J_LN(z) = (I - 11^T/d - zhat zhat^T/d) / sigma reproduces both block Jacobians."""
    for p in problems("prenorm_postnorm_jacobian", difficulty):
        x, W, eps = (np.array(p["params"][k]) for k in ("x", "W", "eps"))

        def J_ln(z, eps=eps):
            d, sigma = len(z), np.sqrt(z.var() + eps)
            zhat = (z - z.mean()) / sigma
            return (np.eye(d) - np.ones((d, d)) / d - np.outer(zhat, zhat) / d) / sigma

        eye = np.eye(len(x))
        np.testing.assert_allclose(p["answers"]["J_pre"], eye + W @ J_ln(x), rtol=1e-10,
                                   atol=1e-12)
        np.testing.assert_allclose(p["answers"]["J_post"], J_ln(x + W @ x) @ (eye + W),
                                   rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_deep_mlp_norms_by_finite_differences(problems, seed):
    """||dloss/dh_l|| from finite differences of the forward pass started at layer l."""
    problem = problems("deep_mlp_gradients", "hard")[seed]
    p = problem["params"]
    weights = [np.array(W) for W in p["weights"]]
    for residual, key in ((False, "grad_norm_plain"), (True, "grad_norm_residual")):
        h, hs = np.array(p["x0"]), []
        for W in weights:
            hs.append(h)
            h = h + np.tanh(W @ h) if residual else np.tanh(W @ h)
        hs.append(h)
        for layer, h_l in enumerate(hs):
            def loss_from(z, layer=layer, residual=residual):
                for W in weights[layer:]:
                    z = z + np.tanh(W @ z) if residual else np.tanh(W @ z)
                return np.array([z.mean()])

            grad = finite_difference_jacobian(loss_from, h_l)[0]
            assert np.linalg.norm(grad) == pytest.approx(problem["answers"][key][layer],
                                                         rel=1e-6)


def test_layer_norm_solution_shows_the_values_torch_computes():
    """The worked solution's intermediates reassemble torch's J_pre and J_post."""
    from compute.templates import prenorm_postnorm_jacobian as template

    for seed in range(5):
        problem = compute.generate("prenorm_postnorm_jacobian", seed=seed, difficulty="hard")
        shown = template._intermediates(problem["params"])
        W, eps = np.array(problem["params"]["W"]), problem["params"]["eps"]
        np.testing.assert_allclose(np.eye(len(W)) + W @ np.array(shown["Jlnx"]),
                                   problem["answers"]["J_pre"], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(np.array(shown["Jlnu"]) @ np.array(shown["IW"]),
                                   problem["answers"]["J_post"], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(shown["lnx"],
                                   layer_norm(np.array(problem["params"]["x"]), eps), rtol=1e-12)
