"""Review: what is due for the profile (high-confidence errors first), practised one by one through
the same question screen as Practice. A brand-new learner is told how Review works."""

import streamlit as st

from app_pages import state
from app_pages.state import lang, tr
from app_pages.widgets import progress, recording, resources, scratch_work
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.question_view import question_view
from tutor.dashboard import due_summary
from tutor.sessions.practice import next_due
from tutor.sessions.question_session import from_scratch, to_scratch
from tutor.store import TutorError, utc_now

PAGE = "review"

st.title(tr("review.title"))
st.caption(tr("review.intro"))
record = recording.recorder()
rerate = recording.rerater()
db = progress.store()
if record is None or db is None:
    st.info(tr("practice.no_profile"))
    st.stop()

catalog = resources.catalog()
run = state.question_queue(PAGE, current_profile_id())
try:
    queue = db.review_queue(current_profile_id(), utc_now())
except TutorError as exc:
    st.error(exc.message(lang()))
    st.stop()
queue = [c for c in queue if c.question_id in catalog]


def open_next(skip: str | None) -> None:
    fresh = db.review_queue(current_profile_id(), utc_now())
    qid = next_due(fresh, catalog, skip=skip)
    if qid is None:
        run.close()
    else:
        run.open(catalog[qid])


if state.first_visit(PAGE, current_profile_id()):  # a reload: the question that was on screen, as it was
    scratch = scratch_work.load(PAGE)
    question = catalog.get(scratch.get("question_id")) if isinstance(scratch, dict) else None
    restored = from_scratch(scratch, question) if question is not None else None
    if restored is not None:
        run.resume(restored)
due_ids = {c.question_id for c in queue}
if run.current is None or (run.current.question_id not in due_ids and not run.current.attempted):
    open_next(None)
# The question answered on this screen has moved on already (its card is written as the
# verdict is drawn): the counts leave it out from the run right after the answer, not after Next.
answered = run.current.question_id if run.current is not None and run.current.attempted else None
still_due = [c for c in queue if c.question_id != answered]

cols = st.columns(2)
cols[0].metric(tr("review.due"), len(still_due))
cols[1].metric(tr("review.confident_errors"), sum(c.high_confidence_error for c in still_due))

if run.current is None:
    scratch_work.clear(PAGE)
    cards = db.list_cards(current_profile_id())
    if not cards:  # nothing answered yet: say how Review works rather than "well done"
        with st.container(key="review_how"):
            st.info(tr("review.how_title"), icon=":material/school:")
            st.markdown(tr("review.how_it_works"))
    else:
        st.success(tr("review.nothing_due"), icon=":material/celebration:")
        later = due_summary(cards, utc_now())
        st.caption(tr("review.due_later", today=later["today"], week=later["next_7_days"]))
    st.page_link("app_pages/practice.py", label=tr("review.go_practise"), icon=":material/edit_note:")
    st.stop()

session = run.current
question = catalog[session.question_id]
card = next((c for c in queue if c.question_id == question.id), None)
first = session.first
if first is not None:  # answered: the banner speaks of this answer, not of the last visit's
    if not first.correct and not first.gave_up and first.confidence == "high":
        st.warning(tr("review.sure_but_wrong_now"), icon=":material/priority_high:")
elif card is not None and card.high_confidence_error:
    st.warning(tr("review.was_confident_error"), icon=":material/priority_high:")

question_view(question, session, lang(), key=PAGE, record=record, mode="review", rerate=rerate)
if session.revealed or session.attempted:
    st.button(tr("review.next"), key="review.next", type="secondary", icon=":material/skip_next:",
              on_click=open_next, args=(question.id,))
scratch_work.sync(PAGE, to_scratch(session))
