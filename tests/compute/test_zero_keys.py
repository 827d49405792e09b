"""A key is exactly 0.0 if and only if its exact value is 0 (compute/zeros.py).

Regression: keys that should cancel to zero came out as float noise (1e-17), so a learner's `0`
was marked wrong in 2.5 % of the dropout variants and in the linear-block, LayerNorm-Jacobian
and residual-scaling exercises. Here every template's keys, for 2,000 seeds each (the difficulty
cycles with the seed), are held to exact rational arithmetic on the numbers as the learner reads
them (each float's shortest decimal: 1.2 is 6/5, not the binary double nearest to it): the keys
that are 0.0 must be exactly those whose exact value is 0, so snapping never hides a true
nonzero key either. That typing `0` is then accepted by the
grader is checked on the bank's questions in tests/quizbank/test_generated_answers.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import compute

SEEDS = range(2000)


def Q(value, denominator=None) -> Fraction:
    """The exact value of a drawn number as shown: its shortest decimal (repr)."""
    if denominator is not None or isinstance(value, int | Fraction):
        return Fraction(value, denominator or 1)
    return Fraction(repr(float(value)))


def vec(values):
    return [Q(v) for v in values]


def mat(rows):
    return [[Q(v) for v in row] for row in rows]


def matvec(A, x):
    return [sum((a * b for a, b in zip(row, x, strict=True)), Q(0)) for row in A]


def matmul(A, B):
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), Q(0)) for j in range(len(B[0]))]
            for i in range(len(A))]


def transpose(A):
    return [list(col) for col in zip(*A, strict=True)]


def eye(d):
    return [[Q(int(i == j)) for j in range(d)] for i in range(d)]


def add(A, B):
    if isinstance(A[0], list):
        return [add(a, b) for a, b in zip(A, B, strict=True)]
    return [a + b for a, b in zip(A, B, strict=True)]


def centring(z, eps):
    """(I - 11^T/d - c c^T/(d s2)) and s2 = Var z + eps: sigma J_LN(z) in rational terms."""
    d = len(z)
    mean = sum(z, Q(0)) / d
    c = [v - mean for v in z]
    s2 = sum((v * v for v in c), Q(0)) / d + Q(eps)
    return [[Q(int(i == j)) - Q(1, d) - c[i] * c[j] / (d * s2) for j in range(d)]
            for i in range(d)], s2


def is_minus_sqrt(m: Q, s2: Q) -> bool:
    """m == -sqrt(s2), decided without a square root."""
    return m < 0 and m * m == s2


def linear_residual_block(p):
    x, W, t = vec(p["x"]), mat(p["W"]), vec(p["t"])
    y = add(x, matvec(W, x))
    r = [a - b for a, b in zip(y, t, strict=True)]
    branch = matvec(transpose(W), r)
    return {"y": y, "loss": sum((v * v for v in r), Q(0)) / 2, "grad_y": r,
            "grad_x": add(r, branch), "grad_x_identity": r, "grad_x_branch": branch,
            "grad_W": [[ri * xj for xj in x] for ri in r]}


def gradient_multiplier(p):
    return {"plain": Q(p["a"]) ** p["n"], "residual": (1 + Q(p["a"])) ** p["n"]}


def chain_product(p):
    plain, residual = Q(1), Q(1)
    for a in vec(p["a"]):
        plain, residual = plain * a, residual * (1 + a)
    return {"plain": plain, "residual": residual}


def residual_mapping(p):
    return {"F": [h - x for h, x in zip(vec(p["H"]), vec(p["x"]), strict=True)]}


def prenorm_postnorm_jacobian(p):
    """J_pre = I + M/sigma_x with M = W C(x); J_post = N/sigma_u with N = C(u)(I + W): an entry
    of J_post is 0 iff N's is; a diagonal entry of J_pre is 0 iff M_ii = -sigma_x."""
    x, W, eps = vec(p["x"]), mat(p["W"]), p["eps"]
    d = len(x)
    C_x, s2_x = centring(x, eps)
    M = matmul(W, C_x)
    u = add(x, matvec(W, x))
    C_u, _ = centring(u, eps)
    N = matmul(C_u, add(eye(d), W))
    J_pre_zero = [[is_minus_sqrt(M[i][j], s2_x) if i == j else M[i][j] == 0 for j in range(d)]
                  for i in range(d)]
    return {"J_pre": J_pre_zero, "J_post": [[v == 0 for v in row] for row in N]}


