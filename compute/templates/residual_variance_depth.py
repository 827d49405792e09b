"""Variance of the residual stream after L blocks, with and without 1/sqrt(L) branch scaling.

    x_{l+1} = x_l + alpha F_l(x_l),   Cov(x_l, F_l) = 0   (zero-mean branch weights at init)
    normalized branch   Var F_l = s2              (Pre-LN: the branch sees LN(x_l), so its output
                                                   variance does not follow Var x_l)
                        Var x_L = Var x_0 + L alpha^2 s2                       linear in L
    unnormalized branch Var F_l = c Var x_l       (no normalization: the branch output scales
                                                   with its input, e.g. c = 1 for a He-initialized
                                                   ReLU branch)
                        Var x_L = Var x_0 (1 + alpha^2 c)^L                    exponential in L
    answers   var_unscaled (alpha = 1) and var_scaled (alpha = 1/sqrt(L): GPT-2 scales the
              weights of its residual layers by 1/sqrt(N), N the number of residual layers):
              Var x_0 + s2, or Var x_0 (1 + c/L)^L <= Var x_0 e^c

torch runs the per-block variance recursion in float64 (the answers); the tests hold it to the
closed forms above and to a Monte-Carlo stack with a fixed seed. Variances are sums of positive
terms: no key is ever 0, nothing to snap.
"""

from __future__ import annotations

import math

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick
from compute.texfmt import fill, key, num

NAME = "residual_variance_depth"
MAX_DEPTH = 1000
MAX_VAR = 1e3

# difficulty -> (depth choices, var0 grid, branch grid, which models)
LEVELS = {
    "easy": ((4, 8, 16, 32), (1, 1, 1), (0.5, 2, 0.5), (True,)),
    "medium": ((8, 12, 16, 24, 32, 48), (0.5, 2, 0.5), (0.2, 1.5, 0.1), (True, False)),
    "hard": ((12, 24, 48, 64, 96), (0.5, 2, 0.1), (0.1, 1.5, 0.05), (True, False)),
}


def draw(rng, difficulty):
    depths, var0_grid, branch_grid, models = LEVELS[difficulty]
    return {"depth": pick(rng, depths), "var0": grid(rng, *var0_grid),
            "branch": grid(rng, *branch_grid), "normalized": pick(rng, models)}


def degenerate(params):
    return params["branch"] == 0


def check(params):
    r = ParamReader(NAME, params)
    out = {"depth": r.integer("depth", lo=1, hi=MAX_DEPTH),
           "var0": r.number("var0", lo=0, lo_open=True, hi=MAX_VAR),
           "branch": r.number("branch", lo=0, hi=MAX_VAR),
           "normalized": r.boolean("normalized")}
    r.finish()
    return out


def variance_after(torch, params, alpha):
    """Var x_L by running the recursion block by block."""
    var = torch.tensor(params["var0"], dtype=torch.float64)
    branch = torch.tensor(params["branch"], dtype=torch.float64)
    for _ in range(params["depth"]):
        branch_var = branch if params["normalized"] else branch * var
        var = var + alpha**2 * branch_var  # Var(x + alpha F) with Cov(x, F) = 0
    return var.item()


def answer(params):
    torch = backend.torch()
    return {"var_unscaled": variance_after(torch, params, 1.0),
            "var_scaled": variance_after(torch, params, 1 / math.sqrt(params["depth"]))}


