"""Scaled residual y = x + alpha F(x) with F(x) = W x (gradient-propagation sec. 7).

    J      = dy/dx = I + alpha W          (identity path + scaled branch)
    grad_x = J^T g                        g = dL/dy, the upstream gradient

Entries that cancel to zero (1 + alpha W_ii = 0, sums in J^T g) are snapped at their scale
(compute.zeros): I + |alpha||W| for J, (I + |alpha||W|)^T |g| for grad_x.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, mat, num, vec
from compute.zeros import snap

NAME = "residual_scaling"
MAX_ALPHA = 100.0

# difficulty -> (d range, alpha grid, W grid, g grid)
LEVELS = {
    "easy": ((2, 2), (0.1, 1, 0.1), (-2, 2, 1), (-3, 3, 1)),
    "medium": ((2, 3), (0.05, 1, 0.05), (-1, 1, 0.1), (-3, 3, 0.5)),
    "hard": ((3, 4), (0.01, 2, 0.01), (-1, 1, 0.01), (-2, 2, 0.1)),
}


def draw(rng, difficulty):
    (lo, hi), alphas, ws, gs = LEVELS[difficulty]
    d = size(rng, lo, hi)
    return {"alpha": grid(rng, *alphas), "W": grid(rng, *ws, shape=(d, d)),
            "g": grid(rng, *gs, shape=d)}


def degenerate(params):
    return (params["alpha"] == 0 or all(v == 0 for v in params["g"])
            or all(w == 0 for row in params["W"] for w in row))


def check(params):
    r = ParamReader(NAME, params)
    alpha = r.number("alpha", lo=-MAX_ALPHA, hi=MAX_ALPHA)
    g = r.vector("g")
    n = len(g) if g else None
    W = r.matrix("W", rows=n, cols=n, square=True)
    r.finish()
    return {"alpha": alpha, "W": W, "g": g}


def answer(params):
    torch = backend.torch()
    W = torch.tensor(params["W"], dtype=torch.float64)
    g = torch.tensor(params["g"], dtype=torch.float64)
    alpha = params["alpha"]
    # The block is linear, so its Jacobian is the same at every x; take x = 0.
    x = torch.zeros(len(params["g"]), dtype=torch.float64, requires_grad=True)
    J = torch.autograd.functional.jacobian(lambda z: z + alpha * (W @ z), x, vectorize=True)
    y = x + alpha * (W @ x)
    (grad_x,) = torch.autograd.grad(y, x, grad_outputs=g)  # the vector-Jacobian product J^T g
    scale_J = torch.eye(len(g), dtype=torch.float64) + abs(alpha) * W.abs()
    return {"J": snap(J, scale_J).tolist(), "grad_x": snap(grad_x, scale_J.T @ g.abs()).tolist()}


def explain(params, answers):
    J = answers["J"]
    v = {"alpha": num(params["alpha"]), "W": mat(params["W"]), "g": vec(params["g"]),
         "J": key(J), "JT": mat([list(col) for col in zip(*J, strict=True)]),
         "gx": key(answers["grad_x"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$\alpha = @alpha,\quad W = @W,\quad g = \nabla_y L = @g$$"
    prompt = {
        "en": fill("A scaled residual block computes $y = x + \\alpha F(x)$ with $F(x) = Wx$; "
                   "$g$ is the upstream gradient.\n\n" + setting, **v),
        "zh": fill("缩放残差块计算 $y = x + \\alpha F(x)$，其中 $F(x) = Wx$；$g$ 是上游梯度。\n\n"
                   + setting, **v),
    }
    steps = (r"$$J = I + \alpha W = @J$$" "\n\n"
             r"$$\nabla_x L = J^T g = @JT @g = @gx$$")
    solution = {
        "en": fill("The identity path gives $I$; the branch gives $\\alpha J_F = \\alpha W$.\n\n"
                   + steps, **v),
        "zh": fill("恒等路径贡献 $I$，残差分支贡献 $\\alpha J_F = \\alpha W$。\n\n" + steps, **v),
    }
    return prompt, solution
