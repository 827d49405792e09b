"""A residual update x + f rounded to FP16 and to BF16 (mixed precision in the residual stream).

    FP16   1 sign, 5 exponent, 10 fraction bits: 11 significant bits, largest finite 65504
    BF16   1 sign, 8 exponent,  7 fraction bits:  8 significant bits, the range of FP32
    spacing of the numbers around x (x normal, 2^e <= |x| < 2^(e+1)):  2^(e - 10) in FP16,
           2^(e - 7) in BF16
    sum    round-to-nearest of x + f, ties to the even significand: in BF16 256 + 0.5 = 256
           (spacing 2 at 256), and 256 + 1 = 256 (a tie between 256 and 258; 256 is even)

The stream value x and the update f are given in the format (exactly representable in both);
torch casts them and adds in each dtype (the answers). The tests hold the sums to numpy's float16
and to BF16 rounding done by hand on float32 bit patterns. Sums are of numbers of similar sign
and size here; none is ever 0.
"""

from __future__ import annotations

import math

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import pick
from compute.texfmt import fill, num

NAME = "mixed_precision_sum"
MAX_ABS = 60000.0  # FP16's largest finite number is 65504
MIN_ABS = 2.0**-14  # FP16's smallest normal number: below it the spacing rule changes
FRACTION_BITS = {"fp16": 10, "bf16": 7}

# difficulty -> (significands of x, exponents of x, updates f, negative values allowed)
LEVELS = {
    "easy": ((1.0,), (8, 9, 10, 11), (0.25, 0.5, 1.0), False),
    "medium": ((1.0, 1.5), (6, 7, 8, 9, 10, 11), (0.25, 0.5, 0.75, 1.5, 3.0), False),
    "hard": ((1.0, 1.25, 1.5, 1.75), (5, 6, 7, 8, 9, 10, 11, 12),
             (0.125, 0.375, 0.5, 0.75, 1.25, 2.5, 6.0), True),
}


def draw(rng, difficulty):
    significands, exponents, updates, signed = LEVELS[difficulty]
    x = pick(rng, significands) * 2.0 ** pick(rng, exponents)
    f = pick(rng, updates)
    if signed:
        x *= pick(rng, (1, -1))
        f *= pick(rng, (1, -1))
    return {"x": x, "f": f}


def degenerate(params):
    # Keep the sums on the side of x where the exponent does not change (x's spacing applies),
    # and let BF16 lose something: an exactly representable sum shows no rounding at all.
    x, f = params["x"], params["f"]
    return (math.floor(math.log2(abs(x + f))) != math.floor(math.log2(abs(x)))
            or _representable(x + f))


def _representable(value: float) -> bool:
    """Exactly a BF16 number (then also FP16, within FP16's normal range)."""
    mantissa, _ = math.frexp(value)
    return (mantissa * 2**8).is_integer()


def check(params):
    r = ParamReader(NAME, params)
    out = {"x": r.number("x", lo=-MAX_ABS, hi=MAX_ABS), "f": r.number("f", lo=-MAX_ABS, hi=MAX_ABS)}
    for name, value in out.items():
        if value is None:
            continue
        if not MIN_ABS <= abs(value):
            r.fail(name, f"must be at least {MIN_ABS:g} in size (a normal FP16 number)")
        elif not _representable(value):
            r.fail(name, f"must be exactly representable in BF16 (8 significant bits), got {value!r}")
    if None not in out.values() and abs(out["x"] + out["f"]) < MIN_ABS:
        r.fail("f", "x + f must stay a normal FP16 number")
    r.finish()
    return out


def spacing(value: float, fraction_bits: int) -> float:
    """Distance between consecutive numbers around `value`: 2^(e - fraction_bits)."""
    _, exponent = math.frexp(value)  # value = m 2^exponent with 0.5 <= |m| < 1
    return 2.0 ** (exponent - 1 - fraction_bits)


def answer(params):
    torch = backend.torch()
    sums = {}
    for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        x = torch.tensor(params["x"], dtype=dtype)
        f = torch.tensor(params["f"], dtype=dtype)
        sums[name] = (x + f).item()  # one rounding of the exact sum, in the dtype
    return {"sum_fp16": sums["fp16"], "sum_bf16": sums["bf16"],
            "spacing_fp16": spacing(params["x"], FRACTION_BITS["fp16"]),
            "spacing_bf16": spacing(params["x"], FRACTION_BITS["bf16"])}


def _exact(value: float) -> str:
    """Every digit of a short binary fraction (these values are exact, not rounded)."""
    return num(value, 12)


def explain(params, answers):
    x, f = params["x"], params["f"]
    exponent = math.frexp(x)[1] - 1
    v = {"x": _exact(x), "f": _exact(f), "exact": _exact(x + f), "e": str(exponent),
         "s16": _exact(answers["spacing_fp16"]), "sb16": _exact(answers["spacing_bf16"]),
         "fp16": _exact(answers["sum_fp16"]), "bf16": _exact(answers["sum_bf16"]),
         "e16": str(exponent - 10), "eb16": str(exponent - 7)}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    setting = r"$$x = @x,\qquad f = @f$$"
    prompt = {
        "en": fill("A residual stream value $x$ receives a branch update $f$, both stored exactly in "
                   "the format; the sum $x + f$ is computed in FP16 (10 fraction bits) and in BF16 "
                   "(7 fraction bits), rounded to the nearest number, ties to even.\n\n" + setting,
                   **v),
        "zh": fill("残差流上的值 $x$ 加上分支的更新量 $f$，二者在该格式中都能精确表示；分别在 FP16"
                   "（10 位尾数）和 BF16（7 位尾数）中计算 $x + f$，舍入到最近的可表示数，"
                   "恰在中间时取尾数为偶数的一个。\n\n" + setting, **v),
    }
    spacing_label = {"en": "spacing", "zh": "间距"}  # a label inside the formula, per language
    steps = {lang: (r"$$2^{@e} \le |x| < 2^{@e + 1}:\quad \text{FP16 " + word + r" } 2^{@e16} = @s16,"
                    r"\qquad \text{BF16 " + word + r" } 2^{@eb16} = @sb16$$" "\n\n"
                    r"$$x + f = @exact \ \to\ \text{FP16: } @fp16,\qquad \text{BF16: } @bf16$$")
             for lang, word in spacing_label.items()}
    tie = {"en": "", "zh": ""}
    for fmt, bits in (("BF16", FRACTION_BITS["bf16"]), ("FP16", FRACTION_BITS["fp16"])):
        gap = spacing(x, bits)
        if ((x + f) / gap) % 1 == 0.5:
            tie = {"en": f" In {fmt} the exact sum lies halfway between two neighbours; the tie "
                         "goes to the one with an even significand.",
                   "zh": f"在 {fmt} 中精确和恰好落在两个相邻数的正中间，取尾数为偶数的那个。"}
            break
    solution = {
        "en": fill("Near $x$ the representable numbers are one spacing apart; the exact sum is "
                   "rounded to the nearest of them, so an update smaller than half a spacing "
                   "disappears." + tie["en"] + "\n\n" + steps["en"], **v),
        "zh": fill("在 $x$ 附近，相邻可表示数相差一个间距；精确和被舍入到最近的一个，所以小于半个"
                   "间距的更新量会消失。" + tie["zh"] + "\n\n" + steps["zh"], **v),
    }
    return prompt, solution
