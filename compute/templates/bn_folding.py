"""Folding an inference-mode BatchNorm into the linear layer before it (normalization).

A linear layer (or a 1x1 convolution) z = W x + b followed by BatchNorm in eval mode,

    y_i = gamma_i (z_i - mu_i) / sqrt(var_i + eps) + beta_i,

is one affine map y = W' x + b' with, row by row (s_i = sqrt(var_i + eps)):

    W'_i = gamma_i W_i / s_i,        b'_i = gamma_i (b_i - mu_i) / s_i + beta_i.

For a k x k convolution the same holds per output channel (W_i is that channel's filter). torch
builds the real modules (nn.Linear, nn.BatchNorm1d in eval mode with the given running
statistics) and reads W' as the Jacobian of the composed map (autograd) and b' as its value at
x = 0. b' adds terms that may cancel; it is snapped at its scale
|gamma| (|b| + |mu|) / s + |beta| (compute.zeros). W' is a product: no snapping.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick
from compute.texfmt import fill, key, mat, num, operand, vec
from compute.zeros import snap

NAME = "bn_folding"
MAX_ABS = 1e6
MAX_DIM = 8

# difficulty -> (d_in, d_out, weight grid, gamma grid, variance choices or grid, eps)
LEVELS = {
    "easy": (2, 2, (-3, 3, 1), (0.5, 2, 0.5), (0.25, 1.0, 4.0), 0.0),
    "medium": (3, 2, (-2, 2, 0.5), (0.5, 2, 0.1), (0.25, 0.64, 1.0, 1.44, 2.25, 4.0), 0.0),
    "hard": (3, 2, (-2, 2, 0.1), (-2, 2, 0.1), (0.1, 4, 0.01), 1e-5),
}


def draw(rng, difficulty):
    d_in, d_out, weights, gammas, variances, eps = LEVELS[difficulty]
    step = weights[2]
    if difficulty == "hard":
        var = grid(rng, *variances, shape=d_out)
    else:
        var = [pick(rng, variances) for _ in range(d_out)]
    return {"W": grid(rng, *weights, shape=(d_out, d_in)), "b": grid(rng, -2, 2, step, shape=d_out),
            "gamma": grid(rng, *gammas, shape=d_out), "beta": grid(rng, -1, 1, step, shape=d_out),
            "mean": grid(rng, -2, 2, step, shape=d_out), "var": var, "eps": eps}


def degenerate(params):
    # gamma = 0 switches a channel off; an all-zero weight row has nothing to fold.
    return 0 in params["gamma"] or any(not any(row) for row in params["W"])


def check(params):
    r = ParamReader(NAME, params)
    W = r.matrix("W", max_dim=MAX_DIM)
    d_out = None if W is None else len(W)
    out = {"W": W, "b": r.vector("b", length=d_out), "gamma": r.vector("gamma", length=d_out),
           "beta": r.vector("beta", length=d_out), "mean": r.vector("mean", length=d_out),
           "var": r.vector("var", length=d_out), "eps": r.number("eps", lo=0, hi=1)}
    if out["var"] is not None and min(out["var"]) < 0:
        r.fail("var", "a variance cannot be negative")
    elif out["var"] is not None and out["eps"] is not None and min(out["var"]) + out["eps"] <= 0:
        r.fail("eps", "must be positive when a running variance is 0 (var + eps is a divisor)")
    r.finish()
    return out


def answer(params):
    torch = backend.torch()
    t = {k: torch.tensor(params[k], dtype=torch.float64)
         for k in ("W", "b", "gamma", "beta", "mean", "var")}
    d_out, d_in = t["W"].shape
    linear = torch.nn.Linear(d_in, d_out, dtype=torch.float64)
    bn = torch.nn.BatchNorm1d(d_out, eps=params["eps"], dtype=torch.float64)
    with torch.no_grad():
        linear.weight.copy_(t["W"])
        linear.bias.copy_(t["b"])
        bn.weight.copy_(t["gamma"])
        bn.bias.copy_(t["beta"])
        bn.running_mean.copy_(t["mean"])
        bn.running_var.copy_(t["var"])
    bn.eval()

    def layer(x):
        return bn(linear(x.view(1, -1))).view(-1)

    zero = torch.zeros(d_in, dtype=torch.float64)
    W_fold = torch.autograd.functional.jacobian(layer, zero)
    with torch.no_grad():
        b_fold = layer(zero)
    s = torch.sqrt(t["var"] + params["eps"])
    scale = t["gamma"].abs() * (t["b"].abs() + t["mean"].abs()) / s + t["beta"].abs()
    return {"W_fold": W_fold.tolist(), "b_fold": snap(b_fold, scale, terms=3).tolist()}


def explain(params, answers):
    eps, var = params["eps"], params["var"]
    s = [(v + eps) ** 0.5 for v in var]
    rows = []
    for i, (g, bi, mu, be) in enumerate(zip(params["gamma"], params["b"], params["mean"],
                                            params["beta"], strict=True)):
        rows.append(fill(r"$$W'_{@i} = \frac{@g}{@s}\,W_{@i},\qquad "
                         r"b'_{@i} = \frac{@g\,(@b - @mu)}{@s} + @be = @bf$$",
                         i=str(i + 1), g=num(g), s=num(s[i], 6), b=num(bi), mu=operand(mu),
                         be=operand(be), bf=key(answers["b_fold"][i])))
    eps_text = "0" if eps == 0 else num(eps)
    v = {"W": mat(params["W"]), "b": vec(params["b"]), "g": vec(params["gamma"]),
         "be": vec(params["beta"]), "mu": vec(params["mean"]), "var": vec(var), "eps": eps_text,
         "Wf": key(answers["W_fold"]), "bf": key(answers["b_fold"]), "rows": "\n\n".join(rows)}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill("A linear layer $z = Wx + b$ is followed by BatchNorm in inference (eval) mode, "
                   r"$y_i = \gamma_i (z_i - \mu_i)/\sqrt{\sigma_i^2 + \epsilon} + \beta_i$, with "
                   "$W = @W$, $b = @b$, $\\gamma = @g$, $\\beta = @be$, running mean $\\mu = @mu$, "
                   "running variance $\\sigma^2 = @var$ and $\\epsilon = @eps$.", **v),
        "zh": fill("线性层 $z = Wx + b$ 之后接推理（eval）模式的 BatchNorm，"
                   r"$y_i = \gamma_i (z_i - \mu_i)/\sqrt{\sigma_i^2 + \epsilon} + \beta_i$，其中 "
                   "$W = @W$，$b = @b$，$\\gamma = @g$，$\\beta = @be$，滑动平均均值 $\\mu = @mu$，"
                   "滑动平均方差 $\\sigma^2 = @var$，$\\epsilon = @eps$。", **v),
    }
    tail = "\n\n" + r"$$W' = @Wf,\qquad b' = @bf$$"
    solution = {
        "en": fill("Row $i$ of $W$ and entry $i$ of $b$ are scaled by "
                   r"$\gamma_i/\sqrt{\sigma_i^2+\epsilon}$; the bias also absorbs the mean and "
                   r"$\beta$:" "\n\n@rows" + tail, **v),
        "zh": fill("$W$ 的第 $i$ 行与 $b$ 的第 $i$ 个分量都乘以 "
                   r"$\gamma_i/\sqrt{\sigma_i^2+\epsilon}$；偏置还吸收了均值和 $\beta$：" "\n\n@rows"
                   + tail, **v),
    }
    return prompt, solution
