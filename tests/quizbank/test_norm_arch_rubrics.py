"""The interview rubrics of 15_normalization_architecture.yaml against the answers a learner
actually writes: a generic one-sentence answer gets no required point suggested, and correct
answers phrased in several ways (including ones that name the misconception to reject it) get no
misconception ticked (tutor.interview_match)."""

from __future__ import annotations

from pathlib import Path

import pytest

import quizbank
from tutor.interview_match import suggest_ticks

BANK = quizbank.load_bank()
FILE = "15_normalization_architecture.yaml"
INTERVIEWS = sorted(q.id for q in BANK.by_type("interview")
                    if Path(BANK.location(q.id).path).name == FILE)

GENERIC = [
    "BatchNorm normalizes activations with batch statistics and helps training.",
    "Normalization layers stabilize the training of deep networks.",
    "Residual connections add the input to the output so gradients flow through the identity path.",
    "It depends on the architecture and the data; use whatever works best in practice.",
    "Warmup starts with a small learning rate and increases it to stabilize early training.",
    "Deeper networks are more expressive but harder to train.",
    "BatchNorm 用批统计量归一化激活值，帮助训练。",
    "归一化层让深层网络的训练更稳定。",
    "残差连接把输入加到输出上，梯度可以沿恒等路径传回。",
    "这要看结构和数据，实践中哪个好用就用哪个。",
]

# Correct answers, written the way a strong candidate might, several of them naming the wrong idea
# in order to reject it.
CORRECT = {
    "iv-bn-backward": [
        "Do not treat the mean and variance as constants: in training mode both depend on every x_i.",
        "The gradient is gamma/sigma times (g minus its batch mean minus xhat times mean(g*xhat)).",
        "In eval mode the statistics are constants and the gradient is just gamma g / sigma; in training it is not.",
        "Three paths: direct, through the batch mean, through the batch variance; the result sums to zero.",
        "It is wrong to say the statistics are constants during training.",
        "训练模式下不能把均值和方差当作常数，它们都依赖批内每个样本。",
        "eval 模式下统计量是常数，训练模式下不是。",
    ],
    "iv-ics-debate": [
        "Santurkar et al. found that BatchNorm does not work because it reduces internal covariate shift.",
        "It was never proven to work by reducing internal covariate shift; the noise experiment argues against it.",
        "The original paper claimed it reduces internal covariate shift, but the smoother landscape explains more.",
        "Injected noise increases the shift, yet training stays as good: the covariate-shift story does not hold.",
        "BatchNorm smooths the loss landscape and lets us use larger learning rates.",
        "并没有证明它是靠减少内部协变量偏移起作用的。",
        "注入噪声后分布变化更大，训练仍然正常，所以内部协变量偏移的解释站不住。",
    ],
    "iv-normalization-free-transformers": [
        "DyT computes no mean and no variance: it is tanh(alpha x) per element.",
        "Unlike LayerNorm, DyT does not compute the mean of the token.",
        "DyT replaces LayerNorm with gamma * tanh(alpha x) + beta, and alpha is learned.",
        "It loses scale invariance because nothing divides by a standard deviation.",
        "The residual connections stay; only the normalization layers are replaced.",
        "DyT 不计算均值，也不计算方差，只是逐元素的 tanh。",
        "DyT 没有缩放不变性，输入尺度由 alpha 学习。",
    ],
    "iv-warmup-two-views": [
        "Bias correction does not fix the variance of the adaptive learning rate, only its mean.",
        "Adam's bias correction is not enough: it corrects the expectation of v_t, not its variance.",
        "RAdam rectifies the adaptive step while rho_t is small.",
        "Post-LN has large gradients near the output at initialization, so warmup helps there too.",
        "Both explanations can hold at the same time.",
        "偏差修正并不能解决方差大的问题，它只修正期望。",
        "RAdam 用修正项代替 warmup，Pre-LN 也可以去掉 warmup。",
    ],
    "iv-small-batch-bn": [
        "Gradient all-reduce does not give BatchNorm global statistics; each GPU normalizes with its own batch.",
        "Synchronizing gradients is not the same as synchronizing statistics; you need SyncBN for that.",
        "Freeze the BatchNorm layers with eval() and keep gamma and beta fixed.",
        "GroupNorm does not depend on the batch size at all.",
        "With two images per GPU the batch statistics are noisy.",
        "梯度同步并不会让 BatchNorm 使用全局统计量，需要 SyncBN。",
        "冻结 BatchNorm 时要对这些层调用 eval。",
    ],
    "iv-bn-train-eval-gap": [
        "The running averages are not learned by gradient descent; the forward pass updates them.",
        "The optimizer never updates the running mean: it is a buffer, not a parameter.",
        "Recompute the statistics with a few forward passes in training mode without gradients.",
        "Non-i.i.d. batches make the running mean lag behind the true statistics.",
        "Check each layer's running_mean against statistics recomputed on the data.",
        "滑动平均不是可学习参数，不由梯度更新。",
        "在训练模式下不求梯度重新统计，或者用 momentum=None 做累积平均。",
    ],
    "iv-resnet-shortcut-options": [
        "Projections are not necessary to solve degradation: option A already works.",
        "Projection shortcuts are not required to fix degradation; C was only marginally better.",
        "Option B uses projections only where the dimensions increase.",
        "In a bottleneck block a projection shortcut would double the cost.",
        "Zero padding adds no parameters but the padded channels learn no residual.",
        "投影并不是解决退化问题所必需的，差别很小。",
        "瓶颈块的快捷连接若用投影，模型大小会翻倍。",
    ],
    "iv-width-vs-depth": [
        "Deeper is not always better: WRN-16 beat thousand-layer ResNets.",
        "It is a myth that deeper is always better once you have residual connections.",
        "Wide ResNets trade depth for width with a widening factor k.",
        "Width costs parameters that grow as k^2, depth costs sequential time.",
        "Very deep residual networks suffer from diminishing feature reuse.",
        "有残差连接也不是越深一定越好。",
        "加宽因子 k 让参数按 k^2 增长。",
    ],
    "iv-unet-vs-resnet-skips": [
        "U-Net skips are not residual connections: they concatenate rather than add.",
        "U-Net does not learn a residual; the decoder combines concatenated features.",
        "Long skips bring high-resolution detail back for localization.",
        "ResNet shortcuts are short and added, x+F(x).",
        "Modern diffusion U-Nets use residual blocks inside each stage and long skips between stages.",
        "U-Net 的跳层连接并不是残差连接，它是拼接。",
        "ResNet 的快捷连接跨两三层并相加。",
    ],
    "iv-weightnorm-vs-batchnorm": [
        "WeightNorm does not normalize the activations; it reparameterizes the weights.",
        "Unlike BatchNorm, WeightNorm uses no batch statistics at all.",
        "w = g v/||v|| separates the length and direction of the weight.",
        "It suits LSTMs and reinforcement learning, where batch statistics are a poor fit.",
        "The paper pairs it with a data-dependent initialization.",
        "WeightNorm 不用批统计量，也不归一化激活值。",
        "WeightNorm 把权重的长度和方向分开。",
    ],
}


