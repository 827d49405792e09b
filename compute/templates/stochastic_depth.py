"""Stochastic depth (Huang et al. 2016): expected depth and inference scaling.

    survival     p_l = 1 - (l / L)(1 - p_L),  l = 1..L       the paper's linear decay rule
    training     block l is kept with probability p_l, else x_l = x_{l-1} (the identity shortcut
                 carries the input on: without it a dropped block would cut the network)
    expected     E[number of kept blocks] = sum_l p_l = L - (1 - p_L)(L + 1)/2
    inference    every block is kept and its branch is scaled by its survival probability:
                 x_l = x_{l-1} + p_l f_l(x_{l-1})  (the expectation of the training-time output)
    (DropPath as in timm instead divides kept branches by p_l in training and does nothing at
    inference; the expectation is the same.)

torch computes the survival probabilities, their sum and the inference output (the answers);
the tests hold them to the closed forms above and to sampled depths with a fixed seed. The
inference output can cancel to zero and is snapped at its scale |x| + p_l |f| (compute.zeros).
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, key, num, vec
from compute.zeros import snap

NAME = "stochastic_depth"
MAX_BLOCKS = 1000

# difficulty -> (block counts, final survival probabilities, d range, x grid, f grid)
LEVELS = {
    "easy": ((4, 5, 8, 10), (0.5,), (2, 2), (-3, 3, 1), (-2, 2, 1)),
    "medium": ((12, 16, 18, 24, 27), (0.5, 0.8), (2, 3), (-3, 3, 0.5), (-2, 2, 0.5)),
    "hard": ((27, 36, 54, 100), (0.5, 0.6, 0.8, 0.9), (3, 3), (-3, 3, 0.1), (-2, 2, 0.1)),
}


def draw(rng, difficulty):
    blocks, finals, (lo, hi), xs, fs = LEVELS[difficulty]
    L, d = pick(rng, blocks), size(rng, lo, hi)
    return {"blocks": L, "p_last": pick(rng, finals), "block": size(rng, 1, L),
            "x": grid(rng, *xs, shape=d), "f": grid(rng, *fs, shape=d)}


def degenerate(params):
    # The last block (p_l = p_L) and a zero branch output hide the scaling rule.
    return params["block"] == params["blocks"] or all(v == 0 for v in params["f"])


def check(params):
    r = ParamReader(NAME, params)
    L = r.integer("blocks", lo=1, hi=MAX_BLOCKS)
    p_last = r.number("p_last", lo=0, lo_open=True, hi=1)
    block = r.integer("block", lo=1, hi=L or MAX_BLOCKS)
    x = r.vector("x")
    f = r.vector("f", length=len(x) if x else None)
    r.finish()
    return {"blocks": L, "p_last": p_last, "block": block, "x": x, "f": f}


def answer(params):
    torch = backend.torch()
    L, p_last = params["blocks"], params["p_last"]
    depth = torch.arange(1, L + 1, dtype=torch.float64)
    survival = 1 - depth / L * (1 - p_last)
    p_l = survival[params["block"] - 1]
    x = torch.tensor(params["x"], dtype=torch.float64)
    f = torch.tensor(params["f"], dtype=torch.float64)
    output = x + p_l * f
    return {"expected_depth": survival.sum().item(), "survival": p_l.item(),
            "test_output": snap(output, x.abs() + p_l * f.abs()).tolist()}


def explain(params, answers):
    L, p_last, block = params["blocks"], params["p_last"], params["block"]
    v = {"L": str(L), "pL": num(p_last), "l": str(block), "x": vec(params["x"]),
         "f": vec(params["f"]), "q": num(1 - p_last), "L1": str(L + 1),
         "depth": key(answers["expected_depth"]), "pl": key(answers["survival"]),
         "out": key(answers["test_output"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$L = @L,\quad p_L = @pL,\quad l = @l,\quad x_{l-1} = @x,\quad f_l(x_{l-1}) = @f$$"
    prompt = {
        "en": fill("A residual network of $L$ blocks trained with stochastic depth: block $l$ "
                   "survives with probability $p_l = 1 - \\frac{l}{L}(1 - p_L)$ (linear decay), a "
                   "dropped block passes its input on through the identity shortcut, and at "
                   "inference every block's branch is scaled by its survival probability.\n\n"
                   + setting, **v),
        "zh": fill("用随机深度训练的 $L$ 个块的残差网络：第 $l$ 块以概率 $p_l = 1 - \\frac{l}{L}"
                   "(1 - p_L)$ 保留（线性衰减），被丢弃的块经恒等快捷连接把输入原样传下去；推理时"
                   "每个块的分支乘以它的保留概率。\n\n" + setting, **v),
    }
    depth_label = {"en": "depth", "zh": "深度"}  # a label in the formula, per language
    steps = {lang: (r"$$\mathbb E[\text{" + word + r"}] = \sum_{l=1}^{L} p_l = L - \frac{(1 - p_L)(L + 1)}{2}"
             r" = @L - \frac{@q \times @L1}{2} = @depth$$" "\n\n"
             r"$$p_{@l} = 1 - \frac{@l}{@L}\times @q = @pl,\qquad x_l = x_{l-1} + p_{@l}\,"
             r"f_l(x_{l-1}) = @x + @pl\,@f = @out$$") for lang, word in depth_label.items()}
    solution = {
        "en": fill("The number of kept blocks is a sum of Bernoulli variables, so its expectation "
                   "is the sum of the survival probabilities; at inference the branch is scaled "
                   "by $p_l$ so that each block outputs its training-time expectation.\n\n"
                   + steps["en"],
                   **v),
        "zh": fill("保留的块数是若干伯努利变量之和，期望等于各保留概率之和；推理时分支乘以 $p_l$，"
                   "使每个块的输出等于训练时的期望。\n\n" + steps["zh"], **v),
    }
    return prompt, solution
