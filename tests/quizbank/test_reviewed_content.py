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
