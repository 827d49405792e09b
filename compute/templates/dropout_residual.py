"""Inverted dropout on the residual branch, y = x + Dropout(h) (residual-connection, dropout).

    train       y = x + mask * h / (1 - p)        mask_i ~ Bernoulli(1 - p), kept units rescaled
    expected    E[y] = x + E[mask_i] h / (1 - p) = x + h      (the skip path x is never dropped)

torch computes the training output, and the expectation exactly, by summing over all 2^n masks
weighted by their probabilities (n <= 12), instead of assuming the closed form. Entries that
cancel to zero (x_i = -h_i / (1 - p)) are snapped at their scale (compute.zeros): |x| + mask |h|
/ (1 - p) for the training output, |x| + |h| over 2^n summed masks for the expectation.
"""

from __future__ import annotations

import itertools

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, key, num, vec
from compute.zeros import snap

NAME = "dropout_residual"
MAX_LEN = 12  # 2^12 masks in the exact expectation

# difficulty -> (n range, p choices, x grid, h grid)
LEVELS = {
    "easy": ((2, 2), (0.5, 0.2), (-3, 3, 1), (-2, 2, 1)),
    "medium": ((3, 3), (0.1, 0.2, 0.25, 0.5), (-3, 3, 0.1), (-2, 2, 0.1)),
    "hard": ((4, 4), (0.1, 0.15, 0.3, 0.4), (-3, 3, 0.01), (-2, 2, 0.01)),
}


def draw(rng, difficulty):
    (lo, hi), ps, xs, hs = LEVELS[difficulty]
    n, p = size(rng, lo, hi), pick(rng, ps)
    return {"p": p, "x": grid(rng, *xs, shape=n), "h": grid(rng, *hs, shape=n),
            "mask": (rng.random(n) >= p).astype(int).tolist()}


def degenerate(params):
    # All dropped (or all kept) hides what the rescaling does; h = 0 makes dropout irrelevant.
    return (len(set(params["mask"])) < 2 or any(v == 0 for v in params["h"]))


def check(params):
    r = ParamReader(NAME, params)
    p = r.number("p", lo=0, hi=1, hi_open=True)
    x = r.vector("x", max_len=MAX_LEN)
    n = len(x) if x else None
    h = r.vector("h", length=n, max_len=MAX_LEN)
    mask = r.vector("mask", length=n, max_len=MAX_LEN)
    if mask is not None and any(m not in (0.0, 1.0) for m in mask):
        r.fail("mask", "entries must be 0 (dropped) or 1 (kept)")
        mask = None
    if p == 0 and mask is not None and 0.0 in mask:
        r.fail("mask", "p = 0 drops nothing, so every entry must be 1")
    r.finish()
    return {"p": p, "x": x, "h": h, "mask": [int(m) for m in mask]}


def answer(params):
    torch = backend.torch()
    f64 = torch.float64
    p = params["p"]
    x, h = torch.tensor(params["x"], dtype=f64), torch.tensor(params["h"], dtype=f64)
    mask = torch.tensor(params["mask"], dtype=f64)
    train = x + mask * h / (1 - p)
    masks = torch.tensor(list(itertools.product((0.0, 1.0), repeat=len(params["x"]))), dtype=f64)
    # P(mask) = prod_i (1 - p)^{m_i} p^{1 - m_i}: units are dropped independently
    probabilities = (masks * (1 - p) + (1 - masks) * p).prod(dim=1)
    outputs = x + masks * h / (1 - p)
    expected = (probabilities[:, None] * outputs).sum(dim=0)
    ax, ah = x.abs(), h.abs()
    return {"train_output": snap(train, ax + mask * ah / (1 - p)).tolist(),
            "expected_output": snap(expected, ax + ah, terms=len(masks)).tolist()}


def explain(params, answers):
    p = params["p"]
    v = {"p": num(p), "q": num(1 - p), "x": vec(params["x"]), "h": vec(params["h"]),
         "mask": vec(params["mask"]), "scaled": vec([m * hh / (1 - p) for m, hh in
                                                    zip(params["mask"], params["h"], strict=True)]),
         "train": key(answers["train_output"]), "exp": key(answers["expected_output"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$p = @p,\quad x = @x,\quad h = F(x) = @h,\quad \mathrm{mask} = @mask$$"
    prompt = {
        "en": fill("Inverted dropout is applied to the residual branch, $y = x + \\mathrm{Dropout}"
                   "(h)$, with drop probability $p$ and this step's mask (1 = kept):\n\n" + setting,
                   **v),
        "zh": fill("在残差分支上使用 inverted dropout：$y = x + \\mathrm{Dropout}(h)$，丢弃概率为 "
                   "$p$，本次掩码如下（1 为保留）：\n\n" + setting, **v),
    }
    steps = (r"$$y = x + \frac{\mathrm{mask} \odot h}{1 - p} = @x + @scaled = @train$$" "\n\n"
             r"$$\mathbb E[y] = x + \frac{(1 - p)\, h}{1 - p} = x + h = @exp$$")
    solution = {
        "en": fill("Kept units are divided by $1 - p = @q$, so each unit's expectation is "
                   "unchanged; the skip path $x$ is never dropped.\n\n" + steps, **v),
        "zh": fill("保留的单元除以 $1 - p = @q$，因此每个单元的期望不变；恒等路径 $x$ 不会被"
                   "丢弃。\n\n" + steps, **v),
    }
    return prompt, solution
