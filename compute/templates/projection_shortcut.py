"""Parameters of the shortcut when a residual block changes width (gradient-propagation 6.4, 9.1).

    d_in == d_out    identity shortcut y = x + F(x)             -> 0 parameters
    d_in != d_out    projection y = W_s x (+ b) + F(x)          -> d_in d_out (+ d_out)

torch builds the shortcut (nn.Identity or nn.Linear on the "meta" device) and counts parameters.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import pick
from compute.texfmt import count, fill

NAME = "projection_shortcut"
MAX_D = 65_536

# difficulty -> width choices
LEVELS = {
    "easy": (2, 3, 4, 8),
    "medium": (16, 32, 64, 128, 256),
    "hard": (64, 96, 192, 384, 768, 1024, 2048),
}


def draw(rng, difficulty):
    widths = LEVELS[difficulty]
    return {"d_in": pick(rng, widths), "d_out": pick(rng, widths), "bias": bool(rng.integers(2))}


def degenerate(params):
    # Equal widths need no projection; generated problems ask about a real projection.
    return params["d_in"] == params["d_out"]


def check(params):
    r = ParamReader(NAME, params)
    out = {"d_in": r.integer("d_in", lo=1, hi=MAX_D), "d_out": r.integer("d_out", lo=1, hi=MAX_D),
           "bias": r.boolean("bias")}
    r.finish()
    return out


def answer(params):
    torch = backend.torch()
    d_in, d_out, bias = params["d_in"], params["d_out"], params["bias"]
    if d_in == d_out:
        shortcut = torch.nn.Identity()
    else:
        shortcut = torch.nn.Linear(d_in, d_out, bias=bias, device=torch.device("meta"))
    return {"shortcut_params": sum(p.numel() for p in shortcut.parameters())}


def explain(params, answers):
    d_in, d_out, bias = params["d_in"], params["d_out"], params["bias"]
    v = {"din": str(d_in), "dout": str(d_out), "n": count(answers["shortcut_params"])}
    with_bias = {"en": "with a bias" if bias else "without a bias",
                 "zh": "带偏置" if bias else "不带偏置"}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill(f"A residual block maps $@din$ features to $@dout$. The shortcut is a linear "
                   f"projection $W_s x$ {with_bias['en']} when the widths differ (the identity "
                   "otherwise).", **v),
        "zh": fill(f"残差块把 $@din$ 维特征映射为 $@dout$ 维。宽度不同时快捷连接使用{with_bias['zh']}"
                   "的线性投影 $W_s x$（宽度相同时为恒等快捷连接）。", **v),
    }
    if d_in == d_out:
        solution = {"en": "The widths match, so the shortcut is the identity: **0** parameters.",
                    "zh": "宽度相同，快捷连接是恒等映射：**0** 个参数。"}
        return prompt, solution
    formula = (r"$$@din \times @dout + @dout = @n$$" if bias
               else r"$$@din \times @dout = @n$$")
    solution = {
        "en": fill("$W_s$ is $@dout \\times @din$" + (" plus a bias of $@dout$" if bias else "")
                   + ":\n\n" + formula, **v),
        "zh": fill("$W_s$ 的形状为 $@dout \\times @din$" + ("，另加 $@dout$ 维偏置" if bias else "")
                   + "：\n\n" + formula, **v),
    }
    return prompt, solution
