"""Template names -> what they are, without importing torch (or numpy).

`list_templates()` and `import compute` read only this table; the template's module (which
computes with torch) is imported the first time a problem of that template is built.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from compute.errors import TemplateError


@dataclass(frozen=True)
class TemplateSpec:
    name: str
    description: dict[str, str]  # {"zh": ..., "en": ...}
    params: tuple[str, ...]
    answers: tuple[str, ...]

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "description": dict(self.description),
            "params": list(self.params),
            "answers": list(self.answers),
        }


SPECS: tuple[TemplateSpec, ...] = (
    TemplateSpec(
        "linear_residual_block",
        {"en": "Forward and backward pass of y = x + Wx with a squared-error loss; "
               "the input gradient split into identity and branch paths.",
         "zh": "线性残差块 y = x + Wx 的前向与反向传播（平方误差损失），"
               "输入梯度拆成恒等路径与残差分支两部分。"},
        ("x", "W", "t"),
        ("y", "loss", "grad_y", "grad_x", "grad_x_identity", "grad_x_branch", "grad_W"),
    ),
    TemplateSpec(
        "gradient_multiplier",
        {"en": "Gradient multiplier after n layers with local derivative a: |a|^n plain "
               "vs |1+a|^n residual.",
         "zh": "每层局部导数为 a 时 n 层后的梯度倍率：普通网络 |a|^n，残差网络 |1+a|^n。"},
        ("n", "a"),
        ("plain", "residual"),
    ),
    TemplateSpec(
        "chain_product",
        {"en": "Chain rule through layers with different local derivatives: "
               "product of a_l vs product of (1 + a_l).",
         "zh": "各层局部导数不同时的链式法则：a_l 的连乘与 (1 + a_l) 的连乘。"},
        ("a",),
        ("plain", "residual"),
    ),
    TemplateSpec(
        "residual_mapping",
        {"en": "The residual a block must learn: F = H - x.",
         "zh": "残差块需要学习的残差：F = H - x。"},
        ("x", "H"),
        ("F",),
    ),
    TemplateSpec(
        "prenorm_postnorm_jacobian",
        {"en": "Jacobians of a Pre-LN block x + W LN(x) and a Post-LN block LN(x + Wx).",
         "zh": "Pre-LN 块 x + W LN(x) 与 Post-LN 块 LN(x + Wx) 的雅可比矩阵。"},
        ("x", "W", "eps"),
        ("J_pre", "J_post"),
    ),
    TemplateSpec(
        "residual_scaling",
        {"en": "Scaled residual y = x + alpha W x: Jacobian I + alpha W and input gradient.",
         "zh": "残差缩放 y = x + alpha W x：雅可比矩阵 I + alpha W 与输入梯度。"},
        ("alpha", "W", "g"),
        ("J", "grad_x"),
    ),
    TemplateSpec(
        "deep_mlp_gradients",
        {"en": "Per-layer gradient norms of a deep tanh MLP, plain stack vs residual stack.",
         "zh": "深层 tanh MLP 各层的梯度范数：普通堆叠与残差堆叠对比。"},
        ("depth", "width", "gain", "weights", "x0"),
        ("grad_norm_plain", "grad_norm_residual"),
    ),
    TemplateSpec(
        "transformer_block_shapes",
        {"en": "Shapes and parameter counts of a Transformer block (attention, FFN, two "
               "LayerNorms).",
         "zh": "Transformer 块的张量形状与参数量（注意力、FFN、两个 LayerNorm）。"},
        ("B", "T", "d", "ffn_mult", "heads"),
        ("attn_output_shape", "ffn_hidden_shape", "attn_params", "ffn_params",
         "layernorm_params", "block_params"),
    ),
    TemplateSpec(
        "projection_shortcut",
        {"en": "Parameters of the linear projection shortcut W_s x (+ b) when widths differ.",
         "zh": "维度不同时投影快捷连接 W_s x（+ b）的参数量。"},
        ("d_in", "d_out", "bias"),
        ("shortcut_params",),
    ),
    TemplateSpec(
        "dropout_residual",
        {"en": "Inverted dropout on the residual branch: x + mask*h/(1-p) in training and "
               "its expectation x + h.",
         "zh": "残差分支上的 inverted dropout：训练时 x + mask⊙h/(1-p)，其期望为 x + h。"},
        ("p", "x", "h", "mask"),
        ("train_output", "expected_output"),
    ),
    TemplateSpec(
        "variance_of_sum",
        {"en": "Variance of x + f: Var(x) + Var(f) + 2 Cov(x, f).",
         "zh": "x + f 的方差：Var(x) + Var(f) + 2 Cov(x, f)。"},
        ("var_x", "var_f", "cov"),
        ("var",),
    ),
    TemplateSpec(
        "norm_jacobian_vector",
        {"en": "LayerNorm and RMSNorm (no affine parameters): outputs and Jacobian-vector "
               "products J v.",
         "zh": "LayerNorm 与 RMSNorm（不含仿射参数）：输出与雅可比矩阵-向量积 J v。"},
        ("z", "v", "eps"),
        ("ln", "ln_jvp", "rms", "rms_jvp"),
    ),
    TemplateSpec(
        "bn_running_stats",
        {"en": "One BatchNorm training step on a channel: batch mean and biased variance, "
               "running mean and running variance (momentum update, unbiased n/(n-1)).",
         "zh": "BatchNorm 在一个通道上的一步训练：批均值与有偏方差，滑动平均均值与滑动平均方差"
               "（动量更新，无偏的 n/(n-1)）。"},
        ("x", "momentum", "running_mean", "running_var"),
        ("batch_mean", "batch_var", "running_mean", "running_var"),
    ),
    TemplateSpec(
        "bn_folding",
        {"en": "Folding an inference-mode BatchNorm into the preceding linear layer: "
               "W' = gamma W / sqrt(var + eps), b' = gamma (b - mu) / sqrt(var + eps) + beta.",
         "zh": "把推理模式的 BatchNorm 折叠进前面的线性层：W' = gamma W / sqrt(var + eps)，"
               "b' = gamma (b - mu) / sqrt(var + eps) + beta。"},
        ("W", "b", "gamma", "beta", "mean", "var", "eps"),
        ("W_fold", "b_fold"),
    ),
    TemplateSpec(
        "residual_variance_depth",
        {"en": "Variance of the residual stream after L blocks, with and without 1/sqrt(L) "
               "branch scaling (normalized or unnormalized branches).",
         "zh": "L 个残差块之后残差流的方差：分支不缩放与按 1/sqrt(L) 缩放（分支输入归一化或不归一化）。"},
        ("depth", "var0", "branch", "normalized"),
        ("var_unscaled", "var_scaled"),
    ),
    TemplateSpec(
        "init_variance",
        {"en": "Xavier/Glorot and Kaiming/He initialization of one weight matrix: from fan-in, "
               "fan-out, mode and gain to Var(w), the normal std and the uniform bound.",
         "zh": "一个权重矩阵的 Xavier/Glorot 与 Kaiming/He 初始化：由 fan-in、fan-out、模式和增益"
               "求 Var(w)、正态分布的标准差与均匀分布的边界。"},
        ("fan_in", "fan_out", "mode", "nonlinearity", "slope"),
        ("variance", "std", "bound"),
    ),
    TemplateSpec(
        "scaled_shortcut",
        {"en": "Scaled shortcuts x_{i+1} = lambda_i x_i + F_i (Identity Mappings): the forward "
               "value and the shortcut's gradient factor prod lambda_i.",
         "zh": "被缩放的快捷连接 x_{i+1} = lambda_i x_i + F_i（Identity Mappings）：前向值与快捷连接的"
               "梯度因子 prod lambda_i。"},
        ("lam", "F", "x0"),
        ("x_n", "shortcut_factor"),
    ),
    TemplateSpec(
        "stochastic_depth",
        {"en": "Stochastic depth with linearly decaying survival: expected depth, a block's "
               "survival probability and its inference-time output.",
         "zh": "保留概率线性衰减的随机深度：期望深度、某个块的保留概率及其推理时的输出。"},
        ("blocks", "p_last", "block", "x", "f"),
        ("expected_depth", "survival", "test_output"),
    ),
    TemplateSpec(
        "mixed_precision_sum",
        {"en": "A residual update x + f rounded in FP16 and in BF16, and the spacing of each "
               "format around x.",
         "zh": "残差更新 x + f 在 FP16 与 BF16 中的舍入结果，以及两种格式在 x 附近的间距。"},
        ("x", "f"),
        ("sum_fp16", "sum_bf16", "spacing_fp16", "spacing_bf16"),
    ),
)

_BY_NAME = {spec.name: spec for spec in SPECS}


def names() -> list[str]:
    return [spec.name for spec in SPECS]


def spec(name: str) -> TemplateSpec:
    if not isinstance(name, str) or name not in _BY_NAME:
        raise TemplateError(f"unknown template {name!r}; known templates: {', '.join(names())}")
    return _BY_NAME[name]


def load(name: str) -> ModuleType:
    """The template's module (imported on first use; it imports torch only to compute)."""
    spec(name)
    return importlib.import_module(f"compute.templates.{name}")
