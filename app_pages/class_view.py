"""Class: the instructor's view of the learners (activity, mastery by topic, who is stuck, the
review backlog) and a CSV export; the numbers come from tutor.class_view."""

import streamlit as st

from app_pages.auth import require_instructor
from app_pages.state import lang, tr
from app_pages.widgets import progress, resources
from tutor.class_view import (
    STUCK_MIN_FAILED,
    WINDOW_DAYS,
    class_mastery,
    class_rows,
    load_class,
    rows_csv,
    summarize,
)
from tutor.store import TutorError, utc_now

require_instructor()
st.title(tr("classview.title"))
st.caption(tr("classview.intro", days=WINDOW_DAYS, failed=STUCK_MIN_FAILED))
db = progress.store()
if db is None:
    st.stop()
now = utc_now()
try:
    histories = load_class(db)
except TutorError as exc:
    st.error(exc.message(lang()))
    st.stop()
rows = class_rows(histories, now)
summary = summarize(rows)

cols = st.columns(4)
cols[0].metric(tr("classview.learners"), summary.learners)
cols[1].metric(tr("classview.active", days=WINDOW_DAYS), summary.active)
cols[2].metric(tr("classview.stuck"), summary.stuck)
cols[3].metric(tr("classview.backlog"), summary.due_now,
               help=tr("classview.backlog_help", learners=summary.learners_with_due))
if not rows:
    st.info(tr("classview.empty"), icon=":material/groups:")
    st.stop()

st.subheader(tr("classview.learners_title"))
table = [{
    tr("classview.col.learner"): r.name,
    tr("classview.col.stuck"): "⚠" if r.stuck else "",
    tr("classview.col.stuck_on"): ", ".join(r.stuck_on),
    tr("classview.col.first_tries"): r.first_tries,
    tr("classview.col.accuracy"): None if r.accuracy is None else round(100 * r.accuracy),
    tr("classview.col.recent", days=WINDOW_DAYS): r.recent_first_tries,
    tr("classview.col.failed", days=WINDOW_DAYS): r.recent_failed,
    tr("classview.col.active_days", days=WINDOW_DAYS): r.active_days,
    tr("classview.col.last_active"): r.last_active,
    tr("classview.col.due_now"): r.due_now,
} for r in rows]
st.dataframe(table, hide_index=True, width="stretch", key="classview.learners_table")

st.subheader(tr("classview.mastery_title"))
st.caption(tr("classview.mastery_help"))
topic_of = {q.id: str(q.topic) for q in resources.bank()}
mastery = class_mastery(histories, topic_of).rename(columns={"learner": tr("classview.col.learner")})
st.dataframe(mastery, hide_index=True, width="stretch", key="classview.mastery_table",
             column_config={t: st.column_config.ProgressColumn(t, min_value=0.0, max_value=1.0,
                                                               format="percent")
                            for t in mastery.columns[1:]})

st.download_button(tr("classview.export_csv"), rows_csv(rows), file_name="class.csv",
                   mime="text/csv", icon=":material/download:")
