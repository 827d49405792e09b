"""LayerNorm and RMSNorm outputs and Jacobian-vector products (no affine parameters).

    LN(z)   = (z - mean z) / sigma,   sigma = sqrt(Var z + eps)      population variance
    J_LN v  = (v - mean(v) 1 - zhat (zhat . v) / d) / sigma           zhat = LN(z)
    RMS(z)  = z / r,                  r = sqrt(mean(z^2) + eps)
    J_RMS v = (v - zr (zr . v) / d) / r                               zr = RMS(z)

Both Jacobians are symmetric, so J v is also the gradient J^T v that flows back through the
normalization when v is the upstream gradient. J_LN removes the mean direction 1 and, up to eps,
the direction zhat: J_LN 1 = 0 and J_LN zhat = eps zhat / sigma^3. That is LN(alpha z) = LN(z)
seen from the gradient: it is (nearly) orthogonal to z. RMSNorm keeps the mean direction and
removes only zr (J_RMS zr = eps zr / r^3).

torch computes the outputs and the products J v (torch.autograd.functional.jvp, by the
double-backward trick); the tests hold them to the closed forms above and to finite differences.
Entries that cancel to zero are snapped at their scale (compute.zeros), e.g. (|v| + mean|v| + |zhat| (|zhat| . |v|) / d) / sigma.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, key, num, vec
from compute.zeros import snap

NAME = "norm_jacobian_vector"
MAX_EPS = 1e-3  # a larger eps blurs the null-space picture (and real models use 1e-5 or 1e-6)

# difficulty -> (d range, z grid, v grid, eps choices)
LEVELS = {
    "easy": ((4, 4), (-3, 3, 1), (-2, 2, 1), (1e-5,)),
    "medium": ((4, 4), (-2, 2, 0.5), (-2, 2, 0.5), (1e-5, 1e-3)),
    "hard": ((5, 6), (-2, 2, 0.1), (-1, 1, 0.1), (1e-6, 1e-5, 1e-3)),
}


def draw(rng, difficulty):
    (lo, hi), zs, vs, eps_choices = LEVELS[difficulty]
    d = size(rng, lo, hi)
    return {"z": grid(rng, *zs, shape=d), "v": grid(rng, *vs, shape=d),
            "eps": pick(rng, eps_choices)}


def _spread(z) -> float:
    mean = sum(z) / len(z)
    return sum((x - mean) ** 2 for x in z) / len(z)


def degenerate(params):
    # A (nearly) constant z has no direction for LN to normalize; v = 0 makes both products 0.
    return _spread(params["z"]) < 0.1 or all(x == 0 for x in params["v"])


def check(params):
    r = ParamReader(NAME, params)
    z = r.vector("z")
    if z is not None and len(z) < 2:
        r.fail("z", "needs at least 2 entries (LayerNorm of one number is constant)")
        z = None
    v = r.vector("v", length=len(z) if z else None)
    eps = r.number("eps", lo=0, lo_open=True, hi=MAX_EPS)
    r.finish()
    return {"z": z, "v": v, "eps": eps}


def layer_norm(z, eps):
    centered = z - z.mean()
    return centered / ((centered**2).mean() + eps).sqrt()  # population variance, as nn.LayerNorm


def rms_norm(z, eps):
    return z / ((z**2).mean() + eps).sqrt()  # as nn.RMSNorm


def answer(params):
    torch = backend.torch()
    z = torch.tensor(params["z"], dtype=torch.float64)
    v = torch.tensor(params["v"], dtype=torch.float64)
    eps = params["eps"]
    ln, ln_jvp = torch.autograd.functional.jvp(lambda t: layer_norm(t, eps), z, v)
    rms, rms_jvp = torch.autograd.functional.jvp(lambda t: rms_norm(t, eps), z, v)
    s = _scales(torch, z, v, eps)
    return {"ln": snap(ln, s["ln"]).tolist(), "ln_jvp": snap(ln_jvp, s["ln_jvp"]).tolist(),
            "rms": rms.tolist(), "rms_jvp": snap(rms_jvp, s["rms_jvp"]).tolist()}


def _scales(torch, z, v, eps):
    """Each key's formula on absolute values (compute.zeros). RMS(z) = z / r needs none: it is 0
    exactly where z is."""
    d = len(z)
    sigma = (z.var(unbiased=False) + eps).sqrt()
    r = ((z**2).mean() + eps).sqrt()
    zhat, zr, av = (layer_norm(z, eps)).abs(), (z / r).abs(), v.abs()
    return {"ln": (z.abs() + z.abs().mean()) / sigma,
            "ln_jvp": (av + av.mean() + zhat * (zhat @ av) / d) / sigma,
            "rms_jvp": (av + zr * (zr @ av) / d) / r}


def explain(params, answers):
    import numpy as np

    z, v, eps = np.array(params["z"]), np.array(params["v"]), params["eps"]
    d = len(z)
    sigma, r = np.sqrt(z.var() + eps), np.sqrt((z**2).mean() + eps)
    zhat, zr = np.array(answers["ln"]), np.array(answers["rms"])
    vals = {"z": vec(params["z"]), "v": vec(params["v"]), "eps": num(eps), "d": str(d),
            "mean": num(z.mean()), "var": num(z.var()), "sigma": num(sigma),
            "ms": num((z**2).mean()), "r": num(r), "vbar": num(v.mean()),
            "zv": num(float(zhat @ v)), "zrv": num(float(zr @ v)),
            "ln": key(answers["ln"]), "lnjvp": key(answers["ln_jvp"]),
            "rms": key(answers["rms"]), "rmsjvp": key(answers["rms_jvp"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes); what
    # J and v are is said by the question that asks for J v, not here (issue 30).
    setting = r"$$z = @z,\quad v = @v,\quad \epsilon = @eps$$"
    ln_def = r"$\mathrm{LN}(z) = (z - \bar z)/\sqrt{\mathrm{Var}(z) + \epsilon}$"
    rms_def = r"$\mathrm{RMSNorm}(z) = z/\sqrt{\overline{z^2} + \epsilon}$"
    prompt = {
        "en": fill("LayerNorm and RMSNorm without affine parameters: " + ln_def + " (population "
                   "variance), " + rms_def + ".\n\n" + setting, **vals),
        "zh": fill("不含仿射参数的 LayerNorm 与 RMSNorm：" + ln_def + "（总体方差），" + rms_def
                   + "。\n\n" + setting, **vals),
    }
    steps = (
        r"$$\bar z = @mean,\quad \mathrm{Var}(z) = @var,\quad \sigma = @sigma,\quad "
        r"\hat z = \mathrm{LN}(z) = @ln$$" "\n\n"
        r"$$\bar v = @vbar,\quad \hat z \cdot v = @zv,\quad J_{\mathrm{LN}}v = "
        r"\frac{1}{\sigma}\Big(v - \bar v\,\mathbf 1 - \tfrac{1}{@d}\hat z\,(\hat z\cdot v)\Big) "
        r"= @lnjvp$$" "\n\n"
        r"$$\overline{z^2} = @ms,\quad r = @r,\quad z_r = \mathrm{RMSNorm}(z) = @rms$$" "\n\n"
        r"$$z_r \cdot v = @zrv,\quad J_{\mathrm{RMS}}v = \frac{1}{r}\Big(v - \tfrac{1}{@d}z_r\,"
        r"(z_r\cdot v)\Big) = @rmsjvp$$"
    )
    solution = {
        "en": fill("Differentiate $z/\\sigma(z)$: LayerNorm's Jacobian removes the mean direction "
                   "$\\mathbf 1$ and the direction $\\hat z$ of its own output; RMSNorm does not "
                   "centre, so it removes only $z_r$.\n\n" + steps, **vals),
        "zh": fill("对 $z/\\sigma(z)$ 求导：LayerNorm 的雅可比矩阵去掉均值方向 $\\mathbf 1$ 和自身"
                   "输出方向 $\\hat z$；RMSNorm 不减均值，只去掉 $z_r$ 方向。\n\n" + steps, **vals),
    }
    return prompt, solution
