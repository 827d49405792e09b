"""Grade an answer to a bank question: one `grader.Result` for every question type.

Formula, number and derivation questions become a grading request for `grader.check`; choice and
ordering questions are decided here, from the bank's own data. A generated question is graded
against the `Variant` the learner saw (built once, by `quizbank.variants.build_variant`, and
carried here): nothing is regenerated. Interview answers are judged by the learner against the
rubric (`tutor.interview`), not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from grader import Part, Result, Verdict, check
from grader.messages import language, message

from .question_types import (
    ChoiceQuestion,
    DerivationQuestion,
    ExpressionQuestion,
    GeneratedQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
)
from .variants import Variant

# The bank's tolerance kinds -> the grading request's tolerance field.
TOLERANCE_FIELDS = {"relative": "rtol", "absolute": "atol", "sigfigs": "sigfigs"}


def tolerance_fields(tolerance) -> dict:
    """`{kind: relative, value: 1e-3}` -> `{"rtol": 1e-3}`."""
    kind = getattr(tolerance.kind, "value", tolerance.kind)
    return {TOLERANCE_FIELDS[kind]: tolerance.value}


def request_for(question: Question, answer, *, lang: str = "en") -> dict:
    """The `grader.check` request for a formula, number or derivation question."""
    if isinstance(question, NumericQuestion):
        return {"kind": "numeric", "expected": question.answer, "answer": str(answer),
                "lang": lang, **tolerance_fields(question.tolerance)}
    declared = question.declared_fields()
    if isinstance(question, ExpressionQuestion):
        malrules = [{"answer": r.answer, "feedback": r.feedback.get(lang)}
                    for r in question.malrules]
        return {"kind": "expression", "expected": question.answer, "answer": str(answer),
                "malrules": malrules, "lang": lang, **declared}
    if isinstance(question, DerivationQuestion):
        # One text is split by the grader (a pasted block, a chain a = b = c, remarks), as the
        # CLI and the Derivation checker split it; a list is its lines.
        lines = answer if isinstance(answer, str) else [str(x) for x in answer if str(x).strip()]
        tolerance = tolerance_fields(question.tolerance) if question.tolerance else {}
        return {"kind": "derivation", "expected": question.target, "start": question.start,
                "answer": lines, "lang": lang, **declared, **tolerance}
    raise TypeError(f"{question.type} questions are not graded by a request")


def grade(question: Question, answer, *, lang: str = "en",
          variant: Variant | None = None) -> Result:
    """Grade `answer` (text, option/step ids, or a dict of asked answers for generated questions;
    `variant` is required for those)."""
    lang = language(lang)
    if isinstance(question, ChoiceQuestion):
        return grade_choice(question, answer, lang)
    if isinstance(question, OrderingQuestion):
        return grade_ordering(question, answer, lang)
    if isinstance(question, GeneratedQuestion):
        if variant is None:
            raise ValueError(f"{question.id}: a generated question is graded against its variant")
        return grade_generated(question, variant, answer, lang)
    if isinstance(question, NumericQuestion):
        return with_numeric_malrule(question, check(request_for(question, answer, lang=lang)),
                                    answer, lang)
    if isinstance(question, ExpressionQuestion | DerivationQuestion):
        return check(request_for(question, answer, lang=lang))
    text = message("interview_not_graded", lang)
    return Result(Verdict.UNREADABLE, feedback=text, error=text)


def with_numeric_malrule(question: NumericQuestion, result: Result, answer, lang: str) -> Result:
    """A wrong number that matches a mal-rule (within the question's tolerance) gets its feedback,
    as formula mal-rules do in the grader."""
    if result.verdict is not Verdict.WRONG:
        return result
    for rule in question.malrules:
        matched = check({"kind": "numeric", "expected": rule.answer, "answer": str(answer),
                         "lang": lang, **tolerance_fields(question.tolerance)})
        if matched.correct:
            feedback = rule.feedback.get(lang)
            return replace(result, malrule=feedback,
                           feedback=message("malrule_match", lang, feedback=feedback))
    return result


def _ids(answer) -> list[str]:
    if isinstance(answer, str):
        return [a.strip() for a in answer.split(",") if a.strip()]
    return [str(a) for a in answer]


def _refused(reason_key: str, lang: str, **fmt) -> Result:
    text = message("bad_request", lang, reason=message(reason_key, lang, **fmt))
    return Result(Verdict.UNREADABLE, feedback=text, error=text)


def _scored(score: float, feedback: str, **fields) -> Result:
    verdict = Verdict.CORRECT if score >= 1 else Verdict.PARTIAL if score > 0 else Verdict.WRONG
    return Result(verdict, score=float(score), feedback=feedback, **fields)


def grade_choice(question: ChoiceQuestion, answer, lang: str) -> Result:
    """Score: 1 if exactly the correct set; for `multiple`, max(0, (hits - wrong picks) / #correct)."""
    chosen = _ids(answer)
    unknown = [c for c in chosen if c not in {o.id for o in question.options}]
    if unknown:
        return _refused("choice_unknown", lang, ids=", ".join(unknown))
    correct_ids = {o.id for o in question.options if o.correct}
    picked = set(chosen)
    if picked == correct_ids:
        return _scored(1.0, message("choice_correct", lang))
    score = 0.0
    if question.multiple:
        hits, wrong = len(picked & correct_ids), len(picked - correct_ids)
        score = max(0.0, (hits - wrong) / len(correct_ids))
    judged = sum((o.id in picked) == o.correct for o in question.options)
    reasons = [o.feedback.get(lang) for o in question.options
               if o.id in picked and not o.correct and o.feedback]
    summary = (message("choice_wrong", lang, right=judged, total=len(question.options))
               if question.multiple else message("choice_wrong_single", lang))
    feedback = " ".join([summary, *reasons])
    return _scored(score, feedback)


def grade_ordering(question: OrderingQuestion, answer, lang: str) -> Result:
    """Score: fraction of step pairs in the right relative order (Kendall); 1 only if exact."""
    order = _ids(answer)
    ids = [s.id for s in question.steps]
    if sorted(order) != sorted(ids):
        return _refused("ordering_bad", lang)
    first_wrong = next((i for i, (a, b) in enumerate(zip(order, ids, strict=True)) if a != b), None)
    if first_wrong is None:
        return _scored(1.0, message("ordering_correct", lang))
    position = {step_id: i for i, step_id in enumerate(order)}
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    score = sum(position[a] < position[b] for a, b in pairs) / len(pairs)
    step = next(s for s in question.steps if s.id == order[first_wrong])
    feedback = message("ordering_wrong", lang, position=first_wrong + 1, step=step.text.get(lang))
    return _scored(score, feedback, first_wrong_step=first_wrong + 1)


def grade_generated(question: GeneratedQuestion, variant: Variant, answers, lang: str) -> Result:
    """Each asked answer against the variant's key, with the question's tolerance. An answer
    with a box that cannot be read (or is blank) is unreadable as a whole: not an attempt."""
    if variant.template != question.template:
        raise ValueError(f"{question.id}: variant of {variant.template}, "
                         f"not of {question.template}")
    typed = answers if isinstance(answers, Mapping) else {}
    parts = tuple(
        Part(ask, check({"kind": "numeric", "expected": variant.answers[ask],
                         "answer": str(typed.get(ask, "") or ""), "lang": lang,
                         **tolerance_fields(question.tolerance)}))
        for ask in question.asks)
    unreadable = [p for p in parts if p.result.unreadable]
    if unreadable:
        # Not an attempt yet: the learner fixes the boxes that cannot be read (a blank one too).
        text = " ".join(f"{p.name}: {p.result.error}" for p in unreadable)
        return Result(Verdict.UNREADABLE, feedback=text, error=text, parts=parts)
    right = sum(p.result.correct for p in parts)
    total = len(parts)
    summary = [message("generated_summary", lang, right=right, total=total)]
    summary += [f"{p.name}: {p.result.feedback}" for p in parts if not p.result.correct]
    return _scored(right / total, " ".join(summary), parts=parts)
