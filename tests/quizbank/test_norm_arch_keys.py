"""Every numeric answer key of 15_normalization_architecture.yaml recomputed independently, the
precision each prompt states checked against the grader, and the formula keys (BN backward pass,
BN folding) checked against torch autograd on the real modules.

The keys in the YAML were typed by hand; here each one comes from the real torch modules
(nn.BatchNorm1d in training and eval mode, nn.GroupNorm's grouping, nn.Conv2d parameter counts),
autograd, or exact fractions, without reading the worked solutions' arithmetic.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

import quizbank
from quizbank.grading import grade

BANK = quizbank.load_bank()
FILE = "15_normalization_architecture.yaml"
IDS = sorted(q for q in BANK.questions if Path(BANK.location(q).path).name == FILE)
NUMERIC = [q for q in IDS if BANK.questions[q].type == "numeric"]


def _t(values) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.float64)


def _params(*modules) -> int:
    return sum(p.numel() for m in modules for p in m.parameters())


def _group_norm_statistics(shape, groups):
    """(pairs, numbers per pair) read off the tensor GroupNorm normalizes: (N, G, C/G * H * W)."""
    n, c, h, w = shape
    grouped = torch.zeros(shape).reshape(n, groups, -1)  # the view nn.GroupNorm reduces over
    return [grouped.shape[0] * grouped.shape[1], grouped.shape[2]]


# torch refuses eps = 0 in training mode; 1e-300 is positive and vanishes next to any batch variance
# in float64, so this is the eps = 0 the questions state.
TINY_EPS = 1e-300


def _bn_train(x):
    """One channel, training mode: (the BatchNorm module, its output, the input leaf)."""
    bn = nn.BatchNorm1d(1, eps=TINY_EPS, affine=False, dtype=torch.float64)
    xs = _t(x).reshape(-1, 1).requires_grad_(True)
    return bn, bn(xs), xs


def _bn_averaged(shape) -> int:
    """How many numbers BatchNorm2d averages per channel: the elements of one channel's slice."""
    return torch.zeros(shape).transpose(0, 1).reshape(shape[1], -1).shape[1]


def _bn_train_grad(x, upstream, gamma=1.0):
    _, y, xs = _bn_train(x)
    (gamma * y.reshape(-1) @ _t(upstream)).backward()
    return xs.grad.reshape(-1).tolist()


def _bn_eval_grad(x, upstream, mean, var, gamma):
    bn = nn.BatchNorm1d(1, eps=0.0, dtype=torch.float64).eval()
    with torch.no_grad():
        bn.weight.fill_(gamma)
        bn.running_mean.fill_(mean)
        bn.running_var.fill_(var)
    xs = _t(x).reshape(-1, 1).requires_grad_(True)
    (bn(xs).reshape(-1) @ _t(upstream)).backward()
    return xs.grad.reshape(-1).tolist()


def _running_var_after(x, running_var, momentum):
    bn = nn.BatchNorm1d(1, momentum=momentum, dtype=torch.float64)
    with torch.no_grad():
        bn.running_var.fill_(running_var)
        bn(_t(x).reshape(-1, 1))
    return bn.running_var.item()


def _folded(weights, bias, gamma, beta, mean, var):
    """[w', b'] of one output channel: the Jacobian and the value at 0 of eval-mode BN(conv(x))."""
    linear = nn.Linear(len(weights), 1, dtype=torch.float64)
    bn = nn.BatchNorm1d(1, eps=0.0, dtype=torch.float64).eval()
    with torch.no_grad():
        linear.weight.copy_(_t([weights]))
        linear.bias.fill_(bias)
        bn.weight.fill_(gamma)
        bn.bias.fill_(beta)
        bn.running_mean.fill_(mean)
        bn.running_var.fill_(var)

    def layer(x):
        return bn(linear(x.reshape(1, -1))).reshape(-1)

    zero = torch.zeros(len(weights), dtype=torch.float64)
    w_fold = torch.autograd.functional.jacobian(layer, zero).reshape(-1).tolist()
    return w_fold + [layer(zero).item()]


