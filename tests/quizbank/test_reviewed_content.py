"""Regression tests for defects an expert reviewer found in the bank (issue 30), one per class.
Each test failed on the bank before the fix."""

from __future__ import annotations

import pytest

import quizbank

BANK = quizbank.load_bank()  # every file under quizbank/bank/
LANGS = ("zh", "en")


def _kind(point) -> str:
    return getattr(point.kind, "value", point.kind)


# -- a choice's key and its own solution agree on what each option targets ------------------

def test_preln_remedies_key_only_what_targets_the_stream_growth():
    """The solution says QK-norm targets attention logits and a final LayerNorm only the scale fed
    to the output head; neither may be keyed as a remedy for the stream's growth."""
    question = BANK.questions["norm-preln-remedies"]
    correct = {o.id for o in question.options if o.correct}
    for option in question.options:
        text = option.text.get("en")
        if "QK-norm" in text or "final LayerNorm" in text:
            assert option.id not in correct, option.id
    assert correct == {"b", "c"}


def test_preln_stream_growth_rubric_does_not_require_other_problems_remedies():
    question = BANK.questions["iv-preln-stream-growth"]
    for point in question.rubric:
        if _kind(point) != "required":
            continue
        keywords = [k.casefold() for k in (*point.keywords.en, *point.keywords.zh)]
        assert not any("qk-norm" in k or "final l" in k for k in keywords), point.id


# -- an interview model answer answers the trade-off it is asked about ------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_preln_vs_postln_model_answer_states_the_trade_off_with_papers(lang):
    answer = BANK.questions["iv-preln-vs-postln"].model_answer.get(lang)
    for needed in ("Liu et al. 2020", "Wang et al. 2022", "DeepNet", "RMSNorm", "final norm",
                   "$J_{\\mathrm{LN}}(I+J_F)$"):
        assert needed in answer, needed
    ids = {p.id for p in BANK.questions["iv-preln-vs-postln"].rubric if _kind(p) == "required"}
    assert "quality-vs-stability" in ids


# -- statements about papers and methods say what they say ----------------------------------

def _texts(question, lang):
    return [getattr(field, lang) or "" for field in question.localized_fields()]


@pytest.mark.parametrize("lang", LANGS)
def test_deepnet_is_not_credited_with_training_without_warmup(lang):
    """DeepNet's abstract claims 1,000 layers trained stably, not training without warmup."""
    for question in BANK:
        for text in _texts(question, lang):
            for sentence in text.replace("。", ".").split("."):
                if "DeepNorm" in sentence or "DeepNet" in sentence or "1000 层" in sentence \
                        or "1,000-layer" in sentence:
                    assert "without warmup" not in sentence and "不需要 warmup" not in sentence, \
                        (question.id, sentence)


@pytest.mark.parametrize("lang", LANGS)
def test_mhc_bounds_only_the_mixing_path(lang):
    """mHC constrains the stream-mixing matrix; it does not stop the signal growing with depth."""
    for question in BANK:
        for text in _texts(question, lang):
            if "mHC" in text:
                assert "cannot blow up" not in text and "不会随深度爆炸" not in text, question.id


@pytest.mark.parametrize("lang", LANGS)
def test_fp32_residual_accumulation_is_sometimes_not_standard(lang):
    solution = BANK.questions["gen-mixed-precision-sum"].solution.get(lang)
    assert {"en": "sometimes", "zh": "有时"}[lang] in solution


def test_the_zero_update_demo_has_one_slider():
    prompt = BANK.questions["basics-zero-update-passes-input"].prompt
    assert "every" not in prompt.get("en") and "全部" not in prompt.get("zh")


def test_activation_memory_solutions_say_the_same_in_both_languages():
    """zh alone claimed the addition's backward needs x stored; it needs nothing stored."""
    solution = BANK.questions["iv-activation-memory"].solution
    assert "相加后的计算" not in solution.get("zh")
    assert "after the addition" not in solution.get("en")


# -- statements say exactly what holds ------------------------------------------------------

def test_rmsnorm_is_described_by_its_raw_mean_square():
    """RMSNorm does not "skip the first two steps" of LayerNorm: it divides by the raw mean
    square, not by the centred variance."""
    solution = BANK.questions["norm-ln-compute-order"].solution
    assert "first two steps" not in solution.get("en") and "跳过前两步" not in solution.get("zh")
    assert "raw mean square" in solution.get("en") and "原始值的均方" in solution.get("zh")


@pytest.mark.parametrize("lang", LANGS)
def test_zero_gamma_feedback_says_bn2_parameters_get_gradients(lang):
    """bn2's gamma and beta sit inside the branch and still get gradients at the first step."""
    option = next(o for o in BANK.questions["init-zero-gamma"].options if o.id == "c")
    feedback = option.feedback.get(lang)
    assert "`bn2`" in feedback and "\\beta" in feedback
    assert "only the parameters inside the branch" not in feedback
    assert "只有分支内部的参数" not in feedback


@pytest.mark.parametrize("lang", LANGS)
def test_the_outputs_question_does_not_mention_jacobians_it_does_not_ask(lang):
    import compute

    question = BANK.questions["gen-layernorm-rmsnorm-outputs"]
    problem = compute.generate(question.template, seed=7, difficulty="easy")
    shown = question.prompt.get(lang) + problem["prompt"][lang]
    assert "Jacobian" not in shown and "雅可比" not in shown
