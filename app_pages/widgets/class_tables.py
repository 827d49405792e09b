"""The Class page's two tables and its export, as an instructor reads them: learners by name,
topics and questions by their titles in the current language, "—" where there is no data yet,
dates in the viewer's time zone. Shares are shown as text ("40%"), because Streamlit draws an
empty number cell as "None" whatever its format says (a pandas Styler's `na_rep` is not used
for number columns; checked in Chromium), and a progress bar cell as blank. The CSV keeps the
machine's ids, shares and ISO times under readable headers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd
import streamlit as st

from app_pages.state import lang, option_labels, tr
from app_pages.widgets import resources
from app_pages.widgets.attempt_history import learner_zone
from app_pages.widgets.progress import shown_name
from quizbank.enums import Topic
from tutor.class_view import WINDOW_DAYS, LearnerActivity, LearnerRow, class_mastery, rows_csv
from tutor.dashboard import date_format
from tutor.store import utc_now

NO_DATA = "—"
STUCK_MARK = "⚠"
STUCK_ON_TITLE_CHARS = 40


def _question_title(question_id: str, catalog: Mapping) -> str:
    question = catalog.get(question_id)
    if question is None:  # removed from the bank since: its id is all there is
        return question_id
    return resources.question_title(question, lang(), limit=STUCK_ON_TITLE_CHARS)


def percent(share: float | None) -> str:
    """0.4 -> "40%"; None (nothing to count) -> "—"."""
    return NO_DATA if share is None or pd.isna(share) else f"{round(100 * share)}%"


def _right() -> dict:
    return st.column_config.TextColumn(alignment="right")  # a share reads like a number


def learner_table(rows: Iterable[LearnerRow]) -> tuple[pd.DataFrame, dict]:
    """One row per learner, "—" where a learner has no first try yet; the table and its column
    config."""
    rows = list(rows)
    zone = learner_zone()
    catalog = resources.catalog()  # once per table: each lookup checks the bank's files
    moments = [r.last_active for r in rows if r.last_active is not None]
    pattern = date_format(moments, now=utc_now(), tz=zone, time=True)
    accuracy, last_active = tr("classview.col.accuracy"), tr("classview.col.last_active")
    frame = pd.DataFrame({
        tr("classview.col.learner"): [shown_name(r.name) for r in rows],
        tr("classview.col.stuck"): [STUCK_MARK if r.stuck else "" for r in rows],
        tr("classview.col.stuck_on"): ["; ".join(_question_title(q, catalog) for q in r.stuck_on)
                                       for r in rows],
        tr("classview.col.first_tries"): [r.first_tries for r in rows],
        accuracy: [percent(r.accuracy) for r in rows],
        tr("classview.col.recent", days=WINDOW_DAYS): [r.recent_first_tries for r in rows],
        tr("classview.col.failed", days=WINDOW_DAYS): [r.recent_failed for r in rows],
        tr("classview.col.active_days", days=WINDOW_DAYS): [r.active_days for r in rows],
        last_active: [NO_DATA if r.last_active is None
                      else r.last_active.astimezone(zone).strftime(pattern) for r in rows],
        tr("classview.col.due_now"): [r.due_now for r in rows],
    })
    return frame, {accuracy: _right(), last_active: _right()}


def mastery_table(activities: Iterable[LearnerActivity],
                  topic_of: Mapping[str, str]) -> tuple[pd.DataFrame, dict]:
    """Learner x topic (the topics by the names and in the order of Practice's filter); "—" where
    the learner has not answered any of the topic's questions. Returns the table and its column
    config."""
    frame = class_mastery(activities, topic_of)
    topic_label = option_labels(lambda topic: f"practice.topic.{topic}")
    in_bank = set(frame.columns[1:])
    order = [t.value for t in Topic if t.value in in_bank] + sorted(in_bank - {t.value for t in Topic})
    labels = {topic: topic_label(topic) for topic in order}
    shown = pd.DataFrame({tr("classview.col.learner"): frame["learner"].map(shown_name)})
    for topic, label in labels.items():
        shown[label] = frame[topic].map(percent)
    return shown, {label: _right() for label in labels.values()}


def class_csv(rows: Iterable[LearnerRow]) -> str:
    """The export, with the header row in the current language. It starts with a byte-order
    mark: without one, Excel reads UTF-8 as the system's code page and garbles 中文 headers
    (Python's `utf-8-sig` and pandas skip it)."""
    return "\ufeff" + rows_csv(rows, header=lambda column: tr(f"classview.csv.{column}"))
