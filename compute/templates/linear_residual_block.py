"""Linear residual block y = x + W x with loss L = 1/2 ||y - t||^2 (gradient-propagation, sec. 4).

    forward     y = x + W x
    loss        L = 1/2 ||y - t||^2
    backward    dL/dy = y - t                          (derivative of the square)
                dL/dx = (I + W)^T (y - t)              (vector chain rule, J_y = I + W)
                      = (y - t)          identity path: the skip copies x, so J = I
                      + W^T (y - t)      branch path:   J_F = W
                dL/dW = (y - t) x^T                    (each y_i = ... + sum_j W_ij x_j)
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, mat, num, vec

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
    return {
        "y": y.detach().tolist(),
        "loss": loss.item(),
        "grad_y": grad_y.tolist(),
        "grad_x": grad_x.tolist(),
        "grad_x_identity": grad_identity.tolist(),
        "grad_x_branch": grad_branch.tolist(),
        "grad_W": grad_W.tolist(),
    }


def explain(params, answers):
    x, W, t = params["x"], params["W"], params["t"]
    n = len(x)
    Wx = [sum(W[i][j] * x[j] for j in range(n)) for i in range(n)]
    I_plus_W_T = [[(1.0 if i == j else 0.0) + W[j][i] for j in range(n)] for i in range(n)]
    squares = " + ".join(f"({num(y)} - {num(tt)})^2" for y, tt in zip(answers["y"], t, strict=True))
    v = {
        "x": vec(x), "W": mat(W), "t": vec(t), "Wx": vec(Wx), "y": vec(answers["y"]),
        "squares": squares, "loss": num(answers["loss"]), "gy": vec(answers["grad_y"]),
        "IWT": mat(I_plus_W_T), "gx": vec(answers["grad_x"]),
        "gid": vec(answers["grad_x_identity"]), "gbr": vec(answers["grad_x_branch"]),
        "WT": mat([list(col) for col in zip(*W, strict=True)]), "gW": mat(answers["grad_W"]),
    }
    setting = r"$$y = x + Wx,\quad x = @x,\quad W = @W,\quad t = @t,\quad L = \tfrac12\|y - t\|^2$$"
    prompt = {
        "en": fill("A linear residual block with a squared-error loss:\n\n" + setting + "\n\n"
                   r"Compute $y$, $L$, $\nabla_y L$, $\nabla_x L$ (and its identity-path and "
                   r"branch-path parts) and $\nabla_W L$.", **v),
        "zh": fill("线性残差模块，采用平方误差损失：\n\n" + setting + "\n\n"
                   r"求 $y$、$L$、$\nabla_y L$、$\nabla_x L$（及其恒等路径与变换分支两部分）"
                   r"以及 $\nabla_W L$。", **v),
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
                   "$\\nabla_y L$，变换分支再加上 $W^T\\nabla_y L$。\n\n" + steps, **v),
    }
    return prompt, solution
