"""Jacobians of Pre-LN and Post-LN residual blocks (gradient-propagation 6.2), branch F(z) = W z.

    LN(z) = (z - mean z) / sqrt(var z + eps)          population variance, no affine params
    J_LN(z) = (I - 11^T/d - zhat zhat^T/d) / sigma     sigma = sqrt(var z + eps), zhat = LN(z)
    Pre-LN    y = x + F(LN(x))     J_pre  = I + W J_LN(x)             (the identity term survives)
    Post-LN   y = LN(x + F(x))     J_post = J_LN(x + W x) (I + W)     (LN sits on the skip path)

torch differentiates both blocks with torch.autograd.functional.jacobian (the answers); the worked
solution shows the closed form above, and the tests check it against torch and finite differences.
Every difficulty uses d >= 4 and eps <= 1e-3: at d = 2 LayerNorm's output is +-1 whatever the
input, its Jacobian is an eps artefact, and Post-LN looks as if it destroyed the gradient.
Entries that cancel to zero are snapped at their scale (compute.zeros):
|J_LN(z)| <= (|I - 11^T/d| + |zhat||zhat|^T/d) / sigma entry-wise.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, key, mat, num, vec
from compute.zeros import snap

NAME = "prenorm_postnorm_jacobian"

# difficulty -> (d range, x grid, W grid, eps choices): the work grows with the numbers' digits
LEVELS = {
    "easy": ((4, 4), (-3, 3, 1), (-0.5, 0.5, 0.1), (1e-5,)),
    "medium": ((4, 4), (-2, 2, 0.5), (-0.9, 0.9, 0.1), (1e-5, 1e-3)),
    "hard": ((4, 4), (-2, 2, 0.01), (-1, 1, 0.01), (1e-6, 1e-5, 1e-3)),
}


def draw(rng, difficulty):
    (lo, hi), xs, ws, eps_choices = LEVELS[difficulty]
    d = size(rng, lo, hi)
    return {"x": grid(rng, *xs, shape=d), "W": grid(rng, *ws, shape=(d, d)),
            "eps": pick(rng, eps_choices)}


def _spread(z) -> float:
    mean = sum(z) / len(z)
    return sum((v - mean) ** 2 for v in z) / len(z)


def degenerate(params):
    # A constant input makes LN's output 0 whatever the input direction: nothing to learn.
    x, W = params["x"], params["W"]
    u = [xi + sum(w * xj for w, xj in zip(row, x, strict=True)) for xi, row in zip(x, W, strict=True)]
    return _spread(x) < 1e-3 or _spread(u) < 1e-3 or all(w == 0 for row in W for w in row)


def check(params):
    r = ParamReader(NAME, params)
    x = r.vector("x")
    if x is not None and len(x) < 2:
        r.fail("x", "needs at least 2 entries (LayerNorm of one number is constant)")
        x = None
    n = len(x) if x else None
    W = r.matrix("W", rows=n, cols=n, square=True)
    eps = r.number("eps", lo=0, lo_open=True, hi=10)
    r.finish()
    return {"x": x, "W": W, "eps": eps}


def layer_norm(z, eps):
    centered = z - z.mean()
    variance = (centered**2).mean()  # population variance, as nn.LayerNorm
    return centered / (variance + eps).sqrt()


def answer(params):
    torch = backend.torch()
    jacobian = torch.autograd.functional.jacobian
    x = torch.tensor(params["x"], dtype=torch.float64)
    W = torch.tensor(params["W"], dtype=torch.float64)
    eps = params["eps"]
    J_pre = jacobian(lambda z: z + W @ layer_norm(z, eps), x, vectorize=True)
    J_post = jacobian(lambda z: layer_norm(z + W @ z, eps), x, vectorize=True)
    eye, aW = torch.eye(len(x), dtype=torch.float64), W.abs()
    return {"J_pre": snap(J_pre, eye + aW @ _jacobian_scale(torch, x, eps)).tolist(),
            "J_post": snap(J_post, _jacobian_scale(torch, x + W @ x, eps) @ (eye + aW)).tolist()}


def _jacobian_scale(torch, z, eps):
    """Entry-wise bound of the terms of J_LN(z): (|I - 11^T/d| + |zhat||zhat|^T/d) / sigma."""
    d = len(z)
    sigma = (z.var(unbiased=False) + eps).sqrt()
    zhat = ((z - z.mean()) / sigma).abs()
    eye = torch.eye(d, dtype=torch.float64)
    return ((eye - 1 / d).abs() + torch.outer(zhat, zhat) / d) / sigma


def _intermediates(params):
    """The values the worked solution shows, from the closed form in the docstring (numpy);
    the tests check that they agree with torch's answers."""
    import numpy as np

    x, W, eps = np.array(params["x"]), np.array(params["W"]), params["eps"]

    torch = backend.torch()

    def ln_and_jacobian(z):
        d, sigma = len(z), np.sqrt(z.var() + eps)
        zhat = (z - z.mean()) / sigma
        J = (np.eye(d) - np.ones((d, d)) / d - np.outer(zhat, zhat) / d) / sigma
        return zhat, sigma, snap(J, _jacobian_scale(torch, torch.as_tensor(z), eps)).numpy()

    u = snap(x + W @ x, np.abs(x) + np.abs(W) @ np.abs(x)).numpy()
    ln_x, sigma_x, J_ln_x = ln_and_jacobian(x)
    _, sigma_u, J_ln_u = ln_and_jacobian(u)
    return {"lnx": ln_x.tolist(), "Jlnx": J_ln_x.tolist(), "u": u.tolist(),
            "Jlnu": J_ln_u.tolist(), "IW": (np.eye(len(x)) + W).tolist(),
            "sx": float(sigma_x), "su": float(sigma_u)}


