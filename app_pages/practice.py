"""Practice: choose topics, types and difficulty; answer one question at a time; see why."""

import streamlit as st

from app_pages.state import lang, tr
from app_pages.widgets import flow_state, progress, resources
from app_pages.widgets.answer_inputs import labelled
from app_pages.widgets.question_view import question_view
from quizbank.enums import Difficulty, QuestionType, Topic
from tutor.practice import Filters, grade, grade_answer, matching_ids, record_outcome

st.title(tr("practice.title"))
st.caption(tr("practice.intro"))
record = progress.recorder()

bank = resources.bank()
resources.warm_grader()
run = flow_state.run("practice")

with st.expander(tr("practice.filters"), icon=":material/tune:"):
    cols = st.columns(3)
    filters = Filters.of(
        cols[0].multiselect(tr("practice.topics"), [t.value for t in Topic], key="practice.f.topics",
                            format_func=labelled("practice.topic.", Topic),
                            placeholder=tr("practice.any")),
        cols[1].multiselect(tr("practice.types"), [t.value for t in QuestionType],
                            key="practice.f.types", format_func=labelled("practice.type.", QuestionType),
                            placeholder=tr("practice.any")),
        cols[2].multiselect(tr("practice.difficulties"), [d.value for d in Difficulty],
                            key="practice.f.levels",
                            format_func=labelled("practice.difficulty.", Difficulty),
                            placeholder=tr("practice.any")),
    )
ids = matching_ids(bank, filters)
st.caption(tr("practice.count", n=len(ids)))

requested = flow_state.take_requested() or flow_state.take_url_question()
filters_changed = flow_state.filters_changed("practice", filters)
if requested in bank.questions:
    run.open(bank.questions[requested])
elif filters_changed or run.current is None:
    run.next(bank.questions, ids)


@st.fragment
def current_question() -> None:
    """The question on screen. A fragment: submitting, a hint or the next question reruns only
    this part, not the shell, the sidebar and the filters (the submit-to-verdict time)."""
    session = run.current
    if session is None:
        st.info(tr("practice.none_match"))
        return
    question = bank.questions[session.question_id]

    question_view(question, session, lang(), key="practice",
                  grade=lambda answer, confidence: grade_answer(
                      session, question, answer, confidence=confidence, lang=lang(), grade=grade),
                  save=lambda outcome: record_outcome(session, question, outcome, record=record),
                  go_to=lambda qid: run.open(bank.questions[qid]))
    if session.attempted:
        st.button(tr("practice.next"), key="practice.next", type="secondary",
                  icon=":material/skip_next:", on_click=run.next, args=(bank.questions, ids))


current_question()