def residual_scaling(p):
    W, g, alpha = mat(p["W"]), vec(p["g"]), Q(p["alpha"])
    J = add(eye(len(g)), [[alpha * w for w in row] for row in W])
    return {"J": J, "grad_x": matvec(transpose(J), g)}


def deep_mlp_gradients(p):
    # Norms of nonzero gradients through tanh layers of nonsingular weights: never 0 (tanh'
    # > 0, and degenerate() redraws singular layers), so every key must be nonzero.
    return {"grad_norm_plain": [Q(1)] * (p["depth"] + 1),
            "grad_norm_residual": [Q(1)] * (p["depth"] + 1)}


def transformer_block_shapes(p):
    B, T, d, m = p["B"], p["T"], p["d"], p["ffn_mult"]
    attn, ffn, ln = 4 * d * d + 4 * d, 2 * m * d * d + m * d + d, 4 * d
    return {"attn_output_shape": [B, T, d], "ffn_hidden_shape": [B, T, m * d],
            "attn_params": attn, "ffn_params": ffn, "layernorm_params": ln,
            "block_params": attn + ffn + ln}


def projection_shortcut(p):
    same = p["d_in"] == p["d_out"]
    return {"shortcut_params": 0 if same else p["d_in"] * p["d_out"] + p["d_out"] * p["bias"]}


def dropout_residual(p):
    x, h, mask, q = vec(p["x"]), vec(p["h"]), p["mask"], 1 - Q(p["p"])
    return {"train_output": [a + m * b / q for a, b, m in zip(x, h, mask, strict=True)],
            "expected_output": add(x, h)}


def variance_of_sum(p):
    return {"var": Q(p["var_x"]) + Q(p["var_f"]) + 2 * Q(p["cov"])}


def norm_jacobian_vector(p):
    """sigma (J_LN v)_i and r (J_RMS v)_i are rational; sigma, r > 0 do not change zeros."""
    z, v, eps = vec(p["z"]), vec(p["v"]), Q(p["eps"])
    d = len(z)
    mean, vbar = sum(z, Q(0)) / d, sum(v, Q(0)) / d
    c = [a - mean for a in z]
    s2 = sum((a * a for a in c), Q(0)) / d + eps
    r2 = sum((a * a for a in z), Q(0)) / d + eps
    cv = sum((a * b for a, b in zip(c, v, strict=True)), Q(0))
    zv = sum((a * b for a, b in zip(z, v, strict=True)), Q(0))
    return {"ln": c, "ln_jvp": [vi - vbar - ci * cv / (d * s2) for vi, ci in zip(v, c, strict=True)],
            "rms": z, "rms_jvp": [vi - zi * zv / (d * r2) for vi, zi in zip(v, z, strict=True)]}


def bn_running_stats(p):
    x, m = vec(p["x"]), Q(p["momentum"])
    n = len(x)
    mean = sum(x, Q(0)) / n
    var = sum(((v - mean) ** 2 for v in x), Q(0)) / n
    return {"batch_mean": mean, "batch_var": var,
            "running_mean": (1 - m) * Q(p["running_mean"]) + m * mean,
            "running_var": (1 - m) * Q(p["running_var"]) + m * var * Q(n, n - 1)}


def bn_folding(p):
    """W'_ij = gamma_i W_ij / s_i with s_i = sqrt(var_i + eps) > 0: zero iff gamma_i W_ij is.
    b'_i = gamma_i (b_i - mu_i) / s_i + beta_i is zero iff gamma_i (b_i - mu_i) = -beta_i s_i,
    decided without a square root."""
    W_fold, b_fold = [], []
    for row, g, b, mu, beta, var in zip(mat(p["W"]), vec(p["gamma"]), vec(p["b"]),
                                        vec(p["mean"]), vec(p["beta"]), vec(p["var"]),
                                        strict=True):
        s2, z = var + Q(p["eps"]), g * (b - mu)
        W_fold.append([g * w for w in row])
        b_fold.append(z == 0 if beta == 0 else (z * beta < 0 and z * z == beta * beta * s2))
    return {"W_fold": W_fold, "b_fold": b_fold}


def residual_variance_depth(p):
    return {"var_unscaled": Q(p["var0"]), "var_scaled": Q(p["var0"])}  # var0 > 0: never 0


def init_variance(p):
    """g^2 / n with g^2 in {1, 25/9, 2, 2/(1 + a^2)}: never 0 (std and bound are its roots)."""
    gain2 = {"linear": Q(1), "tanh": Q(25, 9), "relu": Q(2),
             "leaky_relu": 2 / (1 + Q(p.get("slope", 0)) ** 2)}[p["nonlinearity"]]
    variance = gain2 / {"fan_in": Q(p["fan_in"]), "fan_out": Q(p["fan_out"]),
                        "fan_avg": Q(p["fan_in"] + p["fan_out"], 2)}[p["mode"]]
    return {"variance": variance, "std": variance, "bound": variance}


