"""Regression tests for what the second review of bank files 14 and 15 found (issue 30;
docs/reviews/2026-12-content.md, second section). Each failed on the bank before its fix."""

from __future__ import annotations

import pytest
import torch

import quizbank
from quizbank.grading import grade

BANK = quizbank.load_bank()  # every file under quizbank/bank/
LANGS = ("zh", "en")


def _malrule_feedback(qid: str, answer: str) -> dict[str, str]:
    rule = next(m for m in BANK.questions[qid].malrules if m.answer == answer)
    return {lang: getattr(rule.feedback, lang) for lang in LANGS}


# -- a mal-rule's feedback names the slip that gives its answer ---------------------------------

def test_the_second_moment_slip_that_gives_1_is_the_standard_deviation_used_as_variance():
    """z ~ N(0, 4): E[ReLU(z)^2] = 4/2 = 2. The answer 1 comes from halving the standard deviation
    2 (or halving twice); taking 4 for the standard deviation would give 16/2 = 8, not 1."""
    feedback = _malrule_feedback("he-relu-second-moment-numeric", "1")
    assert "标准差 2" in feedback["zh"] and "standard deviation 2" in feedback["en"]
    assert "4 当成了标准差" not in feedback["zh"] and "took 4 for the standard" not in feedback["en"]


def test_dropping_the_eval_factor_gets_its_own_feedback():
    question = BANK.questions["norm-bn-eval-gradient-numeric"]
    for lang in LANGS:
        result = grade(question, "[1, 2, 3, 6]", lang=lang)
        assert not result.correct
        assert "\\sqrt{\\hat\\sigma^2+\\epsilon}" in result.feedback, result.feedback


# -- a question stands on its own ---------------------------------------------------------------

@pytest.mark.parametrize(("lang", "leans_on_another"), [("zh", ("同一个", "仍为")),
                                                        ("en", ("The same", "still"))])
def test_the_eval_gradient_prompt_does_not_lean_on_another_question(lang, leans_on_another):
    prompt = getattr(BANK.questions["norm-bn-eval-gradient-numeric"].prompt, lang)
    assert not any(phrase in prompt for phrase in leans_on_another), prompt


# -- the two languages say the same thing -------------------------------------------------------

def test_train_eval_gap_recomputes_on_the_data_in_both_languages():
    zh = BANK.questions["iv-bn-train-eval-gap"].solution.zh
    assert "测试数据" not in zh  # the English checks against "the data", not the test set


@pytest.mark.parametrize("lang", LANGS)
def test_unet_concatenation_costs_the_next_layers_input_channels(lang):
    solution = getattr(BANK.questions["arch-unet-concat-channels"].solution, lang)
    assert ("输入通道" if lang == "zh" else "input channels") in solution


# -- claims carry their conditions --------------------------------------------------------------

def test_a_cumulative_average_without_a_reset_weights_a_new_batch_by_one_over_the_count():
    """The reason the recompute recipe resets first (checked against PyTorch itself)."""
    bn = torch.nn.BatchNorm1d(1)
    with torch.no_grad():
        for _ in range(9):
            bn(torch.arange(4.0).reshape(4, 1))  # batch mean 1.5
        before = bn.running_mean.item()
        bn.momentum = None
        bn(torch.tensor([[10.5], [12.5], [10.5], [12.5]]))  # batch mean 11.5, the 10th batch
        assert bn.running_mean.item() == pytest.approx(0.9 * before + 0.1 * 11.5)
        bn.reset_running_stats()
        bn(torch.tensor([[10.5], [12.5], [10.5], [12.5]]))
        assert bn.running_mean.item() == pytest.approx(11.5)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", ["solution", "model_answer"])
def test_train_eval_gap_recompute_resets_the_running_statistics_first(field, lang):
    text = getattr(getattr(BANK.questions["iv-bn-train-eval-gap"], field), lang)
    assert "reset_running_stats()" in text and text.index("reset_running_stats()") < text.index(
        "momentum=None")


@pytest.mark.parametrize("lang", LANGS)
def test_folding_into_the_following_convolution_states_the_padding_condition(lang):
    option = next(o for o in BANK.questions["norm-bn-fold-conditions"].options if o.id == "d")
    assert ("补零" if lang == "zh" else "zero padding") in getattr(option.feedback, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_batchnorm_in_a_causal_language_model_mixes_in_later_positions(lang):
    option = next(o for o in BANK.questions["norm-which-normalization"].options if o.id == "d")
    assert ("后面位置" if lang == "zh" else "later positions") in getattr(option.feedback, lang)
