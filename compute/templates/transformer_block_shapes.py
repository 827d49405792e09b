"""Shapes and parameter counts of one Transformer block (gradient-propagation 6.4).

    input X: (B, T, d); attention keeps the shape so that X + MHA(X) is defined
    attention   W_Q, W_K, W_V, W_O: d x d each, plus 4 biases of d     -> 4 d^2 + 4 d
    FFN         d -> m d -> d with biases                             -> 2 m d^2 + m d + d
    LayerNorm   gain and bias of d each, two LayerNorms               -> 4 d
    block       the sum of the three

torch builds the block's modules on the "meta" device (no memory) and counts their parameters.
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import pick
from compute.texfmt import count, fill

NAME = "transformer_block_shapes"
MAX_SIZE = 1_000_000
MAX_D = 65_536

# difficulty -> choices for B, T, d, heads, ffn_mult (heads are kept only if they divide d)
LEVELS = {
    "easy": ((2, 4, 8), (4, 8, 16), (8, 16, 32), (1, 2, 4), (4,)),
    "medium": ((8, 16, 32), (64, 128, 256), (128, 256, 512), (4, 8), (2, 4)),
    "hard": ((16, 32, 64), (128, 512, 1024, 2048), (768, 1024, 1280, 2048), (12, 16, 20),
             (2, 3, 4, 8)),
}


def draw(rng, difficulty):
    Bs, Ts, ds, heads, mults = LEVELS[difficulty]
    return {"B": pick(rng, Bs), "T": pick(rng, Ts), "d": pick(rng, ds), "heads": pick(rng, heads),
            "ffn_mult": pick(rng, mults)}


def degenerate(params):
    return params["d"] % params["heads"] != 0


def check(params):
    r = ParamReader(NAME, params)
    out = {"B": r.integer("B", lo=1, hi=MAX_SIZE), "T": r.integer("T", lo=1, hi=MAX_SIZE),
           "d": r.integer("d", lo=1, hi=MAX_D), "ffn_mult": r.integer("ffn_mult", lo=1, hi=64),
           "heads": r.integer("heads", lo=1, hi=MAX_D)}
    if out["d"] is not None and out["heads"] is not None and out["d"] % out["heads"]:
        r.fail("heads", f"must divide d = {out['d']}, got {out['heads']}")
    r.finish()
    return out


def _count(module) -> int:
    return sum(p.numel() for p in module.parameters())


def answer(params):
    torch = backend.torch()
    nn = torch.nn
    B, T, d, m, heads = (params[k] for k in ("B", "T", "d", "ffn_mult", "heads"))
    meta = torch.device("meta")
    attn = nn.MultiheadAttention(d, heads, batch_first=True, device=meta)
    ffn = nn.Sequential(nn.Linear(d, m * d, device=meta), nn.GELU(),
                        nn.Linear(m * d, d, device=meta))
    norms = nn.ModuleList([nn.LayerNorm(d, device=meta), nn.LayerNorm(d, device=meta)])
    attn_params, ffn_params, norm_params = _count(attn), _count(ffn), _count(norms)
    return {
        # attention maps (B, T, d) queries to (B, T, embed_dim); the FFN widens to out_features
        "attn_output_shape": [B, T, attn.embed_dim],
        "ffn_hidden_shape": [B, T, ffn[0].out_features],
        "attn_params": attn_params,
        "ffn_params": ffn_params,
        "layernorm_params": norm_params,
        "block_params": attn_params + ffn_params + norm_params,
    }


def explain(params, answers):
    B, T, d, m, heads = (params[k] for k in ("B", "T", "d", "ffn_mult", "heads"))
    v = {"B": str(B), "T": str(T), "d": str(d), "m": str(m), "h": str(heads), "md": str(m * d),
         "attn": count(answers["attn_params"]), "ffn": count(answers["ffn_params"]),
         "ln": count(answers["layernorm_params"]), "block": count(answers["block_params"]),
         "dh": str(d // heads)}
    setting = {
        "en": r"$X \in \mathbb R^{@B \times @T \times @d}$, @h heads, FFN $@d \to @md \to @d$ "
              r"($m = @m$)",
        "zh": r"$X \in \mathbb R^{@B \times @T \times @d}$，@h 个头，FFN 为 "
              r"$@d \to @md \to @d$（$m = @m$）",
    }
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill("A Transformer block (attention with $W_Q, W_K, W_V, W_O$ and biases, an FFN "
                   "with biases, each sub-layer with a residual connection and a LayerNorm): "
                   + setting["en"] + ".", **v),
        "zh": fill("一个 Transformer 块（注意力含 $W_Q, W_K, W_V, W_O$ 及偏置，FFN 含偏置，每个子层"
                   "各带残差连接和 LayerNorm）：" + setting["zh"] + "。", **v),
    }
    hidden = {"en": r"\text{FFN hidden}", "zh": r"\text{FFN 隐藏层}"}  # a label in the formula
    steps = {lang: (
        r"$$\mathrm{MHA}(X) \in \mathbb R^{@B \times @T \times @d}\ (@h \times @dh),\qquad "
        + label + r" \in \mathbb R^{@B \times @T \times @md}$$" "\n\n"
        r"$$4d^2 + 4d = 4 \cdot @d^2 + 4 \cdot @d = @attn$$" "\n\n"
        r"$$(d \cdot md + md) + (md \cdot d + d) = @ffn,\qquad 2 \times 2d = @ln$$" "\n\n"
        r"$$@attn + @ffn + @ln = @block$$"
    ) for lang, label in hidden.items()}
    solution = {
        "en": fill("The residual additions need $\\mathrm{shape}(F(X)) = \\mathrm{shape}(X)$, so "
                   "attention returns $d$ features per token; heads split $d$, they do not add "
                   "parameters.\n\n" + steps["en"], **v),
        "zh": fill("残差相加要求 $F(X)$ 与 $X$ 形状相同，所以注意力对每个 "
                   "token 输出 $d$ 维；多头只是切分 $d$，不增加参数。\n\n" + steps["zh"], **v),
    }
    return prompt, solution
