"""Variance-preserving initialization of one weight matrix (Xavier/Glorot, Kaiming/He):

    Var(w) = g^2 / n,   n = fan_in                      Kaiming/He, fan-in mode (forward pass)
                        n = fan_out                     Kaiming/He, fan-out mode (backward pass)
                        n = (fan_in + fan_out) / 2      Xavier/Glorot: Var(w) = 2 g^2 / (fan_in + fan_out),
                                                        the harmonic mean of g^2/fan_in and g^2/fan_out
    gain g (PyTorch's torch.nn.init.calculate_gain):
        linear 1,   tanh 5/3,   ReLU sqrt(2),   leaky ReLU with negative slope a: sqrt(2 / (1 + a^2))
    normal N(0, s^2):   std s = sqrt(Var(w))
    uniform U(-b, b):   Var = b^2 / 3, so the bound b = sqrt(3 Var(w)) = sqrt(3) s

Why g^2/n: y_i = sum_j w_ij x_j over n = fan_in terms, so Var(y) = fan_in Var(w) E[x^2]; after a
ReLU E[x^2] = Var(pre-activation)/2, so Var(w) = 2/fan_in keeps the pre-activation variance from
layer to layer (He et al. 2015). The backward pass sums over fan_out terms instead; Glorot and
Bengio (2010) compromise between the two with 2/(fan_in + fan_out).

torch computes the gain (calculate_gain) and the three keys in float64; the tests hold them to the
closed form above and to exact fractions. Every key is positive: nothing to snap.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import pick
from compute.texfmt import fill, key, num

NAME = "init_variance"
MAX_FAN = 1_000_000
MODES = ("fan_in", "fan_out", "fan_avg")
NONLINEARITIES = ("linear", "tanh", "relu", "leaky_relu")

# difficulty -> (fan choices, modes, nonlinearities); hard also draws the leaky-ReLU slope
FANS = (64, 128, 256, 512, 1024)
LEVELS = {
    "easy": (FANS, ("fan_in",), ("linear", "relu")),
    "medium": ((100, 128, 200, 256, 300, 384, 512, 768, 1024), MODES, ("linear", "tanh", "relu")),
    "hard": ((96, 144, 288, 576, 640, 1152, 2304, 4608), MODES, ("tanh", "leaky_relu")),
}
SLOPES = (0.01, 0.1, 0.2, 0.25, 0.3, 0.5)


def draw(rng, difficulty):
    fans, modes, nonlinearities = LEVELS[difficulty]
    params = {"fan_in": pick(rng, fans), "fan_out": pick(rng, fans), "mode": pick(rng, modes),
              "nonlinearity": pick(rng, nonlinearities)}
    params["slope"] = pick(rng, SLOPES) if params["nonlinearity"] == "leaky_relu" else 0.0
    return params


def degenerate(params):
    # Xavier with fan_in == fan_out is the same number as fan-in mode: draw fans that differ,
    # so a learner who uses the wrong fan gets a different answer.
    return params["mode"] != "fan_in" and params["fan_in"] == params["fan_out"]


def _choice(r: ParamReader, name: str, allowed: tuple[str, ...]):
    value = r.raw(name, True)
    if value is not None and value not in allowed:
        r.fail(name, f"must be one of {', '.join(allowed)}, got {value!r}")
        return None
    return value


def check(params):
    r = ParamReader(NAME, params)
    out = {"fan_in": r.integer("fan_in", lo=1, hi=MAX_FAN),
           "fan_out": r.integer("fan_out", lo=1, hi=MAX_FAN),
           "mode": _choice(r, "mode", MODES),
           "nonlinearity": _choice(r, "nonlinearity", NONLINEARITIES)}
    # slope: leaky ReLU's negative slope a (required there); 0 for every other nonlinearity
    leaky = out["nonlinearity"] == "leaky_relu"
    out["slope"] = r.number("slope", lo=0, hi=1, hi_open=True, required=leaky)
    if out["slope"] is None and not leaky and not r.has("slope"):
        out["slope"] = 0.0
    elif out["slope"] and not leaky:
        r.fail("slope", "only leaky_relu has a negative slope; leave it out or give 0")
    r.finish()
    return out


def fan(params) -> float:
    """The n of Var(w) = g^2 / n for the mode."""
    return {"fan_in": params["fan_in"], "fan_out": params["fan_out"],
            "fan_avg": (params["fan_in"] + params["fan_out"]) / 2}[params["mode"]]


def answer(params):
    torch = backend.torch()
    gain = torch.nn.init.calculate_gain(params["nonlinearity"], params["slope"])
    variance = torch.tensor(gain, dtype=torch.float64) ** 2 / fan(params)
    return {"variance": variance.item(), "std": variance.sqrt().item(),
            "bound": (3 * variance).sqrt().item()}


_NONLINEARITY = {
    "linear": {"en": "has no nonlinearity after it (a linear layer)",
               "zh": "其后没有非线性（线性层）"},
    "tanh": {"en": "is followed by tanh", "zh": "其后接 tanh"},
    "relu": {"en": "is followed by ReLU", "zh": "其后接 ReLU"},
    "leaky_relu": {"en": "is followed by leaky ReLU with negative slope $a = @a$",
                   "zh": "其后接负半轴斜率 $a = @a$ 的 leaky ReLU"},
}
_RULE = {
    "fan_in": {"en": "Kaiming/He initialization in fan-in mode",
               "zh": "Kaiming/He 初始化（fan-in 模式）"},
    "fan_out": {"en": "Kaiming/He initialization in fan-out mode",
                "zh": "Kaiming/He 初始化（fan-out 模式）"},
    "fan_avg": {"en": "Xavier/Glorot initialization", "zh": "Xavier/Glorot 初始化"},
}
# g and g^2 as the solution writes them
_GAIN = {"linear": (r"1", r"1"), "tanh": (r"\tfrac{5}{3}", r"\tfrac{25}{9} = @g2"),
         "relu": (r"\sqrt{2}", r"2"),
         "leaky_relu": (r"\sqrt{2/(1 + a^2)}", r"\frac{2}{1 + @a^2} = @g2")}
_N = {"fan_in": r"n_{\mathrm{in}}", "fan_out": r"n_{\mathrm{out}}",
      "fan_avg": r"(n_{\mathrm{in}} + n_{\mathrm{out}})/2"}


def explain(params, answers):
    nl, mode = params["nonlinearity"], params["mode"]
    gain2 = answers["variance"] * fan(params)
    v = {"nin": str(params["fan_in"]), "nout": str(params["fan_out"]),
         "a": num(params["slope"]), "g2": num(gain2, 6),
         "N": _N[mode], "n": num(fan(params), 6), "var": key(answers["variance"]),
         "std": key(answers["std"]), "bound": key(answers["bound"])}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill(r"A weight matrix with fan-in $n_{\mathrm{in}} = @nin$ and fan-out "
                   r"$n_{\mathrm{out}} = @nout$ " + _NONLINEARITY[nl]["en"]
                   + ". It is initialized with zero mean by " + _RULE[mode]["en"]
                   + r", with PyTorch's gain for this nonlinearity.", **v),
        "zh": fill(r"一个权重矩阵的 fan-in 为 $n_{\mathrm{in}} = @nin$，fan-out 为 "
                   r"$n_{\mathrm{out}} = @nout$，" + _NONLINEARITY[nl]["zh"]
                   + "。权重均值为 0，采用 " + _RULE[mode]["zh"] + "，增益取 PyTorch 对这种非线性的推荐值。",
                   **v),
    }
    gain, gain_squared = _GAIN[nl]
    steps = (r"$$g = " + gain + r",\quad g^2 = " + gain_squared + r",\quad n = @N = @n$$" "\n\n"
             r"$$\mathrm{Var}(w) = \frac{g^2}{n} = @var,\qquad \sigma = \sqrt{\mathrm{Var}(w)} = "
             r"@std,\qquad b = \sqrt{3\,\mathrm{Var}(w)} = @bound$$")
    solution = {
        "en": fill("The variance-preserving rule is $\\mathrm{Var}(w) = g^2/n$, where $n$ is the "
                   "fan the mode keeps the variance over (fan-in: the forward activations; "
                   "fan-out: the backward gradients; Xavier: their mean, $2/(n_{\\mathrm{in}} + "
                   "n_{\\mathrm{out}})$ for $g = 1$). A normal distribution takes "
                   "$\\sigma = \\sqrt{\\mathrm{Var}(w)}$; a uniform $U(-b, b)$ has variance "
                   "$b^2/3$, so $b = \\sqrt{3\\,\\mathrm{Var}(w)}$:\n\n" + steps, **v),
        "zh": fill("保持方差的规则是 $\\mathrm{Var}(w) = g^2/n$，$n$ 是该模式据以保持方差的 fan"
                   "（fan-in：前向的激活；fan-out：反向的梯度；Xavier：两者的平均，$g = 1$ 时为 "
                   "$2/(n_{\\mathrm{in}} + n_{\\mathrm{out}})$）。正态分布取 "
                   "$\\sigma = \\sqrt{\\mathrm{Var}(w)}$；均匀分布 $U(-b, b)$ 的方差是 $b^2/3$，"
                   "所以 $b = \\sqrt{3\\,\\mathrm{Var}(w)}$：\n\n" + steps, **v),
    }
    return prompt, solution