def _kind(point) -> str:
    return getattr(point.kind, "value", point.kind)


def test_every_interview_of_the_file_has_phrasings():
    assert set(CORRECT) == set(INTERVIEWS)


@pytest.mark.parametrize("answer", GENERIC)
@pytest.mark.parametrize("qid", INTERVIEWS)
def test_a_generic_answer_gets_no_required_point(qid, answer):
    question = BANK.questions[qid]
    required = {p.id for p in question.rubric if _kind(p) == "required"}
    assert not set(suggest_ticks(question.rubric, answer)) & required


@pytest.mark.parametrize(("qid", "answer"), [(q, a) for q, answers in CORRECT.items() for a in answers])
def test_a_correct_answer_gets_no_misconception(qid, answer):
    question = BANK.questions[qid]
    misconceptions = {p.id for p in question.rubric if _kind(p) == "misconception"}
    assert not set(suggest_ticks(question.rubric, answer)) & misconceptions


@pytest.mark.parametrize("qid", INTERVIEWS)
def test_the_misconception_is_found_when_asserted(qid):
    """The other half: each misconception keyword, asserted plainly, is ticked (so the tests above
    are not passing because nothing can ever match)."""
    question = BANK.questions[qid]
    for point in question.rubric:
        if _kind(point) != "misconception":
            continue
        for lang in ("zh", "en"):
            for keyword in point.keywords.get(lang) or []:
                assert point.id in suggest_ticks(question.rubric, f"I think {keyword}."), keyword
