"""Interview rubrics: every model answer earns its own rubric, and a denied misconception is not
ticked (tutor.interview_match), in zh and en."""

from __future__ import annotations

import re

import pytest

import quizbank
from tutor.interview_match import asserted, keyword_in, normalize, suggest_ticks

BANK = quizbank.load_bank()  # every file under quizbank/bank/
INTERVIEWS = list(BANK.by_type("interview"))
LANGS = ("zh", "en")


def _kind(point) -> str:
    return getattr(point.kind, "value", point.kind)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("question", INTERVIEWS, ids=lambda q: q.id)
def test_model_answer_gets_every_required_point_and_no_misconception(question, lang):
    # Regression: the model answer itself had a misconception ticked in 8 of the 24
    # question-language pairs, and stems such as "initiali" could never match.
    ticked = set(suggest_ticks(question.rubric, question.model_answer.get(lang)))
    required = {p.id for p in question.rubric if _kind(p) == "required"}
    misconceptions = {p.id for p in question.rubric if _kind(p) == "misconception"}
    assert required <= ticked, f"required points not found: {sorted(required - ticked)}"
    assert not ticked & misconceptions, f"misconceptions ticked: {sorted(ticked & misconceptions)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("question", INTERVIEWS, ids=lambda q: q.id)
def test_model_answer_gets_its_bonus_points(question, lang):
    # Regression (issue 30): iv-residual-jacobian-answer's model answer says "f(x)≈0" and "close to
    # the identity", and its own bonus point listed neither.
    ticked = set(suggest_ticks(question.rubric, question.model_answer.get(lang)))
    bonus = {p.id for p in question.rubric if _kind(p) == "bonus"}
    assert bonus <= ticked, f"bonus points not found: {sorted(bonus - ticked)}"


@pytest.mark.parametrize(("answer", "keyword"), [
    ("Residual connections do not mean gradients can never vanish.", "never vanish"),
    ("This does not mean that gradients can never vanish", "never vanish"),
    ("It is wrong to say residuals prevent overfitting", "prevent overfitting"),
    ("Saying residuals prevent overfitting is a myth.", "prevent overfitting"),
    ("Residuals can't guarantee stability", "guarantee stability"),
    ("残差并不意味着梯度永不消失。", "永不消失"),
    ("不能说两种结构完全等价", "完全等价"),
    ("“有残差梯度就永不消失”这种说法不对", "永不消失"),
    ("说残差主要是为了防止过拟合是错的", "防止过拟合"),
    ("残差并不是为了防止过拟合", "防止过拟合"),
    ("Do not treat sigma as a constant, otherwise J = I/sigma, which is wrong", "J=I/sigma"),
    ("不能把 σ 当常数，否则会得到 J=I/σ 的错误结果", "J=I/σ"),  # a counterfactual
])
def test_a_denied_misconception_is_not_asserted(answer, keyword):
    assert keyword_in(answer, keyword)
    assert not asserted(answer, keyword)


@pytest.mark.parametrize(("answer", "keyword"), [
    ("If Lip(f) < 1 the block is always invertible.", "always invertible"),
    ("If Lip(f) < 1, residual blocks are always invertible.", "always invertible"),
    ("The block is always invertible if Lip(f) < 1.", "always invertible"),
    ("The two are equivalent only if the gates stay at 1.", "equivalent"),
    ("Provided the covariances vanish, the variance always grows linearly.", "always grows linearly"),
    ("若 Lip(f)<1，则残差块一定可逆。", "残差块一定可逆"),
    ("只要 Lip(f)<1，残差块一定可逆。", "残差块一定可逆"),
    ("在门恒为 1 的条件下两者完全等价。", "完全等价"),
])
def test_a_claim_under_a_condition_is_not_asserted(answer, keyword):
    # Regression (issue 30): "if Lip(f) < 1 the block is always invertible" ticked the
    # misconception "residual blocks are always invertible".
    assert keyword_in(answer, keyword)
    assert not asserted(answer, keyword)


@pytest.mark.parametrize(("answer", "keyword"), [
    ("Residual blocks are always invertible. If Lip(f) < 1 they also train well.",
     "always invertible"),  # the condition is in the next sentence
    ("The block is always invertible, and if it is deep it trains well.", "always invertible"),
    ("With residuals gradients can never vanish.", "never vanish"),
    ("Not only does it help, gradients never vanish", "never vanish"),  # "not only" affirms
    ("It is not hard: gradients never vanish.", "never vanish"),  # another clause
    ("Gradients do not explode, but they never vanish", "never vanish"),  # "but" starts anew
    ("有了残差，梯度就永不消失。", "永不消失"),
    ("残差不仅加快训练，还保证梯度永不消失", "永不消失"),
])
def test_an_asserted_misconception_is_found(answer, keyword):
    assert asserted(answer, keyword)


@pytest.mark.parametrize(("answer", "keyword", "found"), [
    ("careful initialization matters", "initiali*", True),
    ("we initialise with zeros", "initiali*", True),
    ("normalization layers", "normaliz*", True),
    ("it can amplify the gradient", "amplif*", True),
    ("an initial value", "initiali*", False),
    ("initialization", "initiali", False),  # without * a stem is a whole word: never matches
])
def test_stems(answer, keyword, found):
    assert keyword_in(answer, keyword) is found


def _learner_words() -> set[str]:
    """Every Latin word of the bank's learner-facing text, both languages."""
    words = set()
    for question in BANK:
        for field in question.localized_fields():
            for lang in LANGS:
                words.update(re.findall(r"[a-z][a-z'-]*", normalize(getattr(field, lang) or "")))
    return words


def test_no_rubric_keyword_is_a_dead_stem():
    """A Latin keyword that is only ever the beginning of a longer word in the bank ("initiali",
    "normaliz", "guarantees stab") can never match as a whole word: mark it a stem with "*"."""
    words = _learner_words()
    dead = []
    for question in INTERVIEWS:
        for point in question.rubric:
            for keyword in (*(point.keywords.en or ()), *(point.keywords.zh or ())):
                last = normalize(keyword).split(" ")[-1]
                if keyword.endswith("*") or not re.fullmatch(r"[a-z]+", last):
                    continue
                whole = {last, last + "s", last + "es"} & words
                prefix_of = [w for w in words if w.startswith(last) and w != last]
                if not whole and prefix_of:
                    dead.append(f"{question.id}/{point.id}: {keyword!r} (in {sorted(prefix_of)[:3]})")
    assert not dead, "\n".join(dead)
