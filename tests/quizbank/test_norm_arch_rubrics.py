"""The interview rubrics of 15_normalization_architecture.yaml against the answers a learner
actually writes: a generic one-sentence answer gets no required point suggested, and correct
answers phrased in several ways (including ones that name the misconception to reject it) get no
misconception ticked (tutor.interview_match)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

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
    "The residual block adds its input to the output of the layers.",
    "残差块把输入加到网络层的输出上。",
]

# Correct answers, written the way a strong candidate might, several of them naming the wrong idea
# in order to reject it.
PHRASINGS = yaml.safe_load((Path(__file__).parent / "data" / "interview_paraphrases_15.yaml")
                           .read_text(encoding="utf-8"))["questions"]
CORRECT = {qid: by_lang["en"] + by_lang["zh"] for qid, by_lang in PHRASINGS.items()}


def _kind(point) -> str:
    return getattr(point.kind, "value", point.kind)


def test_every_interview_of_the_file_has_phrasings():
    assert set(PHRASINGS) == set(INTERVIEWS)
    for by_lang in PHRASINGS.values():
        assert len(by_lang["en"]) >= 5 and len(by_lang["zh"]) >= 3


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
