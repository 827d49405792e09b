"""Variance of a residual sum (residual-connection, variance):

    Var(x + f) = Var(x) + Var(f) + 2 Cov(x, f)  =  [1 1] Sigma [1 1]^T,
    Sigma = [[Var(x), Cov], [Cov, Var(f)]]   (|Cov| <= sqrt(Var(x) Var(f)) for a valid Sigma)

torch evaluates the quadratic form 1^T Sigma 1 in float64; a result that cancels to zero is
snapped at its scale Var(x) + Var(f) + 2 |Cov| (compute.zeros).
"""

from __future__ import annotations

import math

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid
from compute.texfmt import fill, key, num
from compute.zeros import snap_float

NAME = "variance_of_sum"
MAX_VAR = 1e6

# difficulty -> (variance grid, covariance step)
LEVELS = {
    "easy": ((1, 4, 1), 1),
    "medium": ((0.5, 4, 0.1), 0.1),
    "hard": ((0.1, 4, 0.01), 0.01),
}


def draw(rng, difficulty):
    var_grid, step = LEVELS[difficulty]
    var_x, var_f = grid(rng, *var_grid), grid(rng, *var_grid)
    bound = math.floor(math.sqrt(var_x * var_f) / step) * step  # keeps Sigma positive semidefinite
    return {"var_x": var_x, "var_f": var_f, "cov": grid(rng, -bound, bound, step)}


def degenerate(params):
    # Var = 0 is the f = -x corner case; the texts mention it, exercises use other numbers.
    return abs(params["var_x"] + params["var_f"] + 2 * params["cov"]) < 1e-9


def check(params):
    r = ParamReader(NAME, params)
    var_x = r.number("var_x", lo=0, hi=MAX_VAR)
    var_f = r.number("var_f", lo=0, hi=MAX_VAR)
    cov = r.number("cov", lo=-MAX_VAR, hi=MAX_VAR)
    if None not in (var_x, var_f, cov) and abs(cov) > math.sqrt(var_x * var_f) * (1 + 1e-12):
        r.fail("cov", f"|cov| must be at most sqrt(var_x var_f) = {math.sqrt(var_x * var_f):g}")
    r.finish()
    return {"var_x": var_x, "var_f": var_f, "cov": cov}


def answer(params):
    torch = backend.torch()
    sigma = torch.tensor([[params["var_x"], params["cov"]], [params["cov"], params["var_f"]]],
                         dtype=torch.float64)
    ones = torch.ones(2, dtype=torch.float64)
    scale = params["var_x"] + params["var_f"] + 2 * abs(params["cov"])
    return {"var": snap_float((ones @ sigma @ ones).item(), scale)}


def explain(params, answers):
    v = {"vx": num(params["var_x"]), "vf": num(params["var_f"]), "cov": num(params["cov"]),
         "var": key(answers["var"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$\mathrm{Var}(x) = @vx$, $\mathrm{Var}(f) = @vf$, $\mathrm{Cov}(x, f) = @cov$"
    setting_zh = setting.replace("$, $", "$，$")
    prompt = {
        "en": fill("A residual block outputs $x + f(x)$; for one coordinate " + setting + ".", **v),
        "zh": fill("残差块输出 $x + f(x)$；对一个坐标，" + setting_zh + "。", **v),
    }
    step = r"$$\mathrm{Var}(x + f) = @vx + @vf + 2 \times (@cov) = @var$$"
    solution = {
        "en": fill("Variances add only when $x$ and $f$ are uncorrelated; in general the "
                   "covariance enters twice:\n\n" + step, **v),
        "zh": fill("只有 $x$ 与 $f$ 不相关时方差才直接相加；一般情况下协方差要计入两次：\n\n"
                   + step, **v),
    }
    return prompt, solution
