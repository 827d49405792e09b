"""Bank file 14 (initialization in depth), checked independently of the hand arithmetic in it.

Every numeric key is recomputed from its setting (torch autograd, torch.nn.init, SVDs, exact
fractions, a numerical integral); every expression key is derived with sympy from the definition
it rests on and the derived formula is graded against the question; each prompt states the
precision its tolerance implies; the interview rubrics tick each misconception on a sentence that
makes the claim and not on the same sentence denying it, and no required point on a generic
one-line answer.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
import torch

import quizbank
from quizbank.grading import grade
from tutor.interview_match import suggest_ticks

BANK = quizbank.load_bank()
FILE = "14_initialization_depth.yaml"
IDS = sorted(q for q in BANK.questions if Path(BANK.location(q).path).name == FILE)
NUMERIC = [q for q in IDS if BANK.questions[q].type == "numeric"]
INTERVIEWS = [q for q in IDS if BANK.questions[q].type == "interview"]


def _relu_second_moment(variance: float) -> float:
    """E[ReLU(z)^2] for z ~ N(0, variance), by the trapezoidal rule on [0, 40 sigma]."""
    sigma = math.sqrt(variance)
    z = np.linspace(0.0, 40 * sigma, 400_001)
    density = np.exp(-z**2 / (2 * variance)) / math.sqrt(2 * math.pi * variance)
    return float(np.trapezoid(z**2 * density, z))


def _conv_he_std() -> float:
    w = torch.empty(64, 128, 3, 3)  # (C_out, C_in, k, k) as nn.Conv2d stores it
    fan_in, _ = torch.nn.init._calculate_fan_in_and_fan_out(w)
    return torch.nn.init.calculate_gain("relu") / math.sqrt(fan_in)


def _constant_init_gradient() -> list[list[float]]:
    W1 = torch.full((2, 2), 0.5, dtype=torch.float64, requires_grad=True)
    w2 = torch.full((2,), 0.5, dtype=torch.float64)
    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    y = w2 @ torch.relu(W1 @ x)
    (0.5 * (y - 0.5) ** 2).backward()
    return W1.grad.tolist()


def _orthogonal_product_singular_values() -> list[float]:
    generator = torch.Generator().manual_seed(0)
    J = torch.eye(6, dtype=torch.float64)
    for _ in range(50):
        W = torch.empty(6, 6, dtype=torch.float64)
        torch.nn.init.orthogonal_(W, gain=1.02, generator=generator)
        J = W @ J
    return torch.linalg.svdvals(J).tolist()


def _mean_squared_singular_value() -> float:
    s = torch.linalg.svdvals(torch.tensor([[0.0, 1.4], [0.2, 0.0]], dtype=torch.float64))
    return float((s**2).mean())


def _lsuv_factor() -> float:
    # A layer whose output has variance 2.25 on the batch; scale its weights by c and measure.
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(4096, 32, dtype=torch.float64, generator=generator)
    W = torch.randn(32, 32, dtype=torch.float64, generator=generator)
    W = W * 1.5 / (x @ W.T).std()
    c = 1 / (x @ W.T).std()
    assert float((x @ (c * W).T).var()) == pytest.approx(1.0, rel=1e-12)
    return float(c)


def _correlated_branches_variance() -> float:
    # Covariance of (x0, F) with F shared by all 100 branches; x_L = x0 + (L alpha) F.
    L, alpha = 100, 1 / math.sqrt(100)
    coefficients = np.array([1.0] + [alpha] * L)
    cov = np.ones((L + 1, L + 1))
    cov[0, 1:] = cov[1:, 0] = 0.0  # x0 uncorrelated with the branches, which are one variable
    return float(coefficients @ cov @ coefficients)


def _aligned_jacobian_product() -> float:
    x0 = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    x = x0
    for _ in range(50):
        x = x + (1 / 50) * (2 * x)  # f_l(x) = 2x, so f_l' = 2 at every layer
    x.backward()
    return float(x0.grad)


def _xavier_relu_variance_ratio() -> float:
    # layer 1 -> layer 20: Var z_{l+1} = n Var(w) E[ReLU(z_l)^2] with n Var(w) = 1 (Xavier, n_in = n_out)
    return (_relu_second_moment(1.0) / 1.0) ** 19


RECOMPUTED = {
    "xavier-harmonic-compromise-numeric": lambda: float(Fraction(2, 256 + 1024)),
    "he-relu-second-moment-numeric": lambda: _relu_second_moment(4.0),
    "he-conv-std-numeric": _conv_he_std,
    "init-constant-symmetry-numeric": _constant_init_gradient,
    "orthogonal-gain-depth-numeric": lambda: _orthogonal_product_singular_values()[0],
    "dynamical-isometry-mean-square-numeric": _mean_squared_singular_value,
    "lsuv-rescale-numeric": _lsuv_factor,
    "tfixup-decoder-scale-numeric": lambda: (9 * 6) ** -0.25,
    "mup-hidden-lr-numeric": lambda: float(Fraction(1, 100) * Fraction(256, 4096)),
    "mup-output-init-numeric": lambda: float(Fraction(2, 100) * Fraction(256, 1024)),
    "depth-scaling-correlated-numeric": _correlated_branches_variance,
    "depth-scaling-jacobian-product-numeric": _aligned_jacobian_product,
    "xavier-with-relu-decay-numeric": _xavier_relu_variance_ratio,
}


def test_every_numeric_question_is_recomputed():
    assert sorted(RECOMPUTED) == sorted(NUMERIC)


# the numerical integral is good to about 1e-10, raised to the 19th power in one key
LOOSER = {"he-relu-second-moment-numeric": 1e-8, "xavier-with-relu-decay-numeric": 1e-7}


@pytest.mark.parametrize("qid", sorted(RECOMPUTED))
def test_numeric_key_matches_an_independent_computation(qid):
    np.testing.assert_allclose(BANK.questions[qid].answer, RECOMPUTED[qid](),
                               rtol=LOOSER.get(qid, 1e-9), atol=1e-12)


def test_orthogonal_product_has_all_singular_values_equal():
    values = _orthogonal_product_singular_values()
    np.testing.assert_allclose(values, [1.02**50] * len(values), rtol=1e-9)


@pytest.mark.parametrize("qid", NUMERIC)
def test_prompt_states_the_precision_its_tolerance_implies(qid):
    question = BANK.questions[qid]
    kind, value = getattr(question.tolerance.kind, "value", question.tolerance.kind), \
        question.tolerance.value
    if kind == "relative" and value >= 1e-4:
        figures = math.ceil(math.log10(5 / value))
        phrases = {"zh": f"{figures} 位有效数字", "en": f"{figures} significant figures"}
    else:
        phrases = {"zh": "精确值", "en": "Exact value"}
    for lang, phrase in phrases.items():
        assert phrase in question.prompt.get(lang), (lang, phrase)


def _uniform_bound():
    n, m, b, w = sympy.symbols("n m b w", positive=True)
    variance = sympy.integrate(w**2 / (2 * b), (w, -b, b))  # Var U(-b, b)
    (bound,) = sympy.solve(sympy.Eq(variance, 2 / (n + m)), b)
    return bound


def _leaky_relu_variance():
    a, n, v, z, s = sympy.symbols("a n v z s", positive=True)
    density = sympy.exp(-z**2 / (2 * s**2)) / sympy.sqrt(2 * sympy.pi * s**2)
    second_moment = (sympy.integrate(z**2 * density, (z, 0, sympy.oo))
                     + a**2 * sympy.integrate(z**2 * density, (z, -sympy.oo, 0)))
    (variance,) = sympy.solve(sympy.Eq(n * v * second_moment, s**2), v)  # keep Var z
    return variance


def _correlated_depth_variance():
    v, L, a, s = sympy.symbols("v L a s", positive=True)
    # Var(x0 + a * sum of L copies of F) with Cov(x0, F) = 0, Var F = s^2
    return v + (a * L) ** 2 * s**2


DERIVED = {
    "xavier-uniform-bound-expression": _uniform_bound,
    "he-leaky-relu-variance-expression": _leaky_relu_variance,
    "depth-scaling-correlated-expression": _correlated_depth_variance,
}


def test_every_expression_question_is_derived():
    assert sorted(DERIVED) == sorted(q for q in IDS if BANK.questions[q].type == "expression")


@pytest.mark.parametrize("qid", sorted(DERIVED))
def test_expression_key_matches_a_derivation(qid):
    derived = sympy.sstr(sympy.simplify(DERIVED[qid]())).replace("**", "^")
    result = grade(BANK.questions[qid], derived, lang="en")
    assert result.correct, (derived, result.feedback)


# Hints that did the work (the review of issue 30): the formula asked for, or the numbers of the
# whole computation. (question, what its hints may no longer say, in either language)
WORK_DONE_BY_HINTS = [
    ("xavier-harmonic-compromise-numeric", "2/(n_{\\mathrm{in}}+n_{\\mathrm{out}})"),
    ("init-constant-symmetry-numeric", "1.5"),
    ("tfixup-decoder-scale-numeric", "54"),
    ("depth-scaling-correlated-numeric", "(L\\alpha)^2"),
    ("depth-scaling-jacobian-product-numeric", "1.04"),
]


@pytest.mark.parametrize(("qid", "said"), WORK_DONE_BY_HINTS, ids=[q for q, _ in WORK_DONE_BY_HINTS])
def test_a_hint_points_at_the_method_without_doing_the_work(qid, said):
    hints = [text for hint in BANK.questions[qid].hints for text in (hint.zh, hint.en)]
    assert hints and all(said not in text for text in hints), hints


# (question, misconception, lang, a sentence making the claim, the same sentence denying it)
CLAIMS = [
    ("iv-xavier-vs-kaiming", "xavier-for-relu", "en",
     "Xavier is fine for ReLU networks.", "Xavier is not fine for ReLU networks."),
    ("iv-xavier-vs-kaiming", "xavier-for-relu", "zh",
     "Xavier 适合 ReLU 网络。", "Xavier 并不适合 ReLU 网络。"),
    ("iv-xavier-vs-kaiming", "variance-equals-std", "en",
     "Kaiming uses a standard deviation of 2/n.", "Kaiming does not use a standard deviation of 2/n."),
    ("iv-xavier-vs-kaiming", "variance-equals-std", "zh",
     "Kaiming 的标准差为 2/n。", "Kaiming 的标准差不是 2/n，方差才是。"),
    ("iv-why-not-zero-init", "optimizer-breaks-symmetry", "en",
     "Adam breaks the symmetry.", "Adam does not break the symmetry."),
    ("iv-why-not-zero-init", "optimizer-breaks-symmetry", "zh",
     "Adam 能打破对称。", "Adam 不能打破对称。"),
    ("iv-why-not-zero-init", "zero-layer-never-learns", "en",
     "A zero last layer will never learn.", "A zero last layer is not a layer that will never learn."),
    ("iv-why-not-zero-init", "zero-layer-never-learns", "zh",
     "置零的最后一层永远学不到东西。", "置零的最后一层并不是永远学不到东西。"),
    ("iv-dynamical-isometry", "mean-square-is-isometry", "en",
     "A mean squared singular value of 1 is dynamical isometry.",
     "A mean squared singular value of 1 is not dynamical isometry."),
    ("iv-dynamical-isometry", "mean-square-is-isometry", "zh",
     "平均奇异值平方为 1 就是动力学等距。", "平均奇异值平方为 1 并不就是动力学等距。"),
    ("iv-dynamical-isometry", "relu-orthogonal-isometric", "en",
     "With orthogonal weights ReLU networks achieve dynamical isometry.",
     "Even with orthogonal weights ReLU networks do not achieve dynamical isometry."),
    ("iv-dynamical-isometry", "relu-orthogonal-isometric", "zh",
     "ReLU 网络配合正交初始化可以达到动力学等距。", "ReLU 网络配合正交初始化也不可以达到动力学等距。"),
    ("iv-mup", "all-lr-divided", "en",
     "In μP all learning rates are divided by the width.",
     "In μP not all learning rates are divided by the width."),
    ("iv-mup", "all-lr-divided", "zh",
     "μP 把所有层的学习率都除以宽度。", "μP 并不是把所有层的学习率都除以宽度。"),
    ("iv-mup", "init-only", "en",
     "μP only changes the initialization.", "μP does not only change the initialization."),
    ("iv-mup", "init-only", "zh",
     "μP 只改初始化。", "μP 不只改初始化。"),
    ("iv-fixup-tfixup", "tfixup-zero-init", "en",
     "T-Fixup also zeroes the last layer.", "T-Fixup never zeroes the last layer."),
    ("iv-fixup-tfixup", "tfixup-zero-init", "zh",
     "T-Fixup 也把最后一层初始化为 0。", "T-Fixup 并没有把最后一层初始化为 0。"),
    ("iv-fixup-tfixup", "no-tuning-needed", "en",
     "With Fixup there is no need to tune the learning rate.",
     "Even with Fixup it is wrong to say there is no need to tune the learning rate."),
    ("iv-fixup-tfixup", "no-tuning-needed", "zh",
     "用了 Fixup 就不需要调学习率。", "用了 Fixup 也并非不需要调学习率。"),
]


def _points(qid: str, kind: str) -> set[str]:
    return {p.id for p in BANK.questions[qid].rubric
            if getattr(p.kind, "value", p.kind) == kind}


def test_every_misconception_has_a_claim_in_both_languages():
    listed = {(qid, point, lang) for qid, point, lang, _, _ in CLAIMS}
    expected = {(qid, point, lang) for qid in INTERVIEWS
                for point in _points(qid, "misconception") for lang in ("zh", "en")}
    assert listed == expected


@pytest.mark.parametrize(("qid", "point", "lang", "claim", "denial"), CLAIMS,
                         ids=[f"{c[0]}:{c[1]}:{c[2]}" for c in CLAIMS])
def test_a_misconception_is_ticked_by_its_claim_and_not_by_its_denial(qid, point, lang, claim,
                                                                       denial):
    rubric = BANK.questions[qid].rubric
    assert point in suggest_ticks(rubric, claim)
    assert point not in suggest_ticks(rubric, denial)


GENERIC = {
    "en": ["Good initialization keeps training stable in deep networks.",
           "Residual connections let the gradient flow through the identity path.",
           "I would initialize the weights randomly with a small scale.",
           "The output weights should be initialized small."],
    "zh": ["好的初始化让深层网络训练稳定。", "残差连接让梯度沿恒等路径传播。", "我会用较小的随机数初始化权重。",
           "输出层的权重初始化得小一点。"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("qid", INTERVIEWS)
def test_a_generic_answer_gets_no_required_point(qid, lang):
    required = _points(qid, "required")
    for answer in GENERIC[lang]:
        assert not required & set(suggest_ticks(BANK.questions[qid].rubric, answer)), answer
