"""One bank question on screen: prompt, hints, the input for its type, submit, verdict, solution.

Practice and Review both show questions through `question_view`; the page passes `grade`
(tutor.practice.grade_answer for this session), `save` (tutor.practice.record_outcome: the store
write, done after the verdict is on screen so the learner does not wait for it) and `go_to`,
which opens another question (follow-ups of an interview question).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages.state import tr
from app_pages.widgets import answer_inputs as inputs
from app_pages.widgets import feedback
from app_pages.widgets.interview_view import interview_question
from tutor.practice import Outcome, QuestionSession

Grade = Callable[..., Outcome]  # (answer, confidence) -> the graded Outcome
Save = Callable[[Outcome], object]  # records it


def question_header(question, lang: str) -> None:
    kind = inputs.question_type(question)
    st.caption(
        tr(
            "practice.question_of",
            topic=tr(f"practice.topic.{question.topic}"),
            type=tr(f"practice.type.{kind}"),
            difficulty=tr(f"practice.difficulty.{question.difficulty}"),
        )
    )
    st.markdown(question.prompt.get(lang))


def question_view(
    question, session: QuestionSession, lang: str, *, key: str, grade: Grade, save: Save,
    go_to: Callable[[str], None] | None = None,
) -> None:
    """Everything for one question; `key` must change when a new question session starts."""
    key = f"{key}.{session.question_id}.{session.serial}"
    question_header(question, lang)
    kind = inputs.question_type(question)
    if kind == "interview":
        interview_question(question, session, lang, key=key,
                           submit=lambda answer, confidence: save(grade(answer, confidence)),
                           go_to=go_to)
        return
    if kind == "derivation":
        _derivation_givens(question, lang)
    if kind == "generated":
        _generated_prompt(question, session, lang)
    feedback.hints(question, session, lang, key)

    text = inputs.text_input(question, lang, f"{key}.text") if kind in inputs.TEXT_TYPES else None
    with st.form(f"{key}.form", border=False, enter_to_submit=False):
        answer = _form_input(question, session, kind, lang, key, text)
        confidence = inputs.confidence_input(f"{key}.confidence")
        submitted = st.form_submit_button(
            tr("practice.submit"), type="primary", icon=":material/send:", key=f"{key}.submit"
        )
    unsaved = None
    if submitted:
        if kind == "ordering" and answer is not None and len(answer) < len(question.steps):
            st.warning(tr("practice.order_incomplete", placed=len(answer), total=len(question.steps)))
        elif answer is None:
            st.warning(tr("practice.pick_an_option" if kind == "choice" else "practice.empty_answer"))
        else:
            unsaved = grade(answer, confidence)
    if session.last is not None:
        feedback.verdict(session.last, lang, kind)
        if kind == "derivation":
            from app_pages.widgets.derivation_view import line_statuses

            line_statuses(session.last.result, session.last.answer)
        if unsaved is not None:
            save(unsaved)  # the verdict is already on its way to the browser
        feedback.solution(question, lang)


def _form_input(question, session, kind: str, lang: str, key: str, text: str | None):
    if kind in inputs.TEXT_TYPES:
        return text if text and text.strip() else None
    if kind == "choice":
        return inputs.choice_input(question, lang, f"{key}.choice")
    if kind == "ordering":
        return inputs.ordering_input(question, lang, f"{key}.order", seed=session.serial)
    if kind == "derivation":
        return inputs.lines_input(f"{key}.lines")
    if kind == "generated":
        return inputs.generated_inputs(list(question.asks), lang, f"{key}.gen")
    raise ValueError(f"no input for question type {kind!r}")


def _derivation_givens(question, lang: str) -> None:
    """Start and target, rendered through the grader's reading of them."""
    import grader

    decl = inputs.declarations(question)
    cols = st.columns(2)
    for col, label, text in (
        (cols[0], "practice.derivation_start", question.start),
        (cols[1], "practice.derivation_target", question.target),
    ):
        with col:
            st.caption(tr(label))
            latex = grader.preview(text, lang=lang, **decl).get("interpreted")
            if latex:
                st.latex(latex)
            else:
                st.code(text, language=None)


def _generated_prompt(question, session: QuestionSession, lang: str) -> None:
    """The numbers of this variant (compute draws them from the session's seed)."""
    from app_pages.widgets.resources import generated_problem

    problem = generated_problem(question.template, session.seed, str(question.difficulty))
    st.markdown(problem["prompt"][lang])
    st.caption(tr("practice.generated_seed", seed=session.seed))