def _weight_norm(v, g, grad_w=None):
    vs = _t(v).requires_grad_(True)
    w = g * vs / vs.norm()
    if grad_w is None:
        return w.tolist()
    (w @ _t(grad_w)).backward()
    return vs.grad.tolist()


def _dyt(x, alpha, gamma, beta):
    return (gamma * torch.tanh(alpha * _t(x)) + beta).tolist()


def _radam():
    """[rho_inf, rho_1, first t with rho_t > 4] for beta2 = 0.999, in exact fractions."""
    beta2 = Fraction(999, 1000)
    rho_inf = 2 / (1 - beta2) - 1

    def rho(t):
        return rho_inf - 2 * t * beta2**t / (1 - beta2**t)

    first = next(t for t in range(1, 100) if rho(t) > 4)
    return [float(rho_inf), float(rho(1)), first]


def _bottleneck_projection_factor():
    block = _params(nn.Conv2d(256, 64, 1, bias=False), nn.Conv2d(64, 64, 3, bias=False),
                    nn.Conv2d(64, 256, 1, bias=False))
    return (block + _params(nn.Conv2d(256, 256, 1, bias=False))) / block


def _wrn_28_10():
    blocks = Fraction(28 - 4, 6)
    width = 16 * 10
    ratio = _params(nn.Conv2d(width, width, 3, bias=False)) / _params(nn.Conv2d(16, 16, 3, bias=False))
    return [float(blocks), width, ratio]


def _unet_channels():
    up = torch.zeros(1, 512, 56, 56)
    skip = torch.zeros(1, 512, 64, 64)[:, :, 4:60, 4:60]  # centre crop to 56 x 56
    return [torch.cat([skip, up], dim=1).shape[1], (skip + up).shape[1]]


RECOMPUTED = {
    "norm-gn-statistics-count": lambda: _group_norm_statistics((8, 64, 14, 14), 32),
    "norm-gn-forward-numeric": lambda: nn.GroupNorm(2, 4, eps=TINY_EPS, affine=False)(
        _t([[1.0, 3.0, 2.0, 6.0]]).reshape(1, 4, 1, 1)).reshape(-1).tolist(),
    "norm-bn-batch2-output": lambda: _bn_train([0.3, 5.1])[1].reshape(-1).tolist(),
    "norm-bn-batch2-gradient": lambda: _bn_train_grad([0.3, 5.1], [2.0, -3.0]),
    "norm-syncbn-statistics-count": lambda: [_bn_averaged((2, 256, 14, 14)),
                                             _bn_averaged((8 * 2, 256, 14, 14))],
    "norm-bn-running-update-numeric": lambda: _running_var_after([1.0, 2.0, 3.0, 6.0], 2.0, 0.1),
    "norm-bn-fold-numeric": lambda: _folded([2.0, -1.0, 4.0], 0.5, 1.5, -0.2, 1.3, 0.36),
    "norm-bn-backward-numeric": lambda: _bn_train_grad([2.0, 2.0, 4.0, 4.0], [1.0, 2.0, 3.0, 6.0],
                                                       gamma=2.0),
    "norm-bn-eval-gradient-numeric": lambda: _bn_eval_grad([2.0, 2.0, 4.0, 4.0], [1.0, 2.0, 3.0, 6.0],
                                                           mean=3.0, var=1.0, gamma=2.0),
    "norm-weightnorm-forward-numeric": lambda: _weight_norm([3.0, 4.0], 2.0)
    + _weight_norm([30.0, 40.0], 2.0),
    "norm-weightnorm-gradient-numeric": lambda: _weight_norm([3.0, 4.0], 2.0, grad_w=[1.0, 0.0]),
    "norm-dyt-numeric": lambda: _dyt([4.0, 40.0, -1.0], 0.5, 2.0, 0.1),
    "norm-radam-rho-numeric": _radam,
    "arch-shortcut-option-a-b-numeric": lambda: [0, 128 - 64,
                                                 _params(nn.Conv2d(64, 128, 1, stride=2, bias=False))],
    "arch-bottleneck-projection-cost": _bottleneck_projection_factor,
    "arch-wrn-numeric": _wrn_28_10,
    "arch-unet-concat-channels": _unet_channels,
}


