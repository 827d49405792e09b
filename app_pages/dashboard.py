"""Dashboard: attempts and accuracy over time, mastery by topic, reviews due, calibration; the
table of answers (a row opens the answer and its question) and per-question history; export the
history (CSV, JSON) and import a JSON export."""

import streamlit as st

from app_pages.state import lang, tr
from app_pages.widgets import dashboard_charts as charts
from app_pages.widgets import progress, resources
from app_pages.widgets.attempt_history import attempts_table, question_table
from app_pages.widgets.auth import class_mode
from app_pages.widgets.chart_text import chart_numbers
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.transfer_view import transfer_section
from tutor.dashboard import dashboard_data
from tutor.store import TutorError, utc_now

st.title(tr("dashboard.title"))
st.caption(tr("dashboard.intro"))
db = progress.store()
profile_id = current_profile_id()
if db is None or profile_id is None:
    if class_mode():  # no picker here: the signed-in profile is missing only when the store is
        st.error(tr("dashboard.database_unreachable"), icon=":material/database:")
    else:
        st.info(tr("practice.no_profile"))
    st.stop()

topic_of = {q.id: str(q.topic) for q in resources.bank()}
try:
    data = dashboard_data(db, profile_id, topic_of, utc_now())
except TutorError as exc:
    st.error(exc.message(lang()))
    st.stop()

attempts = int(data.daily["attempts"].sum())
graded, correct = int(data.daily["graded"].sum()), int(data.daily["correct"].sum())
cols = st.columns(4)
cols[0].metric(tr("dashboard.attempts"), attempts)
cols[1].metric(tr("dashboard.accuracy"), f"{correct / graded:.0%}" if graded else "—")
cols[2].metric(tr("dashboard.due_now"), data.due_counts["now"])
cols[3].metric(tr("dashboard.due_week"), data.due_counts["next_7_days"])

if attempts == 0:
    st.info(tr("dashboard.empty"), icon=":material/insights:")
else:
    left, right = st.columns(2)
    with left:
        st.header(tr("dashboard.activity"))
        charts.draw(charts.activity_chart(data.daily))
        chart_numbers(charts.activity_numbers(data.daily))  # its text alternative
        st.header(tr("dashboard.calibration"))
        st.caption(tr("dashboard.calibration_help"))
        charts.draw(charts.calibration_chart(data.calibration))
        chart_numbers(charts.calibration_numbers(data.calibration))  # its text alternative
    with right:
        st.header(tr("dashboard.mastery_title"))
        charts.draw(charts.mastery_chart(data.mastery))
        chart_numbers(charts.mastery_numbers(data.mastery))  # its text alternative
        st.header(tr("dashboard.reviews_due"))
        charts.draw(charts.due_chart(data.due))
        chart_numbers(charts.due_numbers(data.due))  # its text alternative
    attempts_table(data.attempts, lang())
    question_table(data.history, lang())

transfer_section(db, profile_id, lang())
