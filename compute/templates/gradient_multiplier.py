"""Gradient multiplier through n layers whose local derivative is a (gradient-propagation 3.4).

    plain       x_{l+1} = F(x_l),          dx_{l+1}/dx_l = a       => dx_n/dx_0 = a^n
    residual    x_{l+1} = x_l + F(x_l),    dx_{l+1}/dx_l = 1 + a   => dx_n/dx_0 = (1 + a)^n
    answers     plain = |a|^n, residual = |1 + a|^n   (the size of the gradient multiplier)

torch builds both n-layer chains with F(x) = a x and differentiates them, as a practitioner would
check the closed form; a = -1 is allowed (the residual multiplier is then 0).
"""

from __future__ import annotations

import math

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, size
from compute.texfmt import fill, key, num

NAME = "gradient_multiplier"
MAX_LAYERS = 200
MAX_A = 10.0  # with n <= 200, |1 + a|^n <= 11^200 stays a finite float
EXACT_BELOW = 1e9  # a whole-number power below this is exact in float64 and written in full

# difficulty -> (n range, (low, high, step) for a)
LEVELS = {
    "easy": ((2, 5), (-0.9, 0.9, 0.1)),
    "medium": ((10, 30), (-1.5, 1.5, 0.1)),
    "hard": ((20, 60), (-2.0, 2.0, 0.01)),
}


def draw(rng, difficulty):
    (n_lo, n_hi), a_grid = LEVELS[difficulty]
    return {"n": size(rng, n_lo, n_hi), "a": grid(rng, *a_grid)}


def degenerate(params):
    # a = 0 or a = -1 make one of the two answers trivially 0 (or 1); the app's slider shows them.
    return params["a"] in (0.0, -1.0)


def check(params):
    r = ParamReader(NAME, params)
    n = r.integer("n", lo=1, hi=MAX_LAYERS)
    a = r.number("a", lo=-MAX_A, hi=MAX_A)
    r.finish()
    return {"n": n, "a": a}


def answer(params):
    torch = backend.torch()
    n = params["n"]
    a = torch.tensor(params["a"], dtype=torch.float64)
    x0 = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    plain, residual = x0, x0
    for _ in range(n):
        plain = a * plain                  # F(x) = a x
        residual = residual + a * residual  # x + F(x)
    (d_plain,) = torch.autograd.grad(plain, x0)
    (d_residual,) = torch.autograd.grad(residual, x0)
    return {"plain": abs(d_plain.item()), "residual": abs(d_residual.item())}


def explain(params, answers):
    n, a = params["n"], params["a"]
    v = {"n": str(n), "a": num(a), "pa": f"({num(a)})" if a < 0 else num(a), "b": num(1 + a), "absa": num(abs(a)), "absb": num(abs(1 + a)),
         "plain": _equals(answers["plain"]), "res": _equals(answers["residual"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = {"en": r"$n = @n$ layers, $a = @a$", "zh": r"$n = @n$ 层，$a = @a$"}
    prompt = {
        "en": fill("Every layer's branch has the same local derivative $a$: " + setting["en"] + ".",
                   **v),
        "zh": fill("每层残差分支的局部导数都等于 $a$：" + setting["zh"] + "。", **v),
    }
    steps = (r"$$G_{\mathrm{plain}} = |@a|^{@n} = @absa^{@n} @plain$$" "\n\n"
             r"$$G_{\mathrm{residual}} = |1 + @pa|^{@n} = @absb^{@n} @res$$")
    solution = {
        "en": fill("A plain layer multiplies the gradient by $a$; a residual layer by $1 + a$ "
                   "(the 1 is the identity path). Over $n$ layers the factors multiply:\n\n"
                   + steps + "\n\n" + _ratio(answers, "en"), **v),
        "zh": fill("普通层把梯度乘以 $a$，残差块乘以 $1 + a$（1 来自恒等路径）。"
                   "经过 $n$ 层，各层因子相乘：\n\n" + steps + "\n\n" + _ratio(answers, "zh"), **v),
    }
    return prompt, solution


def _equals(value: float) -> str:
    """`= 1` for an exact whole number the page writes in full (|±1|^n, 2^28), else `≈` and the
    key: `≈` marks a rounded value only."""
    if float(value).is_integer() and abs(value) < EXACT_BELOW:
        return f"= {int(value)}"
    return rf"\approx {key(value)}"


def _ratio(answers, lang) -> str:
    """How many orders of magnitude apart the two multipliers are (empty if one is 0)."""
    if answers["plain"] == 0 or answers["residual"] == 0:
        return ""
    log_ratio = math.log10(answers["residual"]) - math.log10(answers["plain"])
    label = {"en": "Orders of magnitude between them: ", "zh": "两者相差的数量级："}[lang]
    return (label + rf"$\log_{{10}}(G_{{\mathrm{{residual}}}} / G_{{\mathrm{{plain}}}}) "
            rf"\approx {num(log_ratio, 3)}$")
