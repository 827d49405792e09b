"""The residual a block learns (gradient-propagation sec. 2): H(x) = x + F(x)  =>  F = H - x.

H - x of two floats is exactly 0.0 when they are equal, so no zero needs snapping here.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, vec

NAME = "residual_mapping"

# difficulty -> (dimension range, (low, high, step) for x, (low, high, step) for the update F)
LEVELS = {
    "easy": ((2, 2), (-5, 5, 1), (-1, 1, 0.1)),
    "medium": ((3, 3), (-5, 5, 0.5), (-2, 2, 0.1)),
    "hard": ((3, 4), (-5, 5, 0.1), (-2, 2, 0.01)),
}


def draw(rng, difficulty):
    (lo, hi), x_grid, f_grid = LEVELS[difficulty]
    n = size(rng, lo, hi)
    x = grid(rng, *x_grid, shape=n)
    update = grid(rng, *f_grid, shape=n)
    return {"x": x, "H": [round(a + b, 6) for a, b in zip(x, update, strict=True)]}


def degenerate(params):
    return all(h == x for h, x in zip(params["H"], params["x"], strict=True))


def check(params):
    r = ParamReader(NAME, params)
    x = r.vector("x")
    H = r.vector("H", length=len(x) if x else None)
    r.finish()
    return {"x": x, "H": H}


def answer(params):
    torch = backend.torch()
    x = torch.tensor(params["x"], dtype=torch.float64)
    H = torch.tensor(params["H"], dtype=torch.float64)
    return {"F": (H - x).tolist()}


def explain(params, answers):
    v = {"x": vec(params["x"]), "H": vec(params["H"]), "F": key(answers["F"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$x = @x,\qquad H(x) = @H$$"
    prompt = {
        "en": fill("A residual block should output $H(x) = x + F(x)$, with\n\n" + setting, **v),
        "zh": fill("残差块的目标输出为 $H(x) = x + F(x)$，已知\n\n" + setting, **v),
    }
    step = r"$$F(x) = H(x) - x = @H - @x = @F$$"
    solution = {
        "en": fill("The skip path already delivers $x$, so the branch only adds the "
                   "difference:\n\n" + step, **v),
        "zh": fill("恒等路径已经送来 $x$，残差分支只需补上差值：\n\n" + step, **v),
    }
    return prompt, solution