def scaled_shortcut(p):
    x, factor = Q(p["x0"]), Q(1)
    for lam, F in zip(vec(p["lam"]), vec(p["F"]), strict=True):
        x, factor = lam * x + F, factor * lam
    return {"x_n": x, "shortcut_factor": factor}


def stochastic_depth(p):
    L, pL, block = p["blocks"], Q(p["p_last"]), p["block"]
    p_l = 1 - Q(block, L) * (1 - pL)
    return {"expected_depth": L - (1 - pL) * (L + 1) / 2, "survival": p_l,
            "test_output": [a + p_l * b for a, b in zip(vec(p["x"]), vec(p["f"]), strict=True)]}


def mixed_precision_sum(p):
    # |x + f| >= 2^-14 (check()), so no rounding reaches 0; spacings are powers of two.
    return {name: Q(1) for name in ("sum_fp16", "sum_bf16", "spacing_fp16", "spacing_bf16")}


EXACT = {f.__name__: f for f in (
    linear_residual_block, gradient_multiplier, chain_product, residual_mapping,
    init_variance,
    prenorm_postnorm_jacobian, residual_scaling, deep_mlp_gradients, transformer_block_shapes,
    projection_shortcut, dropout_residual, variance_of_sum, norm_jacobian_vector,
    bn_running_stats, bn_folding,
    residual_variance_depth, scaled_shortcut, stochastic_depth, mixed_precision_sum)}


def zero_mask(value):
    """True where an exact value (Fraction, or an already decided bool) is zero."""
    if isinstance(value, list):
        return [zero_mask(v) for v in value]
    return value if isinstance(value, bool) else value == 0


def key_zero_mask(value):
    if isinstance(value, list):
        return [key_zero_mask(v) for v in value]
    return value == 0


def test_every_template_has_an_exact_reference():
    assert set(EXACT) == {t["name"] for t in compute.list_templates()}


@pytest.mark.parametrize("template", sorted(EXACT))
def test_a_key_is_zero_exactly_when_its_exact_value_is(template):
    zeros_seen = 0
    for seed in SEEDS:
        difficulty = compute.DIFFICULTIES[seed % 3]
        problem = compute.generate(template, seed=seed, difficulty=difficulty)
        exact = EXACT[template](problem["params"])
        for name, value in exact.items():
            expected = zero_mask(value)
            got = key_zero_mask(problem["answers"][name])
            assert got == expected, (f"{template} seed={seed} {difficulty} {name}: "
                                     f"key {problem['answers'][name]}")
            zeros_seen += str(expected).count("True")
    # Say where zeros occur (in the test log) so that a template whose draws never cancel is
    # visible; the templates that add and subtract are exercised by real cancellations.
    print(f"{template}: {zeros_seen} exact zeros in {len(SEEDS)} seeds")
    if template in CANCELLING:
        assert zeros_seen > 0


# Templates whose generated keys do cancel to zero now and then (the snapping is exercised).
CANCELLING = {"linear_residual_block", "prenorm_postnorm_jacobian", "residual_scaling",
              "dropout_residual", "norm_jacobian_vector", "scaled_shortcut", "stochastic_depth",
              "residual_mapping", "bn_running_stats", "bn_folding"}


@pytest.mark.parametrize(("template", "params", "name", "zero_at"), [
    # 0.1 + 0.2 - 0.3 cancellations that float64 alone leaves as noise
    ("linear_residual_block", {"x": [1.0, 2.0], "W": [[0.4, -0.7], [0.0, 0.5]],
                               "t": [1.0, 1.0]}, "y", [True, False]),  # raw y_0 = 1.1e-16
    ("dropout_residual", {"p": 0.25, "x": [-0.8, 1.0], "h": [0.6, 0.5], "mask": [1, 0]},
     "train_output", [True, False]),
    ("scaled_shortcut", {"lam": [1.0, 1.0], "F": [0.1, 0.2], "x0": -0.3}, "x_n", True),
])
def test_known_cancellations_are_exact_zeros(template, params, name, zero_at):
    answers = compute.solve(template, params)["answers"]
    exact = zero_mask(EXACT[template](compute.solve(template, params)["params"])[name])
    assert key_zero_mask(answers[name]) == exact
    if zero_at is not None:
        assert exact == zero_at
