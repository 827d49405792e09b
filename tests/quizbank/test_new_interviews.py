"""The interview rubrics of the bank files 09..12 as the Mock interview uses them: the keyword
suggestions (tutor.interview_match) must tick every required point of the model answer and no
misconception, and each misconception must be ticked by a sentence that makes the claim and not by
the same sentence denying it (a learner who says "LayerNorm does not use running averages" must
not be marked with the misconception "LayerNorm uses running averages").
"""

from pathlib import Path

import pytest

import quizbank
from tutor.interview_match import suggest_ticks

BANK = quizbank.load_bank()
NEW_FILES = ("09_normalization.yaml", "10_initialization.yaml", "11_transformer_depth.yaml",
             "12_seed_gaps.yaml")
INTERVIEWS = sorted(
    qid for qid, q in BANK.questions.items()
    if q.type == "interview" and Path(BANK.location(qid).path).name in NEW_FILES)


def _points(qid: str, kind: str) -> set[str]:
    return {p.id for p in BANK.questions[qid].rubric if p.kind == kind}


def _ticks(qid: str, text: str) -> set[str]:
    return set(suggest_ticks(BANK.questions[qid].rubric, text))


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("qid", INTERVIEWS)
def test_model_answer_gets_every_required_point_and_no_misconception(qid, lang):
    ticks = _ticks(qid, BANK.questions[qid].model_answer.get(lang))
    assert _points(qid, "required") <= ticks, _points(qid, "required") - ticks
    assert not _points(qid, "misconception") & ticks


