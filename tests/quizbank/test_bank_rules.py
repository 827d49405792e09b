"""Review rules that a test can hold over every file of the shipped bank (quizbank/README.md,
"Reviewer's checklist"): distinct ordering steps, hints that lead to accepted answers, numeric
questions that state their precision. Rules over the text alone (no reference to the source
texts, display math on its own line) are in `test_bank_text.py`."""

from __future__ import annotations

import math
import re

import pytest

import quizbank

BANK = quizbank.load_bank()  # every file under quizbank/bank/
LANGS = ("zh", "en")


def grade(question, answer, seed: int | None = None):
    """The bank's grading entry point; a generated question against its variant for `seed`."""
    from quizbank.grading import grade as grade_question
    from quizbank.variants import variant_for

    variant = variant_for(question, seed) if _type(question) == "generated" else None
    return grade_question(question, answer, lang="en", variant=variant)


def _type(question) -> str:
    return getattr(question.type, "value", question.type)


ORDERING = [q for q in BANK if _type(q) == "ordering"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("question", ORDERING, ids=lambda q: q.id)
def test_ordering_steps_have_distinct_texts(question, lang):
    # Regression: two steps read "BN" and two "ReLU", so four orders looked the same and only one
    # was accepted.
    texts = [" ".join(s.text.get(lang).split()) for s in question.steps]
    assert len(set(texts)) == len(texts), [t for t in texts if texts.count(t) > 1]


# Hints that take the learner to a number: (question, hint index) -> what following the hint
# gives, typed as a learner would; it must be graded correct.
HINT_ROUTES = {
    ("grad-plain-product-0p5-20", 1): "1/1048576",
    # Regression: "0.8^10 ≈ 0.107, to the 4th" gave 1.31e-4, which the question refuses.
    ("grad-plain-product-0p8-40", 1): "0.1073741824^4",
    ("counterexample-f-equals-x-40", 0): "2^40",
    ("grad-residual-chain-product-numeric", 0): "1.1*0.8*1.5",
    ("dropout-inverted-train-output", 1): "[1.0 + 0.8, 2.0]",
    ("worked-loss", 0): "0.5*(0.5^2 + 1.5^2)",
    ("worked-grad-x", 2): "[1.1*0.5 - 0.1*1.5, 0.2*0.5 + 1.3*1.5]",
    ("arch-bottleneck-params", 1): "256*64 + 64*64*9 + 64*256",
    ("norm-ln-forward-numeric", 1): "[-2/1.8708, -1/1.8708, 0, 3/1.8708]",
}


@pytest.mark.parametrize(("where", "typed"), HINT_ROUTES.items(), ids=lambda v: str(v))
def test_a_hint_leads_to_an_accepted_answer(where, typed):
    question_id, hint = where
    question = BANK.questions[question_id]
    assert hint < len(question.hints)
    result = grade(question, typed)
    assert result.correct, result.feedback


def test_rounding_the_hint_early_is_what_it_warns_against():
    # The route the old hint suggested is refused at 3 significant figures: the hint now says so.
    assert not grade(BANK.questions["grad-plain-product-0p8-40"], "0.107^4").correct


def test_every_approximating_hint_has_a_checked_route():
    """A hint of a numeric or generated question that states an approximate value (≈) invites a
    rounded route: list where it leads in HINT_ROUTES so that the test can grade it."""
    unchecked = [(q.id, i) for q in BANK if _type(q) in ("numeric", "generated")
                 for i, h in enumerate(q.hints)
                 if re.search(r"≈|\\approx", (h.zh or "") + (h.en or "")) and (q.id, i) not in HINT_ROUTES]
    assert not unchecked


NUMERIC_SIGFIGS = [q for q in BANK if _type(q) == "numeric"
                   and getattr(q.tolerance.kind, "value", q.tolerance.kind) == "sigfigs"]


@pytest.mark.parametrize("question", NUMERIC_SIGFIGS, ids=lambda q: q.id)
def test_a_sigfig_question_says_how_many_figures(question):
    # The grader refuses too few figures ("2.1" for 3 significant figures): say so in the prompt.
    n = int(question.tolerance.value)
    assert f"{n} 位有效数字" in question.prompt.get("zh")
    assert f"{n} significant figures" in question.prompt.get("en")


def precision_phrases(tolerance) -> dict[str, tuple[str, ...]]:
    """What a prompt may say for this tolerance (quizbank/README.md, "Precision of numeric
    answers"): sigfigs N: "N significant figures"; relative r >= 1e-6: the fewest figures whose
    rounding stays within r (4 for 1e-3); absolute a >= 1e-6: the fewest decimal places whose
    rounding stays within a (3 for 1e-3), or "exact"; relative 1e-6 (the grader's default) may
    also say "exact"; tighter: "exact"."""
    kind, value = getattr(tolerance.kind, "value", tolerance.kind), tolerance.value
    exact = {"zh": ("精确",), "en": ("exact",)}
    if kind == "sigfigs":
        n = int(value)
    elif kind == "relative" and value == 1e-6:
        return {"zh": ("7 位有效数字", *exact["zh"]), "en": ("7 significant figures", *exact["en"])}
    elif kind == "relative" and value > 1e-6:
        n = math.ceil(math.log10(5 / value))
    elif kind == "absolute" and value >= 1e-6:
        places = math.ceil(math.log10(0.5 / value))
        return {"zh": (f"{places} 位小数", *exact["zh"]),
                "en": (f"{places} decimal places", *exact["en"])}
    else:
        return exact
    return {"zh": (f"{n} 位有效数字",), "en": (f"{n} significant figures",)}


NUMERIC = [q for q in BANK if _type(q) == "numeric"]


@pytest.mark.parametrize("question", NUMERIC, ids=lambda q: q.id)
def test_a_numeric_question_states_its_precision(question):
    # Regression (issue 30): 44 numeric questions stated no precision, or not the one graded
    # ("counterexample-f-equals-x-40" graded at 0.1 % and said nothing; "(Exact value)" at 1e-6).
    for lang, phrases in precision_phrases(question.tolerance).items():
        prompt = " ".join(question.prompt.get(lang).split()).casefold()
        assert any(p.casefold() in prompt for p in phrases), (lang, phrases)