def explain(params, answers):
    L, normalized = params["depth"], params["normalized"]
    v = {"L": str(L), "v0": num(params["var0"]), "b": num(params["branch"]),
         "un": key(answers["var_unscaled"]), "sc": key(answers["var_scaled"]),
         "growth": num(1 + params["branch"]), "growth_sc": num(1 + params["branch"] / L, 6),
         "bound": num(params["var0"] * math.exp(params["branch"]))}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    model = {
        True: {"en": r"each branch sees a normalized input, so $\mathrm{Var}\,F_l = s^2 = @b$ "
                     r"at every depth (Pre-LN)",
               "zh": r"每个分支的输入都经过归一化，所以各层 $\mathrm{Var}\,F_l = s^2 = @b$ 不随深度"
                     r"变化（Pre-LN）"},
        False: {"en": r"no normalization: each branch's output variance follows its input, "
                      r"$\mathrm{Var}\,F_l = c\,\mathrm{Var}\,x_l$ with $c = @b$",
                "zh": r"没有归一化：分支输出的方差随输入变化，$\mathrm{Var}\,F_l = c\,\mathrm{Var}\,"
                      r"x_l$，$c = @b$"},
    }[normalized]
    prompt = {
        "en": fill(r"A residual stack $x_{l+1} = x_l + \alpha F_l(x_l)$ of $L = @L$ blocks at "
                   r"initialization: $\mathrm{Var}\,x_0 = @v0$, each branch output is uncorrelated "
                   r"with its input, and " + model["en"] + ". Compare $\\alpha = 1$ with the "
                   r"scaled branches $\alpha = 1/\sqrt{L}$.", **v),
        "zh": fill(r"初始化时的残差堆叠 $x_{l+1} = x_l + \alpha F_l(x_l)$，共 $L = @L$ 个块："
                   r"$\mathrm{Var}\,x_0 = @v0$，每个分支的输出与其输入不相关，并且" + model["zh"]
                   + r"。比较 $\alpha = 1$ 与缩放后的分支 $\alpha = 1/\sqrt{L}$。", **v),
    }
    if normalized:
        steps = (r"$$\mathrm{Var}\,x_{l+1} = \mathrm{Var}\,x_l + \alpha^2 s^2 \ \Rightarrow\ "
                 r"\mathrm{Var}\,x_L = \mathrm{Var}\,x_0 + L\alpha^2 s^2$$" "\n\n"
                 r"$$\alpha = 1:\ @v0 + @L \times @b = @un,\qquad \alpha = \tfrac{1}{\sqrt{@L}}:"
                 r"\ @v0 + @b = @sc$$")
        lesson = {"en": "The stream's variance grows linearly with depth; $1/\\sqrt{L}$ scaling "
                        "keeps the total added variance at $s^2$ whatever the depth.",
                  "zh": "残差流的方差随深度线性增长；按 $1/\\sqrt{L}$ 缩放后，无论多深，累加的方差"
                        "总共只有 $s^2$。"}
    else:
        steps = (r"$$\mathrm{Var}\,x_{l+1} = (1 + \alpha^2 c)\,\mathrm{Var}\,x_l \ \Rightarrow\ "
                 r"\mathrm{Var}\,x_L = \mathrm{Var}\,x_0\,(1 + \alpha^2 c)^L$$" "\n\n"
                 r"$$\alpha = 1:\ @v0 \times @growth^{@L} = @un,\qquad \alpha = "
                 r"\tfrac{1}{\sqrt{@L}}:\ @v0 \times @growth_sc^{@L} = @sc$$")
        lesson = {"en": "Without normalization the variance grows exponentially with depth; with "
                        "$1/\\sqrt{L}$ scaling $(1 + c/L)^L \\le e^c$, so it stays below "
                        "$\\mathrm{Var}\\,x_0\\,e^c = @bound$.",
                  "zh": "没有归一化时方差随深度指数增长；按 $1/\\sqrt{L}$ 缩放后 $(1 + c/L)^L "
                        "\\le e^c$，方差不超过 $\\mathrm{Var}\\,x_0\\,e^c = @bound$。"}
    solution = {
        "en": fill("With $\\mathrm{Cov}(x_l, F_l) = 0$ the variances add, "
                   "$\\mathrm{Var}(x_l + \\alpha F_l) = \\mathrm{Var}\\,x_l + \\alpha^2\\,"
                   "\\mathrm{Var}\\,F_l$:\n\n" + steps + "\n\n" + lesson["en"], **v),
        "zh": fill("由于 $\\mathrm{Cov}(x_l, F_l) = 0$，方差直接相加："
                   "$\\mathrm{Var}(x_l + \\alpha F_l) = \\mathrm{Var}\\,x_l + \\alpha^2\\,"
                   "\\mathrm{Var}\\,F_l$：\n\n" + steps + "\n\n" + lesson["zh"], **v),
    }
    return prompt, solution