# (question, misconception, lang, a sentence making the claim, the same sentence denying it)
CLAIMS = [
    ("iv-layernorm-jacobian", "jacobian-is-identity-over-sigma", "en",
     "The mean is a constant, so J=I/sigma.", "The mean is not a constant, so J is not just I over sigma."),
    ("iv-layernorm-jacobian", "jacobian-is-identity-over-sigma", "zh",
     "均值是常数，所以 J=I/σ。", "均值不是常数，所以不能只写 I 除以 σ。"),
    ("iv-layernorm-jacobian", "jacobian-invertible", "en",
     "The Jacobian is invertible and has full rank.", "The Jacobian is not invertible; it does not have full rank."),
    ("iv-layernorm-jacobian", "jacobian-invertible", "zh",
     "LayerNorm 的雅可比矩阵可逆。", "LayerNorm 的雅可比矩阵不可逆。"),
    ("iv-bn-ln-rmsnorm", "ln-uses-batch", "en",
     "LayerNorm uses running averages at inference.", "LayerNorm does not use running averages at inference."),
    ("iv-bn-ln-rmsnorm", "ln-uses-batch", "zh",
     "推理时 LayerNorm 用滑动平均。", "推理时 LayerNorm 不用滑动平均。"),
    ("iv-bn-ln-rmsnorm", "rms-zero-mean", "en",
     "RMSNorm centers the features.", "RMSNorm does not center the features."),
    ("iv-bn-ln-rmsnorm", "rms-zero-mean", "zh",
     "RMSNorm 输出均值为 0。", "RMSNorm 输出均值不为 0。"),
    ("iv-postln-warmup", "warmup-vanishing", "en",
     "Warmup is needed because the output layer gradients vanish.",
     "Warmup is needed although the output layer gradients do not vanish."),
    ("iv-postln-warmup", "warmup-vanishing", "zh",
     "需要 warmup 是因为输出层梯度消失。", "需要 warmup，但输出层梯度并没有消失。"),
    ("iv-postln-warmup", "preln-always-better", "en",
     "Pre-LN is always better.", "Pre-LN is not always better."),
    ("iv-postln-warmup", "preln-always-better", "zh",
     "Pre-LN 一定更好。", "Pre-LN 不一定更好。"),
    ("iv-preln-stream-growth", "final-ln-fixes-all", "en",
     "A final LayerNorm controls every layer.", "A final LayerNorm does not control every layer."),
    ("iv-preln-stream-growth", "final-ln-fixes-all", "zh",
     "final LayerNorm 控制每一层。", "final LayerNorm 不控制每一层。"),
    ("iv-preln-stream-growth", "preln-no-growth", "en",
     "The stream is already normalized.", "The stream is not normalized."),
    ("iv-preln-stream-growth", "preln-no-growth", "zh",
     "残差流已经归一化了。", "残差流并没有被归一化。"),
    ("iv-init-deep-residual", "scale-the-shortcut", "en",
     "You should scale down the shortcut.", "You should not scale down the shortcut."),
    ("iv-init-deep-residual", "scale-the-shortcut", "zh",
     "快捷连接应该缩小。", "快捷连接不应该缩小。"),
    ("iv-init-deep-residual", "he-init-enough", "en",
     "He initialization is enough.", "He initialization is not enough."),
    ("iv-init-deep-residual", "he-init-enough", "zh",
     "He 初始化就够了。", "He 初始化不够。"),
    ("iv-identity-mappings-ablations", "conv-shortcut-better", "en",
     "The conv shortcut is better.", "The conv shortcut is not better."),
    ("iv-identity-mappings-ablations", "conv-shortcut-better", "zh",
     "卷积快捷连接更好。", "卷积快捷连接并不更好。"),
    ("iv-identity-mappings-ablations", "branch-scaling-hurts", "en",
     "Scaling the branch also vanishes exponentially.", "Scaling the branch does not vanish exponentially."),
    ("iv-identity-mappings-ablations", "branch-scaling-hurts", "zh",
     "缩放分支同样衰减。", "缩放分支不会衰减。"),
    ("iv-weight-gradient", "wrong-order", "en",
     "The weight gradient = x g^T.", "The weight gradient is g x^T."),
    ("iv-weight-gradient", "wrong-order", "zh",
     "权重梯度 = x g^T。", "权重梯度是 g x^T。"),
    ("iv-weight-gradient", "guaranteed-stable", "en",
     "Residuals make the weight gradients always stable: the gradients are always stable.",
     "The gradients are not always stable."),
    ("iv-weight-gradient", "guaranteed-stable", "zh",
     "有了残差，梯度一定稳定。", "有了残差，梯度也不一定稳定。"),
    ("iv-degradation-not-vanishing", "overfitting", "en",
     "Degradation is caused by overfitting.", "Degradation is not caused by overfitting."),
    ("iv-degradation-not-vanishing", "overfitting", "zh",
     "退化是过拟合。", "退化不是过拟合。"),
    ("iv-highway-resnet-lstm", "equivalent", "en",
     "A ResNet is equivalent to an LSTM.", "A ResNet is not equivalent to an LSTM."),
    ("iv-highway-resnet-lstm", "equivalent", "zh",
     "ResNet 与 LSTM 等价。", "ResNet 与 LSTM 不等价。"),
    ("iv-highway-resnet-lstm", "gates-always-better", "en",
     "Gating is always better.", "Gating is not always better."),
    ("iv-highway-resnet-lstm", "gates-always-better", "zh",
     "门控一定更好。", "门控不一定更好。"),
    ("iv-attention-rank-collapse", "layernorm-prevents", "en",
     "LayerNorm prevents rank collapse.", "LayerNorm does not prevent rank collapse."),
    ("iv-attention-rank-collapse", "layernorm-prevents", "zh",
     "LayerNorm 阻止了秩坍缩。", "LayerNorm 不能阻止秩坍缩。"),
    ("iv-stochastic-depth", "drop-shortcut", "en",
     "Stochastic depth drops the shortcut.", "Stochastic depth does not drop the shortcut."),
    ("iv-stochastic-depth", "drop-shortcut", "zh",
     "随机深度丢弃快捷连接。", "随机深度不丢弃快捷连接。"),
    ("iv-stochastic-depth", "drop-at-test", "en",
     "Layers are also dropped at inference.", "Layers are not dropped at inference."),
    ("iv-stochastic-depth", "drop-at-test", "zh",
     "推理时也随机丢层。", "推理时不随机丢层。"),
    ("iv-activation-memory", "shortcut-adds-parameters", "en",
     "The identity shortcut adds parameters.", "The identity shortcut adds no parameters."),
    ("iv-activation-memory", "shortcut-adds-parameters", "zh",
     "恒等快捷连接增加参数。", "恒等快捷连接不增加参数。"),
    ("iv-activation-memory", "checkpoint-free", "en",
     "Gradient checkpointing is free.", "Gradient checkpointing is not free."),
    ("iv-activation-memory", "checkpoint-free", "zh",
     "梯度检查点不需要额外计算。", "梯度检查点需要额外计算。"),
    ("iv-mixed-precision-stream", "bf16-precise", "en",
     "BF16 is as precise as FP32.", "BF16 is not as precise as FP32."),
    ("iv-mixed-precision-stream", "bf16-precise", "zh",
     "BF16 精度与 FP32 相同。", "BF16 精度与 FP32 不同。"),
    ("iv-mixed-precision-stream", "bf16-needs-scaling", "en",
     "BF16 requires loss scaling.", "BF16 does not require loss scaling."),
    ("iv-mixed-precision-stream", "bf16-needs-scaling", "zh",
     "BF16 必须用损失缩放。", "BF16 不必用损失缩放。"),
    ("iv-resnet-ode", "always-invertible", "en",
     "A residual block is always invertible.", "A residual block is not always invertible."),
    ("iv-resnet-ode", "always-invertible", "zh",
     "残差块一定可逆。", "残差块不一定可逆。"),
    ("iv-residual-stream-view", "overwrite", "en",
     "Each layer overwrites the stream.", "No layer overwrites what earlier layers wrote; the stream accumulates."),
    ("iv-residual-stream-view", "overwrite", "zh",
     "每层替换整个残差流。", "每层并不替换整个残差流，而是累加。"),
    ("iv-residual-stream-view", "mhc-removes-residual", "en",
     "mHC removes the residual connection.", "mHC does not remove the residual connection."),
    ("iv-residual-stream-view", "mhc-removes-residual", "zh",
     "mHC 去掉了残差连接。", "mHC 没有去掉残差连接。"),
]


def test_every_misconception_of_the_new_interviews_has_a_claim_in_both_languages():
    listed = {(qid, point, lang) for qid, point, lang, _, _ in CLAIMS}
    expected = {(qid, point, lang) for qid in INTERVIEWS for point in _points(qid, "misconception")
                for lang in ("zh", "en")}
    assert listed == expected


@pytest.mark.parametrize(("qid", "point", "lang", "claim", "denial"), CLAIMS,
                         ids=[f"{c[0]}:{c[1]}:{c[2]}" for c in CLAIMS])
def test_a_misconception_is_ticked_by_its_claim_and_not_by_its_denial(qid, point, lang, claim, denial):
    assert point in _ticks(qid, claim)
    assert point not in _ticks(qid, denial)
