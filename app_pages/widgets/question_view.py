"""One question on screen, the same on Practice, Exercises and Review: prompt (with a generated
question's numbers), hints, the input for its type, Submit and "Show the solution", the verdict,
the tries left, the rating recorded, and after the reveal the worked solution.

The flow is `tutor.sessions.question_session`: Submit's callback grades the answer in the widgets
against the session's variant, so the run that follows draws the new state from the top and
records the answer (`record`: the store's writer, or None) just after drawing its verdict. `rerate(attempt_id, rating)` lets a right
answer's rating be changed; `go_to` opens another question (an interview question's follow-ups).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages.state import (
    leave_notice,
    take_notice,
    take_unsaved_answers,
    tr,
    unsaved_answers,
    widget_value,
)
from app_pages.widgets import answer_inputs as inputs
from app_pages.widgets import feedback, recording
from app_pages.widgets.bank_text import bank_markdown
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.interview_view import interview_question
from tutor.i18n import t
from tutor.sessions import question_session as flow
from tutor.sessions.exercises import tolerance_value

Record = Callable[[object], object] | None  # NewAttempt -> the stored attempt (or None)
Rerate = Callable[[int, int], object] | None  # (attempt id, rating) -> the card as scheduled


def widget_key(key: str, session: flow.QuestionSession) -> str:
    """The prefix of this visit's widget keys: a new visit, or the same question on screen for
    another profile, gets fresh, empty widgets (what one profile typed is not another's)."""
    return f"{key}.{current_profile_id()}.{session.question_id}.{session.serial}"


def question_header(question, session: flow.QuestionSession, lang: str) -> None:
    kind = inputs.question_type(question)
    level = session.variant.difficulty if session.variant is not None else question.difficulty
    # `t(key, lang)` rather than `tr(key)` on these per-run paths: `tr` reads the language from
    # the session state for every label (issue 14's profile of a script run).
    st.caption(t("practice.question_of", lang, topic=t(f"practice.topic.{question.topic}", lang),
                 type=t(f"practice.type.{kind}", lang),
                 difficulty=t(f"practice.difficulty.{level}", lang)))
    bank_markdown(question.prompt.get(lang), question.id, lang)
    if session.variant is not None:  # this variant's numbers, built once when it was opened
        st.markdown(session.variant.prompt.get(lang) or "")
        st.caption(t("practice.generated_seed", lang, seed=session.seed))


def question_view(question, session: flow.QuestionSession, lang: str, *, key: str,
                  record: Record, mode: str = "practice", rerate: Rerate = None,
                  go_to: Callable[[str], None] | None = None) -> None:
    """Everything for one question; `key` names the page (widget keys add the visit)."""
    wkey = widget_key(key, session)
    if record is not None:  # answers stored after the page stopped waiting: their ratings now
        for attempt_key, stored in recording.landed_records():
            flow.settle(session, attempt_key, stored)
    inputs.restore_typed(question, wkey, session.typed)
    question_header(question, session, lang)
    kind = inputs.question_type(question)
    if kind == "interview":
        interview_question(question, session, lang, key=wkey, record=record, mode=mode,
                           rerate=rerate, go_to=go_to)
        session.keep_typed(inputs.typed_values(question, wkey))
        return
    if kind == "derivation":
        _derivation_givens(question, lang)
    feedback.hints(question, session, lang, wkey)
    if kind == "generated":
        kind_name, value = tolerance_value(question.tolerance)
        st.caption(t("exercises.input_help", lang, example="2.05, -1.5e-3",
                     tolerance=t(f"exercises.tolerance.{kind_name}", lang, value=value)))

    inputs.draw_input(question, session, lang, wkey)
    inputs.confidence_input(wkey, lang)
    _buttons(question, session, lang, wkey, record=record, mode=mode)
    notice = take_notice(wkey)
    if notice:
        st.warning(notice)
    session.keep_typed(inputs.typed_values(question, wkey))

    last = session.last
    if last is not None:
        feedback.verdict(last, lang, kind, number=len(session.graded))
        # graded by Submit's callback: recorded now that the verdict is on its way (all of them,
        # in order, should a run have been cut short before recording one)
        for graded in take_unsaved_answers(wkey):
            flow.save(session, question, graded, record=record, mode=mode)
        if record is not None:
            recording.save_status()
        last = session.last
        if kind == "derivation" and last.result.steps:
            from app_pages.widgets.derivation_view import line_statuses

            line_statuses(last.result, last.answer)
        feedback.tries_status(session, kind, lang)
    first = session.first
    if first is not None:  # recorded with the first try: what the review will do with it
        feedback.rating_panel(first.rating, first.due, first.choices, key=wkey,
                              on_change=_rerater(session, rerate), lang=lang)
    else:  # the store recorded this visit's answers as practice: say so
        feedback.repeat_note(session, lang)
    if session.revealed:
        feedback.solution(question, session, lang)


def _buttons(question, session: flow.QuestionSession, lang: str, wkey: str, *, record: Record,
             mode: str) -> None:
    # One row that wraps, each button as wide as its label: fixed columns cut the labels short
    # ("Submit …") where the question is drawn narrow (the Author page's preview, a phone).
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.button(t("practice.submit", lang), type="primary", icon=":material/send:",
               key=f"{wkey}.submit", width="content",
               on_click=_submit, args=(question, session, lang, wkey, record, mode))
    if not session.revealed:
        row.button(t("practice.show_solution", lang), icon=":material/menu_book:",
                   key=f"{wkey}.give_up", width="content",
                   help=t("practice.show_solution_help", lang),
                   on_click=flow.give_up, args=(session, question),
                   kwargs={"record": record, "mode": mode})
        row.caption(t("practice.try_of", lang,
                      n=min(session.tries_used + 1, session.tries_allowed),
                      total=session.tries_allowed))
    else:
        row.caption(t("practice.practice_only", lang))


def _submit(question, session: flow.QuestionSession, lang: str, wkey: str, record: Record,
            mode: str) -> None:
    """Submit's callback: check the answer is complete and grade it."""
    answer = inputs.answer_from_state(question, wkey)
    problem = _incomplete(question, answer, typed=widget_value(f"{wkey}.lines"))
    if problem:
        leave_notice(wkey, problem)
        return
    graded = flow.submit(session, question, answer, confidence=inputs.confidence_of(wkey),
                         lang=lang)
    # Recorded by the run that follows, once the verdict is drawn: the learner does not wait for
    # the database write.
    unsaved_answers(wkey).append(graded)


def _incomplete(question, answer, *, typed: str | None = None) -> str | None:
    kind = inputs.question_type(question)
    if answer is None and kind == "derivation" and (typed or "").strip():
        return tr("practice.only_remarks")  # words only: every line was read as a remark
    if answer is None:
        return tr("practice.pick_an_option" if kind == "choice" else "practice.empty_answer")
    if kind == "ordering" and len(answer) < len(question.steps):
        return tr("practice.order_incomplete", placed=len(answer), total=len(question.steps))
    if kind == "generated" and not all(str(v).strip() for v in answer.values()):
        return tr("practice.fill_every_box")
    return None


def _rerater(session: flow.QuestionSession, rerate: Rerate):
    if rerate is None:
        return None
    return lambda rating: flow.change_rating(session, rating, rerate=rerate)


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
