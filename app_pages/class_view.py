"""Class: the instructor's view of the learners (activity, mastery by topic, who is stuck, the
review backlog), a CSV export, and one learner's data exported or deleted; the numbers come from
tutor.class_view."""

import streamlit as st

from app_pages.state import lang, tr, tr_n
from app_pages.widgets import progress, resources
from app_pages.widgets.auth import require_instructor
from app_pages.widgets.class_tables import class_csv, learner_table, mastery_table
from app_pages.widgets.learner_data import learner_data_section
from app_pages.widgets.tables import data_table
from tutor.class_store import load_class
from tutor.class_view import STUCK_MIN_FAILED, WINDOW_DAYS, class_rows, summarize
from tutor.store import TutorError, utc_now

require_instructor()
st.title(tr("classview.title"))
st.caption(tr("classview.intro", days=WINDOW_DAYS, failed=STUCK_MIN_FAILED))
db = progress.store()
if db is None:
    st.stop()
now = utc_now()
try:
    activities = load_class(db, now)
except TutorError as exc:
    st.error(exc.message(lang()))
    st.stop()
rows = class_rows(activities, now)
summary = summarize(rows)

cols = st.columns(4)
cols[0].metric(tr("classview.learners"), summary.learners)
cols[1].metric(tr("classview.active", days=WINDOW_DAYS), summary.active)
cols[2].metric(tr("classview.stuck"), summary.stuck)
cols[3].metric(tr("classview.backlog"), summary.due_now,
               help=tr_n("classview.backlog_help", summary.learners_with_due))
if not rows:
    st.info(tr("classview.empty"), icon=":material/groups:")
    learner_data_section(db, rows)  # a deletion just done says so
    st.stop()

st.header(tr("classview.learners_title"))
learners, learner_columns = learner_table(rows)
data_table(learners, hide_index=True, width="stretch", key="classview.learners_table",
           column_config=learner_columns)

st.header(tr("classview.mastery_title"))
st.caption(tr("classview.mastery_help"))
mastery, mastery_columns = mastery_table(activities, {q.id: str(q.topic) for q in resources.bank()})
data_table(mastery, hide_index=True, width="stretch", key="classview.mastery_table",
           column_config=mastery_columns)

st.download_button(tr("classview.export_csv"), class_csv(rows), file_name="class.csv",
                   mime="text/csv", icon=":material/download:")

learner_data_section(db, rows)
