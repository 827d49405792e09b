"""Scaled shortcuts, the Identity Mappings ablation (He et al. 2016, sec. 3): x_{i+1} = lambda_i x_i
+ F_i, with the branch outputs F_i held fixed (scalars).

    unrolled   x_n = (prod_i lambda_i) x_0 + sum_i (prod_{j > i} lambda_j) F_i
    shortcut   d x_n / d x_0 = prod_i lambda_i          (the shortcut path's gradient factor)

With identity shortcuts (every lambda_i = 1) the factor is 1 at any depth; with lambda_i > 1 it
explodes and with lambda_i < 1 it vanishes exponentially: the paper's analysis of why its
constant-scaling, gating and 1x1-convolution shortcuts were harder to optimize than identity
shortcuts. Scaling the branch instead (x + beta F) leaves the factor at 1.

torch runs the n blocks and differentiates x_n with respect to x_0 (the answers); the tests hold
them to the closed forms above. x_n can cancel to zero and is snapped at its scale, the same
recursion on absolute values (compute.zeros); the factor is a product and needs no snapping.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, num, seq
from compute.zeros import snap_float

NAME = "scaled_shortcut"
MAX_UNITS = 200
MAX_LAMBDA = 10.0

# difficulty -> (units, lambda grid, F grid, x0 grid)
LEVELS = {
    "easy": ((3, 3), (0.5, 1.5, 0.5), (-2, 2, 1), (-3, 3, 1)),
    "medium": ((5, 5), (0.5, 1.5, 0.1), (-2, 2, 0.5), (-3, 3, 0.5)),
    "hard": ((8, 8), (0.6, 1.4, 0.05), (-2, 2, 0.1), (-3, 3, 0.1)),
}


def draw(rng, difficulty):
    (lo, hi), lams, fs, xs = LEVELS[difficulty]
    n = size(rng, lo, hi)
    return {"lam": grid(rng, *lams, shape=n), "F": grid(rng, *fs, shape=n), "x0": grid(rng, *xs)}


def degenerate(params):
    # All-identity shortcuts hide the product; x0 = 0 hides it in the forward value.
    return all(lam == 1 for lam in params["lam"]) or params["x0"] == 0


def check(params):
    r = ParamReader(NAME, params)
    lam = r.vector("lam", max_len=MAX_UNITS)
    if lam is not None and any(abs(v) > MAX_LAMBDA for v in lam):
        r.fail("lam", f"entries must lie in [-{MAX_LAMBDA:g}, {MAX_LAMBDA:g}]")
        lam = None
    F = r.vector("F", length=len(lam) if lam else None, max_len=MAX_UNITS)
    x0 = r.number("x0", lo=-1e6, hi=1e6)
    r.finish()
    return {"lam": lam, "F": F, "x0": x0}


def answer(params):
    torch = backend.torch()
    x0 = torch.tensor(params["x0"], dtype=torch.float64, requires_grad=True)
    x, scale = x0, abs(params["x0"])
    for lam, F in zip(params["lam"], params["F"], strict=True):
        x = lam * x + F  # F_i held fixed: only the shortcut carries x_0
        scale = abs(lam) * scale + abs(F)
    (factor,) = torch.autograd.grad(x, x0)
    return {"x_n": snap_float(x.item(), scale), "shortcut_factor": factor.item()}


def explain(params, answers):
    lam, F = params["lam"], params["F"]
    xs, x, scale = [], params["x0"], abs(params["x0"])
    for la, f in zip(lam, F, strict=True):
        x, scale = la * x + f, abs(la) * scale + abs(f)
        xs.append(snap_float(x, scale))
    v = {"lam": seq(lam), "F": seq(F), "x0": num(params["x0"]), "n": str(len(lam)),
         "xs": seq(xs[:-1] + [answers["x_n"]]),
         "prod": r" \cdot ".join(num(la) for la in lam), "xn": key(answers["x_n"]),
         "factor": key(answers["shortcut_factor"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$\lambda = @lam,\quad F = @F,\quad x_0 = @x0$$"
    prompt = {
        "en": fill(r"@n residual units with scaled shortcuts, $x_{i+1} = \lambda_i x_i + F_i$ "
                   r"(scalars; the branch outputs $F_i$ are held fixed):" "\n\n" + setting, **v),
        "zh": fill(r"@n 个快捷连接被缩放的残差单元，$x_{i+1} = \lambda_i x_i + F_i$"
                   r"（标量；分支输出 $F_i$ 视为固定）：" "\n\n" + setting, **v),
    }
    steps = (r"$$x_1, \dots, x_{@n} = @xs,\qquad x_{@n} = @xn$$" "\n\n"
             r"$$\frac{\partial x_{@n}}{\partial x_0} = \prod_i \lambda_i = @prod = @factor$$")
    solution = {
        "en": fill("Run the units one after the other; only the shortcut carries $x_0$, so its "
                   "gradient factor is the product of the $\\lambda_i$ (1 for identity "
                   "shortcuts, exponential in depth otherwise).\n\n" + steps, **v),
        "zh": fill("逐个计算各单元；只有快捷连接携带 $x_0$，所以它的梯度因子是各 $\\lambda_i$ 的"
                   "乘积（恒等快捷连接为 1，否则随深度指数变化）。\n\n" + steps, **v),
    }
    return prompt, solution
