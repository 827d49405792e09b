"""Per-layer gradient norms of a deep tanh MLP, plain vs residual (why-residual-works).

    plain       h_{l+1} = tanh(W_l h_l)           no biases, W_l entries ~ N(0, gain^2 / width)
    residual    h_{l+1} = h_l + tanh(W_l h_l)
    loss        = mean(h_depth)                    so dloss/dh_depth = 1/width in both stacks
    backward    s_l = 1 - tanh(W_l h_l)^2          (tanh' = 1 - tanh^2)
                plain     g_l = W_l^T (s_l * g_{l+1})
                residual  g_l = g_{l+1} + W_l^T (s_l * g_{l+1})     (identity path + branch)
    answers     ||g_l||_2 for l = 0 .. depth, each stack

Generated problems stay small enough for paper and a calculator (at most 3 layers of width 2:
tanh and a few 2x2 products per layer); the 40-layer nets of the text are explored in the app
(compute.series), not computed by hand. `solve` takes either explicit `weights` and `x0`, or `depth`, `width`, `gain` and `seed`, in which
case weights and x0 are drawn by `draw_weights` with numpy.random.default_rng(seed) (weights given
with a seed must be that seed's draw, so a solved problem's params can be solved again).
"""

from __future__ import annotations

import math

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, mat, num, vec

NAME = "deep_mlp_gradients"
MAX_DEPTH = 200
MAX_WIDTH = 512
MAX_GAIN = 10.0
MAX_WEIGHTS = 2**21  # depth * width^2: 16 MB of float64 (e.g. 200 layers of width 100)
SHOW_WEIGHTS_UP_TO = 64  # entries per matrix printed in the prompt; larger nets are described

# difficulty -> (depth range, width range, gain choices, decimals kept in weights and x0);
# hand-sized: a 2-wide net of 1 to 3 layers (16 gradient norms of 4x4 nets are no hand exercise)
LEVELS = {
    "easy": ((1, 1), (2, 2), (1.0,), 1),
    "medium": ((2, 2), (2, 2), (0.8, 1.0, 1.5), 1),
    "hard": ((3, 3), (2, 2), (0.5, 0.8, 1.0, 1.5, 2.0), 2),
}


def draw(rng, difficulty):
    (d_lo, d_hi), (w_lo, w_hi), gains, decimals = LEVELS[difficulty]
    depth, width, gain = size(rng, d_lo, d_hi), size(rng, w_lo, w_hi), pick(rng, gains)
    weights = (rng.standard_normal((depth, width, width)) * gain / math.sqrt(width))
    return {"depth": depth, "width": width, "gain": gain,
            "weights": weights.round(decimals).tolist(),
            "x0": grid(rng, -1, 1, 10.0**-decimals, shape=width)}


def degenerate(params):
    # A singular layer (all-zero, or rows in proportion: likely with one-decimal weights) can cut
    # the plain stack's gradient to exactly 0; x0 = 0 stays at 0 forever.
    import numpy as np

    return (any(abs(np.linalg.det(np.array(W))) < 1e-9 for W in params["weights"])
            or all(v == 0 for v in params["x0"]))


def draw_weights(depth, width, gain, seed):
    """The net that (depth, width, gain, seed) names: weights (depth, width, width) and x0."""
    import numpy as np

    rng = np.random.default_rng(seed)
    weights = rng.standard_normal((depth, width, width)) * (gain / math.sqrt(width))
    x0 = rng.standard_normal(width)
    return weights, x0


def check_setting(params):
    """Validate depth, width, gain and seed (the drawn form; no weights)."""
    r = ParamReader(NAME, params)
    out = {"depth": r.integer("depth", lo=1, hi=MAX_DEPTH),
           "width": r.integer("width", lo=1, hi=MAX_WIDTH),
           "gain": r.number("gain", lo=0, lo_open=True, hi=MAX_GAIN),
           "seed": r.integer("seed", lo=0, hi=2**63 - 1)}
    if out["depth"] and out["width"] and out["depth"] * out["width"] ** 2 > MAX_WEIGHTS:
        r.fail("width", f"depth x width^2 = {out['depth'] * out['width'] ** 2} weights exceeds "
                        f"{MAX_WEIGHTS}; use a smaller net")
    r.finish()
    return out


