"""Linear residual block y = x + W x with loss L = 1/2 ||y - t||^2 (gradient-propagation, sec. 4).

    forward     y = x + W x
    loss        L = 1/2 ||y - t||^2
    backward    dL/dy = y - t                          (derivative of the square)
                dL/dx = (I + W)^T (y - t)              (vector chain rule, J_y = I + W)
                      = (y - t)          identity path: the skip copies x, so J = I
                      + W^T (y - t)      branch path:   J_F = W
                dL/dW = (y - t) x^T                    (each y_i = ... + sum_j W_ij x_j)

Keys that cancel to zero are snapped at their scale (compute.zeros): the same formulas on
absolute values, e.g. |x| + |W||x| for y.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, mat, num, operand, vec
from compute.zeros import snap

NAME = "linear_residual_block"

# difficulty -> (n range, (low, high, step) for x, W, t)
LEVELS = {
    "easy": ((2, 2), (-3, 3, 1), (-0.5, 0.5, 0.1), (-3, 3, 1)),
    "medium": ((2, 3), (-3, 3, 0.5), (-0.9, 0.9, 0.1), (-3, 3, 0.5)),
    "hard": ((3, 4), (-3, 3, 0.1), (-1, 1, 0.01), (-3, 3, 0.1)),
}


def draw(rng, difficulty):
    (n_lo, n_hi), xs, ws, ts = LEVELS[difficulty]
    n = size(rng, n_lo, n_hi)
    return {"x": grid(rng, *xs, shape=n), "W": grid(rng, *ws, shape=(n, n)),
            "t": grid(rng, *ts, shape=n)}


def degenerate(params):
    x, W, t = params["x"], params["W"], params["t"]
    y = [xi + sum(wij * xj for wij, xj in zip(row, x, strict=True))
         for xi, row in zip(x, W, strict=True)]
    no_branch = all(w == 0 for row in W for w in row)
    return all(v == 0 for v in x) or no_branch or all(abs(a - b) < 1e-9 for a, b in zip(y, t, strict=True))


def check(params):
    r = ParamReader(NAME, params)
    x = r.vector("x")
    n = len(x) if x else None
    W = r.matrix("W", rows=n, cols=n, square=True)
    t = r.vector("t", length=n)
    r.finish()
    return {"x": x, "W": W, "t": t}


def answer(params):
    torch = backend.torch()
    f64 = torch.float64
    x = torch.tensor(params["x"], dtype=f64, requires_grad=True)
    W = torch.tensor(params["W"], dtype=f64, requires_grad=True)
    t = torch.tensor(params["t"], dtype=f64)
    # Two copies of x feed the two paths, so autograd reports each path's share of dL/dx.
    x_identity, x_branch = x.clone(), x.clone()
    y = x_identity + W @ x_branch
    loss = 0.5 * ((y - t) ** 2).sum()
    grad_y, grad_x, grad_identity, grad_branch, grad_W = torch.autograd.grad(
        loss, (y, x, x_identity, x_branch, W))
    s = _scales(torch, params)
    return {
        "y": snap(y.detach(), s["y"]).tolist(),
        "loss": snap(loss.detach(), s["loss"]).item(),
        "grad_y": snap(grad_y, s["r"]).tolist(),
        "grad_x": snap(grad_x, s["r"] + s["WT_r"]).tolist(),
        "grad_x_identity": snap(grad_identity, s["r"]).tolist(),
        "grad_x_branch": snap(grad_branch, s["WT_r"]).tolist(),
        "grad_W": snap(grad_W, s["r"][:, None] * s["x"][None, :]).tolist(),
    }


def _scales(torch, params):
    """Each key's formula on absolute values: a bound of the terms it adds (compute.zeros)."""
    ax, aW, at = (torch.tensor(params[k], dtype=torch.float64).abs() for k in ("x", "W", "t"))
    y = ax + aW @ ax
    r = y + at  # y - t
    return {"x": ax, "Wx": aW @ ax, "y": y, "r": r, "loss": 0.5 * (r**2).sum(),
            "WT_r": aW.T @ r}


def explain(params, answers):
    torch = backend.torch()
    x, W, t = params["x"], params["W"], params["t"]
    n = len(x)
    Wx = snap(torch.tensor(W, dtype=torch.float64) @ torch.tensor(x, dtype=torch.float64),
              _scales(torch, params)["Wx"]).tolist()
    I_plus_W_T = [[(1.0 if i == j else 0.0) + W[j][i] for j in range(n)] for i in range(n)]
    squares = " + ".join(f"({num(y)} - {operand(tt)})^2" for y, tt in zip(answers["y"], t, strict=True))
    v = {
        "x": vec(x), "W": mat(W), "t": vec(t), "Wx": vec(Wx), "y": key(answers["y"]),
        "squares": squares, "loss": key(answers["loss"]), "gy": key(answers["grad_y"]),
        "IWT": mat(I_plus_W_T), "gx": key(answers["grad_x"]),
        "gid": key(answers["grad_x_identity"]), "gbr": key(answers["grad_x_branch"]),
        "WT": mat([list(col) for col in zip(*W, strict=True)]), "gW": key(answers["grad_W"]),
    }
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$y = x + Wx,\quad x = @x,\quad W = @W,\quad t = @t,\quad L = \tfrac12\|y - t\|^2$$"
    prompt = {
        "en": fill("A linear residual block with a squared-error loss:\n\n" + setting, **v),
        "zh": fill("线性残差块，采用平方误差损失：\n\n" + setting, **v),
    }
    steps = (
        r"$$Wx = @Wx,\qquad y = x + Wx = @y$$" "\n\n"
        r"$$L = \tfrac12[@squares] = @loss$$" "\n\n"
        r"$$\nabla_y L = y - t = @gy$$" "\n\n"
        r"$$\nabla_x L = (I + W)^T \nabla_y L = @IWT @gy = @gx$$" "\n\n"
        r"$$\nabla_x L = \underbrace{@gid}_{\nabla_y L} + \underbrace{W^T\nabla_y L}_{@WT @gy = @gbr}$$"
        "\n\n"
        r"$$\nabla_W L = \nabla_y L\, x^T = @gW$$"
    )
    solution = {
        "en": fill("Forward pass, loss, then the vector chain rule with $J_y = I + W$; the "
                   "identity path passes $\\nabla_y L$ unchanged, the branch adds "
                   "$W^T\\nabla_y L$.\n\n" + steps, **v),
        "zh": fill("先前向计算与损失，再用向量链式法则（$J_y = I + W$）；恒等路径原样传回 "
                   "$\\nabla_y L$，残差分支再加上 $W^T\\nabla_y L$。\n\n" + steps, **v),
    }
    return prompt, solution