def explain(params, answers):
    m = _intermediates(params)
    v = {"x": vec(params["x"]), "W": mat(params["W"]), "eps": num(params["eps"]),
         "lnx": vec(m["lnx"]), "Jlnx": mat(m["Jlnx"]), "u": vec(m["u"]), "Jlnu": mat(m["Jlnu"]),
         "IW": mat(m["IW"]), "sx": num(m["sx"]), "su": num(m["su"]),
         "Jpre": key(answers["J_pre"]), "Jpost": key(answers["J_post"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$x = @x,\quad W = @W,\quad \epsilon = @eps$$"
    defs = (r"$\mathrm{LN}(z) = (z - \bar z)/\sqrt{\mathrm{Var}(z) + \epsilon}$, $F(z) = Wz$")
    blocks = {"en": "Pre-LN block $y = x + F(\\mathrm{LN}(x))$ (Jacobian $J_{pre}$), Post-LN "
                    "block $y = \\mathrm{LN}(x + F(x))$ (Jacobian $J_{post}$).",
              "zh": "Pre-LN 块 $y = x + F(\\mathrm{LN}(x))$（雅可比矩阵 $J_{pre}$），Post-LN 块 "
                    "$y = \\mathrm{LN}(x + F(x))$（雅可比矩阵 $J_{post}$）。"}
    prompt = {
        "en": fill("LayerNorm without affine parameters, population variance: " + defs + ".\n\n"
                   + setting + "\n\n" + blocks["en"], **v),
        "zh": fill("LayerNorm 不含仿射参数、使用总体方差：" + defs + "。\n\n" + setting
                   + "\n\n" + blocks["zh"], **v),
    }
    steps = (
        r"$$J_{\mathrm{LN}}(z) = \frac{1}{\sigma}\Big(I - \tfrac1d\mathbf 1\mathbf 1^T"
        r" - \tfrac1d\hat z\hat z^T\Big),\quad \sigma = \sqrt{\mathrm{Var}(z)+\epsilon},"
        r"\ \hat z = \mathrm{LN}(z)$$" "\n\n"
        r"$$\sigma_x = @sx,\quad \mathrm{LN}(x) = @lnx,\quad J_{\mathrm{LN}}(x) = @Jlnx$$" "\n\n"
        r"$$J_{pre} = I + W J_{\mathrm{LN}}(x) = @Jpre$$" "\n\n"
        r"$$u = x + Wx = @u,\quad \sigma_u = @su,\quad J_{\mathrm{LN}}(u) = @Jlnu$$" "\n\n"
        r"$$J_{post} = J_{\mathrm{LN}}(u)(I + W) = @Jlnu @IW = @Jpost$$"
    )
    solution = {
        "en": fill("Chain rule through each block. Pre-LN keeps an identity term $I$; in "
                   "Post-LN every path, the skip included, passes through $J_{\\mathrm{LN}}$.\n\n"
                   + steps, **v),
        "zh": fill("对每个块用链式法则。Pre-LN 保留单位矩阵项 $I$；Post-LN 中包括恒等路径在内的"
                   "所有路径都要经过 $J_{\\mathrm{LN}}$。\n\n" + steps, **v),
    }
    return prompt, solution
