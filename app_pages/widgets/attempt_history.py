"""The dashboard's history: a table of the profile's answers (a selected row opens that answer and
its question again) and a per-question table (attempts, first try, latest, next review).

Dates are in the learner's time zone and show the year unless all of them are in this year.
The learner's answer is shown as plain text (`st.code`), never as Markdown.
"""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd
import streamlit as st

from app_pages.state import tr
from app_pages.widgets import resources
from app_pages.widgets.bank_text import bank_markdown
from app_pages.widgets.current_profile import frame_params
from app_pages.widgets.tables import data_table
from tutor.dashboard import date_format
from tutor.store import utc_now

TABLE_KEY = "dashboard.attempt_table"
SHOWN_ROWS = 500  # the newest; the CSV export has every one
ROW_PX, MAX_TABLE_PX = 35, 400  # Streamlit's row height; past ~10 rows the table scrolls


def learner_zone():
    try:
        return ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def _titles(question_ids, lang: str) -> dict[str, str]:
    # once per question, not per row: a long history repeats the same few hundred questions;
    # the catalog once per table (each lookup checks the bank's files)
    catalog = resources.catalog()

    def title(question_id: str) -> str:
        question = catalog.get(question_id)
        if question is None:
            return tr("dashboard.not_in_bank", id=question_id)
        return resources.question_title(question, lang, limit=70)

    return {qid: title(qid) for qid in set(question_ids)}


def phone_friendly(question_column: str) -> dict:
    """The question column at a fixed medium width, pinned at the left: a long title no longer
    fills a phone's screen (390 px showed the question column only); the other columns scroll
    under it, and the whole title is in the cell's tooltip."""
    return {question_column: st.column_config.TextColumn(width="medium", pinned=True)}


def _labels(prefix: str, values) -> list[str]:
    names = {v: tr(f"{prefix}.{v}") for v in set(values)}
    return [names[v] for v in values]


def _dates(moments: pd.Series, pattern: str, zone) -> list[str]:
    return [m.astimezone(zone).strftime(pattern) if m is not None and not pd.isna(m) else "—"
            for m in moments]


def attempts_table(frame: pd.DataFrame, lang: str) -> None:
    """The answers, newest first; selecting a row shows that answer and its question."""
    st.header(tr("dashboard.history_title"))
    st.caption(tr("dashboard.history_help"))
    zone = learner_zone()
    frame = frame.head(SHOWN_ROWS)
    pattern = date_format(frame["created_at"], now=utc_now(), tz=zone, time=True)
    titles = _titles(frame["question_id"], lang)
    shown = pd.DataFrame({
        tr("dashboard.col.when"): _dates(frame["created_at"], pattern, zone),
        tr("dashboard.col.question"): [titles[q] for q in frame["question_id"]],
        tr("dashboard.col.result"): _labels("dashboard.verdict", list(frame["verdict"])),
        tr("dashboard.col.phase"): _labels("dashboard.phase", list(frame["phase"])),
        tr("dashboard.col.mode"): [tr("dashboard.mode_imported", mode=where) if imported else where
                                   for where, imported in zip(
                                       _labels("dashboard.mode", list(frame["mode"])),
                                       frame["imported"], strict=True)],
    })
    height = min(ROW_PX * (len(shown) + 1) + 3, MAX_TABLE_PX)  # no empty rows under a short table
    event = data_table(shown, hide_index=True, width="stretch", height=height, key=TABLE_KEY,
                       on_select="rerun", selection_mode="single-row",
                       column_config=phone_friendly(tr("dashboard.col.question")))
    rows = list(getattr(getattr(event, "selection", None), "rows", None) or [])
    if rows and 0 <= rows[0] < len(frame):
        opened_attempt(frame.iloc[rows[0]], lang, pattern, zone)


def opened_attempt(row: pd.Series, lang: str, pattern: str, zone) -> None:
    """One answer as it was recorded, its question again, and a link to practise it."""
    with st.container(border=True, key="dashboard_opened_attempt"):
        when = row["created_at"].astimezone(zone).strftime(pattern)
        st.caption(tr("dashboard.opened_caption", when=when,
                      result=tr(f"dashboard.verdict.{row['verdict']}"),
                      phase=tr(f"dashboard.phase.{row['phase']}")))
        question = resources.question(row["question_id"])
        if question is None:
            st.info(tr("dashboard.not_in_bank", id=row["question_id"]))
        else:
            bank_markdown(question.prompt.get(lang), question.id, lang)  # bank text, its pictures
        st.caption(tr("dashboard.your_answer"))
        answer = str(row["answer"] or "")
        st.code(answer if answer.strip() else tr("dashboard.no_answer"), language=None,
                wrap_lines=True)
        if question is not None:
            params = {"q": row["question_id"], **frame_params()}
            if row["seed"] is not None and not pd.isna(row["seed"]):
                params["seed"] = str(int(row["seed"]))
            st.page_link("app_pages/practice.py", label=tr("dashboard.practise_again"),
                         icon=":material/edit_note:", query_params=params)


def question_table(history: pd.DataFrame, lang: str) -> None:
    """Per question: attempts, correct, first try, latest, last seen, next review."""
    st.header(tr("dashboard.per_question_title"))
    zone = learner_zone()
    moments = [m for m in list(history["last_seen"]) + list(history["next_review"])
               if m is not None and not pd.isna(m)]
    pattern = date_format(moments, now=utc_now(), tz=zone)
    titles = _titles(history["question_id"], lang)
    shown = pd.DataFrame({
        tr("dashboard.col.question"): [titles[q] for q in history["question_id"]],
        tr("dashboard.col.attempts"): history["attempts"],
        tr("dashboard.col.correct"): history["correct"],
        tr("dashboard.col.first_try"): _labels("dashboard.verdict", list(history["first_try"])),
        tr("dashboard.col.latest"): _labels("dashboard.verdict", list(history["latest"])),
        tr("dashboard.col.last_seen"): _dates(history["last_seen"], pattern, zone),
        tr("dashboard.col.next_review"): _dates(history["next_review"], pattern, zone),
    })
    data_table(shown, hide_index=True, width="stretch", key="dashboard.question_table",
               column_config=phone_friendly(tr("dashboard.col.question")))
