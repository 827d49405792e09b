"""Analytics: how each question behaves across the class (first-try correct rate, discrimination,
time, hints, reveals, flags), and one question's wrong answers grouped by what they mean, each
of which can become a mal-rule with feedback.

Who may use it: without accounts, the person running the app is its instructor (see README).
Learners appear only as counts: no names, and no one learner's answers.
"""

import streamlit as st

from app_pages.state import lang, tr, tr_n
from app_pages.widgets import analytics_view as view
from app_pages.widgets import progress, resources
from quizbank.authoring import SaveRefused, add_malrule, in_folders
from quizbank.folders import configured_folders

st.title(tr("analytics.title"))
st.caption(tr("analytics.intro"))
store = progress.store()
if store is None:
    st.stop()

from tutor.attempt_table import store_version  # noqa: E402

version = store_version(store)
if version[0] == 0:
    st.info(tr("analytics.empty"))
    st.stop()
bank = resources.bank()
frame = view.with_bank(view.item_table(store, version), bank, lang())

flagged = frame[frame["flags"].map(bool)]
metrics = st.columns(3)
metrics[0].metric(tr("analytics.questions_answered"), len(frame))
metrics[1].metric(tr("analytics.attempts"), version[0])
metrics[2].metric(tr("analytics.flagged_count"), len(flagged))

st.header(tr("analytics.chart_title"))
st.caption(tr("analytics.chart_help"))
view.scatter(frame)

st.header(tr("analytics.flags_title"))
if flagged.empty:
    st.success(tr("analytics.no_flags"))
else:
    view.flag_list(flagged)
    view.statistics_table(flagged)
with st.expander(tr("analytics.all_questions", n=len(frame))):
    view.statistics_table(frame)

st.header(tr("analytics.classes_title"))
st.caption(tr("analytics.classes_help"))
comparable = [q for q in frame["question"]
              if q in bank.questions and bank.questions[q].type in ("expression", "numeric")]
chosen = st.selectbox(tr("analytics.pick_question"), comparable, index=None,
                      key="analytics.question", placeholder=tr("analytics.pick_placeholder"),
                      format_func={q: f"{q} · {resources.question_title(bank.questions[q], lang(), 60)}"
                                   for q in comparable}.__getitem__)
if chosen is not None:
    from quizbank.equivalence import same_answer
    from tutor.answer_classes import group_wrong_answers
    from tutor.attempt_table import read_answers

    question = bank.questions[chosen]
    classes = group_wrong_answers(read_answers(store, chosen),
                                  lambda first, second: same_answer(question, first, second))
    if not classes.classes:
        st.info(tr("analytics.no_wrong"))
    else:
        st.caption(tr_n("analytics.classes_summary", len(classes.classes),
                        learners=tr_n("analytics.learners_n", classes.wrong_learners)))
        view.classes_chart(classes.classes[:12])
        editable = in_folders(bank, chosen, configured_folders().instructor)

        def make_malrule(answer: str, feedback: dict) -> None:
            try:
                path = add_malrule(bank, chosen, answer, feedback)
            except SaveRefused as refused:
                st.error("\n".join(str(p) for p in refused.problems))
            else:
                st.success(tr("analytics.malrule_saved", answer=answer, path=str(path)))

        for k, cls in enumerate(classes.classes[:12], start=1):
            view.answer_class(question, cls, k, lang(), editable, make_malrule)