def test_every_numeric_question_of_the_file_is_recomputed():
    assert set(RECOMPUTED) == set(NUMERIC)


@pytest.mark.parametrize("qid", NUMERIC)
def test_numeric_key_matches_an_independent_computation(qid):
    key = BANK.questions[qid].answer
    # BatchNorm's ops carry float64 rounding; the keys are exact decimals.
    np.testing.assert_allclose(np.asarray(key, dtype=float), np.asarray(RECOMPUTED[qid](), dtype=float),
                               rtol=1e-9, atol=1e-12)


# --- the precision a prompt asks for is the precision the grader accepts ----------------------------

_PRECISION = {
    "en": (re.compile(r"\((\d+) significant figures\)"), re.compile(r"\(exact\)")),
    "zh": (re.compile(r"(\d+) 位有效数字"), re.compile(r"（精确）")),
}


def _stated(question, lang: str):
    sigfigs, exact = _PRECISION[lang]
    text = question.prompt.get(lang)
    found = sigfigs.search(text)
    if found:
        return "sigfigs", int(found.group(1))
    return ("exact", 0) if exact.search(text) else None


@pytest.mark.parametrize("qid", NUMERIC)
def test_prompt_states_the_same_precision_in_both_languages(qid):
    question = BANK.questions[qid]
    assert _stated(question, "en") is not None
    assert _stated(question, "en") == _stated(question, "zh")


def _typed(value, precision) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_typed(v, precision) for v in value) + "]"
    kind, figures = precision
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{figures}g}" if kind == "sigfigs" else repr(float(value))


@pytest.mark.parametrize("qid", NUMERIC)
def test_the_key_at_the_stated_precision_is_accepted(qid):
    question = BANK.questions[qid]
    typed = _typed(question.answer, _stated(question, "en"))
    assert grade(question, typed, lang="en").correct, typed


# --- formula keys against torch autograd -------------------------------------------------------------

_RNG = np.random.default_rng(15)


@pytest.mark.parametrize("n", [3, 5, 8])
def test_bn_backward_key_matches_autograd(n):
    assert BANK.questions["norm-bn-backward-expression"].answer == "gamma/sigma (I - u u^T/n - z z^T/n) g"
    x, g, gamma = _RNG.normal(size=n), _RNG.normal(size=n), 1.7
    _, y, xs = _bn_train(x.tolist())
    (gamma * y.reshape(-1) @ _t(g)).backward()
    sigma = math.sqrt(x.var())  # the biased batch variance, eps = 0
    z, u = (x - x.mean()) / sigma, np.ones(n)
    key = gamma / sigma * (np.eye(n) - np.outer(u, u) / n - np.outer(z, z) / n) @ g
    np.testing.assert_allclose(xs.grad.reshape(-1).numpy(), key, rtol=1e-9, atol=1e-12)


def test_bn_fold_keys_match_the_modules():
    assert BANK.questions["norm-bn-fold-weight-expression"].answer == "gamma w / sqrt(v + eps)"
    assert (BANK.questions["norm-bn-fold-bias-expression"].answer
            == "gamma (b - mu) / sqrt(v + eps) + beta")
    w, b, gamma, beta, mu, v = [0.7, -1.3], 0.4, -1.1, 0.25, 0.9, 2.3
    folded = _folded(w, b, gamma, beta, mu, v)
    expected = [gamma * wi / math.sqrt(v) for wi in w] + [gamma * (b - mu) / math.sqrt(v) + beta]
    np.testing.assert_allclose(folded, expected, rtol=1e-12)
