"""Grade any bank question (quizbank models) by type; formulas go through the contained worker."""

from __future__ import annotations

from .api import check
from .feedback import result
from .messages import message

TOLERANCE_FIELDS = {"relative": "rtol", "absolute": "atol", "sigfigs": "sigfigs"}


def tolerance_fields(tolerance) -> dict:
    kind = getattr(tolerance.kind, "value", tolerance.kind)
    return {TOLERANCE_FIELDS[kind]: tolerance.value}


def _declared(question) -> dict:
    return {"symbols": list(question.symbols), "functions": list(question.functions),
            "matrices": list(question.matrices)}


def grade_question(question, answer, *, lang: str = "en", seed: int | None = None) -> dict:
    lang = lang if lang in ("en", "zh") else "en"
    kind = question.type
    graded = GRADERS[kind](question, answer, lang, seed)
    graded["id"] = question.id
    graded.setdefault("malrule", None)
    graded.setdefault("elapsed_ms", 0.0)
    graded.setdefault("first_wrong_step", None)
    return graded


def _expression(question, answer, lang, seed) -> dict:
    malrules = [{"answer": r.answer, "feedback": r.feedback.get(lang)} for r in question.malrules]
    return check({"kind": "expression", "expected": question.answer, "answer": str(answer),
                  "malrules": malrules, "lang": lang, **_declared(question)})


def _numeric(question, answer, lang, seed) -> dict:
    return check({"kind": "numeric", "expected": question.answer, "answer": str(answer),
                  "lang": lang, **tolerance_fields(question.tolerance)})


def _derivation(question, answer, lang, seed) -> dict:
    lines = answer.splitlines() if isinstance(answer, str) else list(answer)
    return check({"kind": "derivation", "expected": question.target, "start": question.start,
                  "answer": [str(x) for x in lines if str(x).strip()], "lang": lang,
                  **_declared(question)})


def _ids(answer) -> list[str]:
    if isinstance(answer, str):
        return [a.strip() for a in answer.split(",") if a.strip()]
    return [str(a) for a in answer]


def _choice(question, answer, lang, seed) -> dict:
    """Score: 1 if exactly the correct set; for `multiple`, max(0, (hits - wrong picks) / #correct)."""
    chosen = _ids(answer)
    known = {o.id for o in question.options}
    unknown = [c for c in chosen if c not in known]
    if unknown:
        text = message("bad_request", lang, reason=message("choice_unknown", lang,
                                                             ids=", ".join(unknown)))
        return result(feedback=text, error=text)
    correct_ids = {o.id for o in question.options if o.correct}
    picked = set(chosen)
    details = [{"id": o.id, "chosen": o.id in picked, "correct": o.correct,
                "feedback": o.feedback.get(lang) if (o.id in picked and not o.correct
                                                     and o.feedback) else None}
               for o in question.options]
    exact = picked == correct_ids
    if question.multiple:
        hits, wrong = len(picked & correct_ids), len(picked - correct_ids)
        score = 1.0 if exact else max(0.0, (hits - wrong) / len(correct_ids))
    else:
        score = 1.0 if exact else 0.0
    if exact:
        feedback = message("choice_correct", lang)
    else:
        judged = sum((o.id in picked) == o.correct for o in question.options)
        reasons = [d["feedback"] for d in details if d["feedback"]]
        feedback = " ".join([message("choice_wrong", lang, right=judged,
                                     total=len(question.options)), *reasons])
    return result(correct=exact, score=score, feedback=feedback, details=details)


def _ordering(question, answer, lang, seed) -> dict:
    """Score: fraction of step pairs in the right relative order (Kendall); 1 only if exact."""
    order = _ids(answer)
    ids = [s.id for s in question.steps]
    if sorted(order) != sorted(ids):
        text = message("bad_request", lang, reason=message("ordering_bad", lang))
        return result(feedback=text, error=text)
    position = {step_id: i for i, step_id in enumerate(order)}
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    in_order = sum(position[a] < position[b] for a, b in pairs)
    score = in_order / len(pairs)
    first_wrong = next((i for i, (a, b) in enumerate(zip(order, ids, strict=True)) if a != b), None)
    if first_wrong is None:
        return result(correct=True, score=1.0, feedback=message("ordering_correct", lang))
    step = next(s for s in question.steps if s.id == order[first_wrong])
    feedback = message("ordering_wrong", lang, position=first_wrong + 1, step=step.text.get(lang))
    return result(score=score, feedback=feedback, first_wrong_step=first_wrong + 1,
                  details={"misplaced": order[first_wrong], "position": first_wrong + 1})


def _generated(question, answer, lang, seed) -> dict:
    import compute

    problem = compute.generate(question.template, seed=0 if seed is None else seed,
                               difficulty=getattr(question.difficulty, "value",
                                                  question.difficulty))
    answers = answer if isinstance(answer, dict) else {}
    details = {}
    for ask in question.asks:
        details[ask] = check({"kind": "numeric", "expected": problem["answers"][ask],
                              "answer": str(answers.get(ask, "")), "lang": lang,
                              **tolerance_fields(question.tolerance)})
    right = sum(d["correct"] for d in details.values())
    total = len(question.asks)
    parts = [message("generated_summary", lang, right=right, total=total)]
    parts += [f"{ask}: {d['feedback']}" for ask, d in details.items() if not d["correct"]]
    return result(correct=right == total, score=right / total, feedback=" ".join(parts),
                  details=details, seed=problem["seed"])


def _interview(question, answer, lang, seed) -> dict:
    # The learner ticks the rubric (suggestions: tutor.interview_match); nothing to decide here.
    text = message("interview_not_graded", lang)
    return result(feedback=text, error=text)


GRADERS = {"expression": _expression, "numeric": _numeric, "derivation": _derivation,
           "choice": _choice, "ordering": _ordering, "generated": _generated,
           "interview": _interview}
