"""Every numeric answer key of the bank files 09..12 recomputed independently, and the precision
each prompt states checked against the grader.

The keys in the YAML were typed by hand; here each one is recomputed from its formula with torch
(autograd, the real nn modules, real BF16/FP16 arithmetic), numpy or exact fractions, without
reading the hand arithmetic of the worked solutions. Expression keys whose maths is not obvious
(the LayerNorm and RMSNorm Jacobians, the two-block weight gradient, the RevNet inverse, the highway
derivative) are compared with torch autograd as well; the grader's equivalence checks on them are
the author tests run by `quizbank test`.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import quizbank
from quizbank.grading import grade

BANK = quizbank.load_bank()
NEW_FILES = ("09_normalization.yaml", "10_initialization.yaml", "11_transformer_depth.yaml",
             "12_seed_gaps.yaml")


def _in_new_files(qid: str) -> bool:
    return Path(BANK.location(qid).path).name in NEW_FILES


NEW_IDS = sorted(qid for qid in BANK.questions if _in_new_files(qid))
NEW_NUMERIC = [qid for qid in NEW_IDS if BANK.questions[qid].type == "numeric"]


# --- independent recomputations, one per numeric question -------------------------------------------

def _t(values) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.float64)


def _layer_norm(x):
    return F.layer_norm(_t(x), (len(x),), eps=0.0).tolist()


def _ln_jvp(x, v):
    _, jv = torch.autograd.functional.jvp(lambda z: F.layer_norm(z, (len(x),), eps=0.0), _t(x), _t(v))
    return jv.tolist()


def _effective_lr_ratio():
    # A scale-invariant loss L(w) = f(w/|w|): compare the relative SGD step at w and at 2w.
    target = _t([0.3, -1.0, 2.0])

    def relative_step(w):
        w = w.clone().requires_grad_(True)
        loss = ((w / w.norm() - target) ** 2).sum()
        (grad,) = torch.autograd.grad(loss, w)
        return (grad.norm() / w.norm()).item()

    w = _t([1.0, 2.0, -0.5])
    return relative_step(2 * w) / relative_step(w)


def _bn_eval(x, mean, var, gamma, beta):
    bn = nn.BatchNorm1d(1, eps=0.0).double().eval()
    with torch.no_grad():
        bn.running_mean.fill_(mean)
        bn.running_var.fill_(var)
        bn.weight.fill_(gamma)
        bn.bias.fill_(beta)
        return bn(_t([[x]])).item()


def _bn_statistics(shape):
    x = torch.zeros(shape)
    per_channel = x.transpose(0, 1).reshape(shape[1], -1)
    return [per_channel.shape[0], per_channel.shape[1]]


def _ln_statistics(shape):
    x = torch.zeros(shape)
    return [x.mean(dim=-1).numel(), x.shape[-1]]


def _variance_by_recursion(v0, layers, step):
    v = Fraction(v0)
    for _ in range(layers):
        v = step(v)
    return v


def _zero_w2_grad():
    x = _t([1.0, 2.0])
    w1 = _t([[1.0, 0.0], [0.0, -1.0]])
    w2 = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    g = _t([0.5, 1.5])
    y = x + w2 @ torch.relu(w1 @ x)
    (grad,) = torch.autograd.grad((g * y).sum(), w2)  # dL/dy = g
    return grad.tolist()


def _expected_survivors(blocks, last):
    return sum(1 - Fraction(block, blocks) * (1 - Fraction(last)) for block in range(1, blocks + 1))


def _test_time_expectation(p, x, f):
    p, x, f = Fraction(p), Fraction(x), Fraction(f)
    return p * (x + f) + (1 - p) * x  # the training-time mean, which the test output must match


def _activation_mib(shape, blocks):
    one = torch.empty(shape, dtype=torch.float16)
    return one.numel() * one.element_size() * blocks / 2**20


def _checkpoint_peak(blocks, every):
    checkpoints = set(range(0, blocks, every))
    peak = 0
    for start in sorted(checkpoints, reverse=True):  # backward visits the last segment first
        recomputed = min(every, blocks - start)
        peak = max(peak, len(checkpoints) + recomputed)
    return peak


def _low_precision_sum(a, b, dtype):
    return (torch.tensor(a, dtype=dtype) + torch.tensor(b, dtype=dtype)).item()


def _spacing_above(value, dtype):
    x = torch.tensor(value, dtype=dtype)
    return (torch.nextafter(x, torch.tensor(math.inf, dtype=dtype)) - x).item()


def _euler(f, x0, steps):
    x = x0
    for _ in range(steps):
        x = x + f(x) / steps
    return x


def _residual_stack(branch, alpha, blocks):
    """x_{l+1} = x_l + alpha F(x_l) from x_0 = 1, in exact fractions."""
    x = Fraction(1)
    for _ in range(blocks):
        x = x + alpha * branch(x)
    return float(x)


def _bisect(fn, lo, hi, iterations=200):
    for _ in range(iterations):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if fn(lo) * fn(mid) <= 0 else (mid, hi)
    return (lo + hi) / 2


def _seed_section_4_weight_grad():
    x = _t([1.0, 2.0])
    weight = _t([[0.1, 0.2], [-0.1, 0.3]]).requires_grad_(True)
    y = x + weight @ x
    loss = 0.5 * ((y - _t([1.0, 1.0])) ** 2).sum()
    loss.backward()
    return weight.grad.tolist()


class _Seed000ResidualBlock(nn.Module):
    """The ResidualBlock of seed 000, section 8, copied verbatim."""

    def __init__(self, hidden_dim):
        super().__init__()
        self.layer_norm = nn.LayerNorm(hidden_dim)
        self.linear1 = nn.Linear(hidden_dim, hidden_dim * 4)
        self.activation = nn.GELU()
        self.linear2 = nn.Linear(hidden_dim * 4, hidden_dim)

    def forward(self, x):
        hidden = self.layer_norm(x)
        hidden = self.linear1(hidden)
        self.hidden_shape = list(hidden.shape)
        hidden = self.activation(hidden)
        hidden = self.linear2(hidden)
        return x + hidden


def _block4_hidden_shape():
    model = _Seed000ResidualBlock(4)
    model(torch.randn(2, 3, 4))
    return model.hidden_shape


def _block4_zero_branch_grad():
    torch.manual_seed(0)
    model = _Seed000ResidualBlock(4).double()  # float64, so 1.2 / 12 is compared at 1e-9
    with torch.no_grad():
        model.linear2.weight.zero_()
        model.linear2.bias.zero_()
    x = torch.randn(2, 3, 4, dtype=torch.float64)
    x[0, 0, 0] = 1.2
    x.requires_grad_(True)
    model(x).square().mean().backward()
    return x.grad[0, 0, 0].item()


def _seed002_block_params():
    """The ResidualBlock of seed 002 (two 3x3 convs with BN, a 1x1 projection shortcut with BN)."""
    cin, cout = 64, 128
    layers = [nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout),
              nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
              nn.Conv2d(cin, cout, 1, stride=2, bias=False), nn.BatchNorm2d(cout)]
    return sum(p.numel() for layer in layers for p in layer.parameters())


def _params(*modules):
    return sum(p.numel() for m in modules for p in m.parameters())


RECOMPUTED = {
    # 09 normalization
    "norm-ln-forward-numeric": lambda: _layer_norm([1.0, 2.0, 3.0, 6.0]),
    "norm-ln-statistics-count": lambda: _ln_statistics((32, 128, 768)),
    "norm-ln-affine-params": lambda: _params(nn.LayerNorm(768)),
    "norm-ln-jvp-numeric": lambda: _ln_jvp([1.0, 1.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0]),
    "norm-ln-null-direction-numeric": lambda: _ln_jvp([1.0, 1.0, 3.0, 3.0], [2.0, 2.0, 5.0, 5.0]),
    "norm-ln-effective-lr": _effective_lr_ratio,
    "norm-rmsnorm-forward": lambda: F.rms_norm(_t([1.0, 2.0, 3.0, 6.0]), (4,), eps=0.0).tolist(),
    "norm-bn-eval-numeric": lambda: _bn_eval(3.0, mean=1.0, var=4.0, gamma=2.0, beta=0.5),
    "norm-bn-statistics-count": lambda: _bn_statistics((8, 64, 32, 32)),
    "norm-deepnorm-constants": lambda: [(2 * 8) ** 0.25, (8 * 8) ** -0.25],
    "norm-preln-stream-variance": lambda: [
        float(_variance_by_recursion(1, 48, lambda v: v + 1)),
        1 / math.sqrt(_variance_by_recursion(1, 47, lambda v: v + 1))],
    # 10 initialization
    "init-var-depth-numeric": lambda: [
        float(_variance_by_recursion(1, 24, lambda v: v + 1)),
        float(_variance_by_recursion(1, 24, lambda v: v + Fraction(1, 24)))],
    "init-var-multiplicative-numeric": lambda: [
        float(_variance_by_recursion(1, 10, lambda v: v + 1 * v)),
        float(_variance_by_recursion(1, 100, lambda v: v + Fraction(1, 100) * v))],
    "init-gpt2-residual-std": lambda: 0.02 / math.sqrt(2 * 12),
    "init-he-std": lambda: nn.init.calculate_gain("relu") / math.sqrt(512),
    "init-fixup-scale": lambda: 16 ** (-1 / (2 * 3 - 2)),
    "init-zero-w2-gradient-numeric": _zero_w2_grad,
    "init-bn-downscale-numeric": lambda: 1 / math.sqrt(_variance_by_recursion(1, 99, lambda v: v + 1)),
    # 11 transformer depth
    "identity-lambda-product-numeric": lambda: [float(Fraction(1, 2) ** 10),
                                                float(Fraction(11, 10) ** 54)],
    "highway-carry-product-numeric": lambda: float(Fraction(9, 10) ** 50),
    "rank-collapse-uniform-numeric": lambda: (np.full((3, 3), 1 / 3)
                                              @ np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 0.0]])).tolist(),
    "stochdepth-expected-depth": lambda: float(_expected_survivors(54, Fraction(1, 2))),
    "stochdepth-test-scaling": lambda: float(_test_time_expectation(Fraction(4, 5), 1, Fraction(5, 2))),
    "memory-activation-numeric": lambda: _activation_mib((32, 128, 768), 24),
    "memory-checkpoint-count": lambda: _checkpoint_peak(64, 8),
    "numerics-bf16-sum": lambda: [_low_precision_sum(256.0, 0.5, torch.bfloat16),
                                  _low_precision_sum(256.0, 0.5, torch.float16)],
    "numerics-bf16-spacing": lambda: [_spacing_above(256.0, torch.bfloat16),
                                      _spacing_above(256.0, torch.float16)],
    "numerics-bf16-tie": lambda: _low_precision_sum(256.0, 1.0, torch.bfloat16),
    "ode-euler-numeric": lambda: [_euler(lambda x: x, 1.0, 10), math.e],
    "ode-iresnet-fixed-point": lambda: _bisect(lambda x: x + 0.5 * math.tanh(x) - 1.0, -5.0, 5.0),
    "stream-mhc-mixing-numeric": lambda: [
        np.linalg.matrix_power(np.array([[0.7, 0.3], [0.3, 0.7]]), 10)[0].sum(),
        np.linalg.eigvalsh(np.linalg.matrix_power(np.array([[0.9, 0.6], [0.6, 0.9]]), 10)).max()],
    # 12 seed gaps
    "seed-grad-w-worked": _seed_section_4_weight_grad,
    "seed-residualblock4-params": lambda: _params(_Seed000ResidualBlock(4)),
    "seed-residualblock4-hidden-shape": _block4_hidden_shape,
    "seed-residualblock4-zero-branch-grad": _block4_zero_branch_grad,
    "seed-activation-growth-numeric": lambda: [_residual_stack(lambda x: Fraction(1, 5) * x, 1, 20),
                                               _residual_stack(lambda x: Fraction(1, 5) * x,
                                                               Fraction(1, 4), 20)],
    "seed-grouped-conv-params": lambda: [_params(nn.Conv2d(64, 64, 3, groups=4, bias=False)),
                                         _params(nn.Conv2d(64, 64, 3, groups=64, bias=False))],
    "seed-depthwise-separable-params": lambda: [
        _params(nn.Conv2d(64, 64, 3, groups=64, bias=False), nn.Conv2d(64, 64, 1, bias=False)),
        _params(nn.Conv2d(64, 64, 3, groups=64, bias=False), nn.Conv2d(64, 64, 1, bias=False))
        / _params(nn.Conv2d(64, 64, 3, bias=False))],
    "seed-resnet-block-params": _seed002_block_params,
}


def test_every_numeric_question_of_the_new_files_is_recomputed():
    assert set(RECOMPUTED) == set(NEW_NUMERIC)


@pytest.mark.parametrize("qid", NEW_NUMERIC)
def test_numeric_key_matches_an_independent_computation(qid):
    key = BANK.questions[qid].answer
    np.testing.assert_allclose(np.asarray(key, dtype=float), np.asarray(RECOMPUTED[qid](), dtype=float),
                               rtol=1e-9, atol=1e-12)


# --- the precision a prompt asks for is the precision the grader accepts ----------------------------

_EN_SIGFIGS = re.compile(r"\((?:[A-Za-z]+\s+to\s+)?(\d+)\s+significant\s+figures\)")
_EN_DECIMALS = re.compile(r"\((\d+)\s+decimal\s+places\)")
_EN_EXACT = re.compile(r"\(Exact\s+values?\)")
_ZH_SIGFIGS = re.compile(r"(\d+) 位有效数字")
_ZH_DECIMALS = re.compile(r"保留 (\d+) 位小数")
_ZH_EXACT = re.compile(r"精确值")


def _entries(key) -> list[float]:
    return list(np.asarray(key, dtype=float).ravel())


def _stated_precision(text: str, sigfigs, decimals, exact) -> tuple[str, int] | None:
    for kind, pattern in (("sigfigs", sigfigs), ("decimals", decimals)):
        match = pattern.search(text)
        if match:
            return kind, int(match.group(1))
    return ("exact", 0) if exact.search(text) else None


def _typed(value: float, precision: tuple[str, int] | None) -> str:
    """How a learner following the prompt would type one entry."""
    if float(value).is_integer():
        return str(int(value))
    kind, n = precision
    if kind == "sigfigs":
        return f"{value:.{n}g}"
    if kind == "decimals":
        return f"{value:.{n}f}"
    return repr(float(value))


@pytest.mark.parametrize("qid", NEW_NUMERIC)
def test_prompt_states_the_precision_in_both_languages(qid):
    question = BANK.questions[qid]
    en = _stated_precision(question.prompt.en, _EN_SIGFIGS, _EN_DECIMALS, _EN_EXACT)
    zh = _stated_precision(question.prompt.zh, _ZH_SIGFIGS, _ZH_DECIMALS, _ZH_EXACT)
    all_integers = all(float(v).is_integer() for v in _entries(question.answer))
    assert en == zh, (en, zh)
    assert en is not None or all_integers, "a non-integer key needs its precision stated"


def _typed_answer(key, precision) -> str:
    if isinstance(key, list) and key and isinstance(key[0], list):
        return "[" + ", ".join(_typed_answer(row, precision) for row in key) + "]"
    if isinstance(key, list):
        return "[" + ", ".join(_typed(v, precision) for v in key) + "]"
    return _typed(key, precision)


@pytest.mark.parametrize("qid", NEW_NUMERIC)
def test_the_key_at_the_stated_precision_is_accepted(qid):
    question = BANK.questions[qid]
    precision = _stated_precision(question.prompt.en, _EN_SIGFIGS, _EN_DECIMALS, _EN_EXACT)
    typed = _typed_answer(question.answer, precision)
    result = grade(question, typed, lang="en")
    assert result.correct, (typed, result.feedback)


# --- expression keys against torch autograd ---------------------------------------------------------

_RNG = np.random.default_rng(12)


def _autograd_jacobian(fn, x: np.ndarray) -> np.ndarray:
    return torch.autograd.functional.jacobian(fn, torch.tensor(x)).numpy()


@pytest.mark.parametrize("d", [3, 4, 7])
def test_layernorm_jacobian_key_matches_autograd(d):
    assert BANK.questions["norm-ln-jacobian-expression"].answer == "(I - u u^T/d - z z^T/d)/sigma"
    x = _RNG.normal(size=d)
    sigma = x.std()
    z, u = (x - x.mean()) / sigma, np.ones(d)
    key = (np.eye(d) - np.outer(u, u) / d - np.outer(z, z) / d) / sigma
    autograd = _autograd_jacobian(lambda t: F.layer_norm(t, (d,), eps=0.0), x)
    np.testing.assert_allclose(key, autograd, atol=1e-10)
    np.testing.assert_allclose(key @ u, 0, atol=1e-10)  # the null space the questions teach
    np.testing.assert_allclose(key @ z, 0, atol=1e-10)
    assert np.linalg.matrix_rank(key) == d - 2


@pytest.mark.parametrize("d", [3, 4, 7])
def test_rmsnorm_jacobian_key_matches_autograd(d):
    assert BANK.questions["norm-rmsnorm-jacobian"].answer == "(I - z z^T/d)/r"
    x = _RNG.normal(size=d)
    r = np.sqrt(np.mean(x**2))
    z = x / r
    key = (np.eye(d) - np.outer(z, z) / d) / r
    autograd = _autograd_jacobian(lambda t: F.rms_norm(t, (d,), eps=0.0), x)
    np.testing.assert_allclose(key, autograd, atol=1e-10)


def test_two_block_weight_gradient_key_matches_autograd():
    assert BANK.questions["grad-w-two-block-expression"].answer == "(I + B)^T g x^T"
    a, b = (torch.tensor(_RNG.normal(size=(3, 3))) for _ in range(2))
    g, x = (torch.tensor(_RNG.normal(size=3)) for _ in range(2))
    a.requires_grad_(True)
    x1 = x + a @ x
    x2 = x1 + b @ x1
    (grad_a,) = torch.autograd.grad((g * x2).sum(), a)  # dL/dx2 = g
    key = (torch.eye(3, dtype=torch.float64) + b).T @ torch.outer(g, x)
    np.testing.assert_allclose(key.numpy(), grad_a.numpy(), atol=1e-12)


def test_revnet_inverse_key_rebuilds_the_input():
    assert BANK.questions["revnet-inverse-expression"].answer == "y_1 - F(y_2 - G(y_1))"
    f, g = np.sin, lambda t: t**3 - 2 * t
    x1, x2 = _RNG.normal(size=2)
    y1 = x1 + f(x2)
    y2 = x2 + g(y1)
    assert y1 - f(y2 - g(y1)) == pytest.approx(x1, abs=1e-12)


def test_highway_derivative_key_matches_autograd():
    assert BANK.questions["highway-derivative-expression"].answer == "t*H'(x) + 1 - t"
    t, x = 0.3, torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    y = t * torch.tanh(x) + (1 - t) * x
    (dy,) = torch.autograd.grad(y, x)
    assert dy.item() == pytest.approx(t * (1 - math.tanh(0.7) ** 2) + 1 - t, abs=1e-12)


def test_lambda_product_target_matches_autograd():
    question = BANK.questions["identity-lambda-derivation"]
    assert question.target == "(l_1 + G'(l_0*x + F(x)))*(l_0 + F'(x))"
    l0, l1 = 0.5, 1.1
    x = torch.tensor(0.4, dtype=torch.float64, requires_grad=True)
    x1 = l0 * x + torch.sin(x)            # F = sin
    x2 = l1 * x1 + x1**2                  # G(t) = t^2
    (dx2,) = torch.autograd.grad(x2, x)
    x1v = l0 * 0.4 + math.sin(0.4)
    assert dx2.item() == pytest.approx((l1 + 2 * x1v) * (l0 + math.cos(0.4)), abs=1e-12)


def test_variance_over_depth_key_matches_a_simulation():
    # Var(x_L) = v + L a^2 s^2 for uncorrelated branches: a fixed-seed Monte Carlo within 2 %.
    assert BANK.questions["init-var-depth-expression"].answer == "v + L*a^2*s^2"
    v, layers, a, s = 2.0, 12, 0.5, 1.5
    rng = np.random.default_rng(3)
    x = rng.normal(0, math.sqrt(v), 400_000)
    for _ in range(layers):
        x = x + a * rng.normal(0, s, x.size)
    assert x.var() == pytest.approx(v + layers * a**2 * s**2, rel=0.02)


def test_zero_conv_weights_make_batchnorm_amplify_gradients_by_one_over_sqrt_eps():
    # init-zero-gamma's argument against zeroing conv2: BatchNorm in training sees a constant zero
    # input, outputs beta, and its backward pass scales the centred gradient by gamma / sqrt(eps).
    bn = nn.BatchNorm2d(1, eps=1e-5).double()
    x = torch.zeros(4, 1, 2, 2, dtype=torch.float64, requires_grad=True)
    g = torch.tensor(_RNG.normal(size=(4, 1, 2, 2)))
    y = bn(x)
    (y * g).sum().backward()
    assert torch.equal(y, torch.zeros_like(y) + bn.bias.detach())
    np.testing.assert_allclose(x.grad.numpy(), ((g - g.mean()) / math.sqrt(1e-5)).numpy(), rtol=1e-9)
