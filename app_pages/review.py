"""Review: what is due for the profile (high-confidence errors first), practised one by one."""

import streamlit as st

from app_pages.state import lang, profile_id, tr
from app_pages.widgets import flow_state, progress, resources
from app_pages.widgets.question_view import question_view
from tutor.dashboard import due_summary
from tutor.practice import grade, grade_answer, next_due, record_outcome
from tutor.store import TutorError, utc_now

st.title(tr("review.title"))
st.caption(tr("review.intro"))
record = progress.recorder()
db = progress.store()
if record is None or db is None:
    st.info(tr("practice.no_profile"))
    st.stop()

bank = resources.bank()
resources.warm_grader()
run = flow_state.run("review")
try:
    queue = db.review_queue(profile_id(), utc_now())
except TutorError as exc:
    st.error(exc.message(lang()))
    st.stop()
queue = [c for c in queue if c.question_id in bank.questions]

cols = st.columns(2)
cols[0].metric(tr("review.due"), len(queue))
cols[1].metric(tr("review.confident_errors"), sum(c.high_confidence_error for c in queue))


def open_next(skip: str | None) -> None:
    fresh = db.review_queue(profile_id(), utc_now())
    qid = next_due(fresh, bank.questions, skip=skip)
    if qid is None:
        run.current = None
    else:
        run.open(bank.questions[qid])


if run.current is None or (run.current.question_id not in {c.question_id for c in queue}
                           and not run.current.attempted):
    open_next(None)
if run.current is None:
    st.success(tr("review.nothing_due"), icon=":material/celebration:")
    later = due_summary(db.list_cards(profile_id()), utc_now())
    st.caption(tr("review.due_later", today=later["today"], week=later["next_7_days"]))
    st.page_link("app_pages/practice.py", label=tr("review.go_practise"), icon=":material/edit_note:")
    st.stop()

question = bank.questions[run.current.question_id]
session = run.current
card = next((c for c in queue if c.question_id == question.id), None)
if card is not None and card.high_confidence_error:
    st.warning(tr("review.was_confident_error"), icon=":material/priority_high:")



question_view(
    question, session, lang(), key="review",
    grade=lambda answer, confidence: grade_answer(
        session, question, answer, confidence=confidence, lang=lang(), grade=grade),
    save=lambda outcome: record_outcome(session, question, outcome, record=record, mode="review"),
)
if session.attempted:
    st.button(tr("review.next"), key="review.next", type="secondary", icon=":material/skip_next:",
              on_click=open_next, args=(question.id,))