def check(params):
    if isinstance(params, dict) and "weights" not in params and "x0" not in params:
        out = check_setting(params)
        weights, x0 = draw_weights(out["depth"], out["width"], out["gain"], out["seed"])
        return {**out, "weights": weights.tolist(), "x0": x0.tolist()}
    r = ParamReader(NAME, params)
    weights = _read_weights(r)
    depth = len(weights) if weights else None
    width = len(weights[0]) if weights else None
    x0 = r.vector("x0", length=width, max_len=MAX_WIDTH)
    given_depth = r.integer("depth", lo=1, hi=MAX_DEPTH, required=False)
    given_width = r.integer("width", lo=1, hi=MAX_WIDTH, required=False)
    gain = r.number("gain", lo=0, lo_open=True, hi=MAX_GAIN, required=False)
    if given_depth is not None and depth is not None and given_depth != depth:
        r.fail("depth", f"is {given_depth} but weights holds {depth} matrices")
    if given_width is not None and width is not None and given_width != width:
        r.fail("width", f"is {given_width} but the weight matrices are {width}x{width}")
    seed = r.integer("seed", lo=0, hi=2**63 - 1, required=False)
    if seed is not None and None not in (weights, x0):
        _check_matches_seed(r, weights, x0, gain, seed)
    r.finish()
    out = {"depth": depth, "width": width, "weights": weights, "x0": x0}
    if gain is not None:
        out["gain"] = gain
    if seed is not None:
        out["seed"] = seed
    return out


def _check_matches_seed(r, weights, x0, gain, seed):
    """Weights given together with a seed must be that seed's draw (answer() redraws them)."""
    import numpy as np

    if gain is None:
        r.fail("gain", "is needed to draw the weights of a seed")
        return
    drawn_weights, drawn_x0 = draw_weights(len(weights), len(x0), gain, seed)
    if not np.array_equal(drawn_weights, weights):
        r.fail("weights", f"are not the draw of seed {seed} and gain {gain:g}; drop the seed "
                          "to use these weights")
    if not np.array_equal(drawn_x0, x0):
        r.fail("x0", f"is not the draw of seed {seed}; drop the seed to use this x0")


def _read_weights(r):
    """A list of square matrices of one width; each bad matrix is reported as weights[i]."""
    raw = r.raw("weights", required=True)
    if raw is None:
        return None
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_DEPTH:
        r.fail("weights", f"must be a list of 1 to {MAX_DEPTH} square matrices")
        return None
    sub = ParamReader(NAME, {f"weights[{i}]": W for i, W in enumerate(raw)})
    first = sub.matrix("weights[0]", square=True, max_dim=MAX_WIDTH)
    width = len(first) if first else None
    matrices = [first] + [sub.matrix(f"weights[{i}]", rows=width, cols=width, square=True,
                                     max_dim=MAX_WIDTH) for i in range(1, len(raw))]
    r.problems.extend(sub.problems)
    return None if sub.problems else matrices


def grad_norms(weights, x0):
    """(plain, residual): ||dloss/dh_l||_2 for l = 0..depth, by torch autograd in float64."""
    torch = backend.torch()
    Ws = torch.as_tensor(weights, dtype=torch.float64)
    h0 = torch.as_tensor(x0, dtype=torch.float64)
    return _norms(torch, Ws, h0, residual=False), _norms(torch, Ws, h0, residual=True)


def _norms(torch, Ws, h0, *, residual):
    h = h0.clone().requires_grad_(True)
    hs = [h]
    for W in Ws:
        branch = torch.tanh(W @ h)
        h = h + branch if residual else branch
        hs.append(h)
    loss = h.mean()
    grads = torch.autograd.grad(loss, hs)  # dloss/dh_l through every later layer
    return torch.linalg.vector_norm(torch.stack(grads), dim=1).tolist()


def answer(params):
    if "seed" in params:  # the same draw as in check(), without re-parsing the lists
        weights, x0 = draw_weights(params["depth"], params["width"], params["gain"],
                                   params["seed"])
    else:
        weights, x0 = params["weights"], params["x0"]
    plain, residual = grad_norms(weights, x0)
    return {"grad_norm_plain": plain, "grad_norm_residual": residual}


