"""Jacobians of Pre-LN and Post-LN residual blocks (gradient-propagation 6.2), branch F(z) = W z.

    LN(z) = (z - mean z) / sqrt(var z + eps)          population variance, no affine params
    J_LN(z) = (I - 11^T/d - zhat zhat^T/d) / sigma     sigma = sqrt(var z + eps), zhat = LN(z)
    Pre-LN    y = x + F(LN(x))     J_pre  = I + W J_LN(x)             (the identity term survives)
    Post-LN   y = LN(x + F(x))     J_post = J_LN(x + W x) (I + W)     (LN sits on the skip path)

torch differentiates both blocks with torch.autograd.functional.jacobian (the answers); the worked
solution shows the closed form above, and the tests check it against torch and finite differences.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, mat, num, vec

NAME = "prenorm_postnorm_jacobian"

# difficulty -> (d range, x grid, W grid, eps choices)
LEVELS = {
    "easy": ((2, 2), (-3, 3, 1), (-0.5, 0.5, 0.1), (0.25, 0.5, 1.0)),
    "medium": ((3, 3), (-2, 2, 0.5), (-0.9, 0.9, 0.1), (0.01, 0.1)),
    "hard": ((3, 4), (-2, 2, 0.01), (-1, 1, 0.01), (1e-5, 1e-3, 0.01)),
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
    J_pre = jacobian(lambda z: z + W @ layer_norm(z, eps), x)
    J_post = jacobian(lambda z: layer_norm(z + W @ z, eps), x)
    return {"J_pre": J_pre.tolist(), "J_post": J_post.tolist()}


def _intermediates(params):
    """The values the worked solution shows, from the closed form in the docstring (numpy);
    the tests check that they agree with torch's answers."""
    import numpy as np

    x, W, eps = np.array(params["x"]), np.array(params["W"]), params["eps"]

    def ln_and_jacobian(z):
        d, sigma = len(z), np.sqrt(z.var() + eps)
        zhat = (z - z.mean()) / sigma
        return zhat, sigma, (np.eye(d) - np.ones((d, d)) / d - np.outer(zhat, zhat) / d) / sigma

    u = x + W @ x
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
         "Jpre": mat(answers["J_pre"]), "Jpost": mat(answers["J_post"])}
    setting = r"$$x = @x,\quad W = @W,\quad \epsilon = @eps$$"
    defs = (r"$\mathrm{LN}(z) = (z - \bar z)/\sqrt{\mathrm{Var}(z) + \epsilon}$, $F(z) = Wz$")
    prompt = {
        "en": fill("LayerNorm without affine parameters, population variance: " + defs + ".\n\n"
                   + setting + "\n\nCompute the Jacobian $\\partial y/\\partial x$ of the Pre-LN "
                   "block $y = x + F(\\mathrm{LN}(x))$ ($J_{pre}$) and of the Post-LN block "
                   "$y = \\mathrm{LN}(x + F(x))$ ($J_{post}$).", **v),
        "zh": fill("LayerNorm 不含仿射参数、使用总体方差：" + defs + "。\n\n" + setting +
                   "\n\n求 Pre-LN 模块 $y = x + F(\\mathrm{LN}(x))$ 的雅可比矩阵 $J_{pre}$ 与 "
                   "Post-LN 模块 $y = \\mathrm{LN}(x + F(x))$ 的雅可比矩阵 $J_{post}$。", **v),
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
        "zh": fill("对每个模块用链式法则。Pre-LN 保留单位矩阵项 $I$；Post-LN 中包括恒等路径在内的"
                   "所有路径都要经过 $J_{\\mathrm{LN}}$。\n\n" + steps, **v),
    }
    return prompt, solution
