"""Chain rule through layers with different local derivatives a_l (gradient-propagation 3.1-3.3).

    plain       x_{l+1} = F_l(x_l)          dx_n/dx_0 = prod_l a_l
    residual    x_{l+1} = x_l + F_l(x_l)    dx_n/dx_0 = prod_l (1 + a_l)

The signed products are the answers; torch differentiates both chains with F_l(x) = a_l x.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, num, seq

NAME = "chain_product"
MAX_LAYERS = 200
MAX_A = 10.0

# difficulty -> (number of layers, (low, high, step) for each a_l)
LEVELS = {
    "easy": ((2, 3), (-0.9, 0.9, 0.1)),
    "medium": ((3, 5), (-1.5, 1.5, 0.1)),
    "hard": ((5, 8), (-1.5, 1.5, 0.01)),
}


def draw(rng, difficulty):
    (lo, hi), a_grid = LEVELS[difficulty]
    return {"a": grid(rng, *a_grid, shape=size(rng, lo, hi))}


def degenerate(params):
    # a_l = 0 or -1 zeroes one of the products outright.
    return any(a in (0.0, -1.0) for a in params["a"])


def check(params):
    r = ParamReader(NAME, params)
    a = r.vector("a", max_len=MAX_LAYERS)
    if a is not None and any(abs(v) > MAX_A for v in a):
        r.fail("a", f"entries must lie in [-{MAX_A:g}, {MAX_A:g}]")
    r.finish()
    return {"a": a}


def answer(params):
    torch = backend.torch()
    a = torch.tensor(params["a"], dtype=torch.float64)
    x0 = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    plain, residual = x0, x0
    for a_l in a:
        plain = a_l * plain                    # F_l(x) = a_l x
        residual = residual + a_l * residual    # x + F_l(x)
    (d_plain,) = torch.autograd.grad(plain, x0)
    (d_residual,) = torch.autograd.grad(residual, x0)
    return {"plain": d_plain.item(), "residual": d_residual.item()}


def explain(params, answers):
    a = params["a"]
    v = {"a": seq(a), "L": str(len(a)),
         "pf": r" \cdot ".join(f"({num(x)})" for x in a),
         "rf": r" \cdot ".join(f"({num(1 + x)})" for x in a),
         "plain": key(answers["plain"]), "res": key(answers["residual"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill(r"A stack of @L layers has branch derivatives $a_l = @a$ (plain layers "
                   r"$x_{l+1} = F_l(x_l)$, residual layers $x_{l+1} = x_l + F_l(x_l)$).", **v),
        "zh": fill(r"@L 层网络各层分支的局部导数为 $a_l = @a$（普通层 $x_{l+1} = F_l(x_l)$，"
                   r"残差块 $x_{l+1} = x_l + F_l(x_l)$）。", **v),
    }
    steps = (r"$$\prod_l a_l = @pf = @plain$$" "\n\n"
             r"$$\prod_l (1 + a_l) = @rf = @res$$")
    solution = {
        "en": fill("By the chain rule the local derivatives multiply; each residual layer "
                   "contributes $1 + a_l$.\n\n" + steps, **v),
        "zh": fill("由链式法则，各层局部导数相乘；残差块的局部导数是 $1 + a_l$。\n\n" + steps,
                   **v),
    }
    return prompt, solution