def explain(params, answers):
    depth, width = params["depth"], params["width"]
    plain, residual = answers["grad_norm_plain"], answers["grad_norm_residual"]
    v = {"depth": str(depth), "width": str(width), "x0": vec(params["x0"]),
         "last": num(1 / math.sqrt(width)), "p0": num(plain[0], 3), "r0": num(residual[0], 3),
         "ratio": num(plain[0] / residual[0], 3) if residual[0] else "-",
         "gain": num(params["gain"]) if "gain" in params else "-",
         "seed": str(params.get("seed", "-")), "table_en": _table(plain, residual, "en"),
         "table_zh": _table(plain, residual, "zh")}
    if width * width <= SHOW_WEIGHTS_UP_TO and depth <= 8:
        net = {"en": "with weights and input", "zh": "权重与输入为"}
        numbers = ", ".join(f"W_{i} = {mat(W, 3)}" for i, W in enumerate(params["weights"]))
        net_numbers = f"\n\n$$ {numbers},\\quad h_0 = @x0$$"
    elif "seed" in params:
        net = {"en": "with weights drawn by `numpy.random.default_rng(@seed)` (std "
                     "$@gain/\\sqrt{@width}$, then $h_0$ from the same generator)",
               "zh": "权重由 `numpy.random.default_rng(@seed)` 抽取（标准差 "
                     "$@gain/\\sqrt{@width}$，随后从同一生成器抽取 $h_0$）"}
        net_numbers = ""
    else:
        net = {"en": "with the given weights and input (too many numbers to show here)",
               "zh": "权重与输入已给定（数字太多，此处不列出）"}
        net_numbers = ""
    model = {
        "en": r"plain $h_{l+1} = \tanh(W_l h_l)$, residual $h_{l+1} = h_l + \tanh(W_l h_l)$, "
              r"$\mathrm{loss} = \mathrm{mean}(h_{@depth})$",
        "zh": r"普通堆叠 $h_{l+1} = \tanh(W_l h_l)$，残差堆叠 $h_{l+1} = h_l + \tanh(W_l h_l)$，"
              r"$\mathrm{loss} = \mathrm{mean}(h_{@depth})$",
    }
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill(f"A tanh MLP of depth @depth and width @width, no biases, {net['en']}:"
                   f"{net_numbers}\n\n{model['en']}; the gradient norms are "
                   "$\\|\\partial\\,\\mathrm{loss}/\\partial h_l\\|_2$ for $l = 0, \\dots, @depth$.",
                   **v),
        "zh": fill(f"深度 @depth、宽度 @width、无偏置的 tanh MLP，{net['zh']}："
                   f"{net_numbers}\n\n{model['zh']}；梯度范数指 "
                   "$\\|\\partial\\,\\mathrm{loss}/\\partial h_l\\|_2$（$l = 0, \\dots, @depth$）。",
                   **v),
    }
    stacks = {"en": ("plain", "residual"), "zh": ("普通", "残差")}  # labels in the formula
    backprop = {lang: (r"$$g_{@depth} = \tfrac{1}{@width}\mathbf 1,\ \|g_{@depth}\| = @last,\qquad "
                       r"s_l = 1 - \tanh^2(W_l h_l)$$" "\n\n"
                       r"$$\text{" + plain + r": } g_l = W_l^T(s_l \odot g_{l+1}),\qquad "
                       r"\text{" + residual + r": } g_l = g_{l+1} + W_l^T(s_l \odot g_{l+1})$$")
                for lang, (plain, residual) in stacks.items()}
    solution = {
        "en": fill("Backpropagate from the mean; the residual stack adds the identity path "
                   "$g_{l+1}$ at every layer.\n\n" + backprop["en"] + "\n\n@table_en\n\nAt layer 0 the "
                   "plain gradient is @p0, the residual one @r0 (ratio @ratio).", **v),
        "zh": fill("从平均值开始反向传播；残差堆叠在每一层都多出恒等路径 $g_{l+1}$。\n\n"
                   + backprop["zh"] + "\n\n@table_zh\n\n第 0 层：普通堆叠的梯度范数为 @p0，残差堆叠为 "
                   "@r0（比值 @ratio）。", **v),
    }
    return prompt, solution


def _table(plain, residual, lang) -> str:
    header = {"en": "| $l$ | plain | residual |", "zh": "| $l$ | 普通 | 残差 |"}[lang]
    rows = [header, "| --- | --- | --- |"]
    rows += [f"| {layer} | ${num(p, fixed=True)}$ | ${num(q, fixed=True)}$ |"
             for layer, (p, q) in enumerate(zip(plain, residual, strict=True))]
    return "\n".join(rows)
