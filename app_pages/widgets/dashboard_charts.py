"""Altair charts of the dashboard frames (tutor.dashboard), with titles in the learner's language.

Each function takes a frame and returns a chart; no data is computed here beyond relabelling.
`draw` puts one on the page; each `*_numbers` function gives the chart's text alternative (the
same frame as a table, app_pages/widgets/chart_text.py).
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from app_pages.state import tr
from app_pages.widgets.chart_text import numbers_table
from tutor.dashboard import date_format
from tutor.store import utc_now

BLUE, GREEN, ORANGE, GREY = "#2F6FEB", "#16A34A", "#EA580C", "#9CA3AF"


def draw(chart: alt.TopLevelMixin) -> None:
    """`st.altair_chart(chart, width="stretch")` without Altair's JSON-schema validation of the
    spec, which was most of the Dashboard's chart time (~0.18 s CPU of ~0.25 s for its four
    charts). These specs are fixed code: tests/app/test_dashboard_history.py validates each one.
    The spec's `config` is only Altair's default theme (a 300 px view), which Streamlit's own
    conversion drops too; the data goes inline and Streamlit sends it as Arrow."""
    spec = chart.to_dict(validate=False)
    spec.pop("config", None)
    st.vega_lite_chart(spec=spec, width="stretch")


def _day_label(frame: pd.DataFrame) -> pd.DataFrame:
    # Days as ordinal "MM-DD" labels ("YYYY-MM-DD" when one is not in this year): bars keep a
    # sensible width for one day or for sixty.
    pattern = date_format(frame["day"].dt.to_pydatetime(), now=utc_now())
    return frame.assign(label=frame["day"].dt.strftime(pattern))


def _day_axis() -> alt.X:
    return alt.X("label:O", title=tr("dashboard.day"), sort=None, axis=alt.Axis(labelAngle=0))


def activity_chart(daily: pd.DataFrame) -> alt.Chart:
    """Attempts per day (bars) and accuracy (line, right axis)."""
    base = alt.Chart(_day_label(daily)).encode(x=_day_axis())
    bars = base.mark_bar(color=BLUE, opacity=0.55).encode(
        y=alt.Y("attempts:Q", title=tr("dashboard.attempts"),  # whole attempts, not 0.2 steps
                axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=[alt.Tooltip("label:O", title=tr("dashboard.day")),
                 alt.Tooltip("attempts:Q", title=tr("dashboard.attempts")),
                 alt.Tooltip("accuracy:Q", title=tr("dashboard.accuracy"), format=".0%")],
    )
    line = base.mark_line(color=GREEN, point=True).encode(
        y=alt.Y("accuracy:Q", title=tr("dashboard.accuracy"), scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%")),
    )
    return alt.layer(bars, line).resolve_scale(y="independent").properties(height=260)


def activity_numbers(daily: pd.DataFrame) -> pd.DataFrame:
    return numbers_table(daily, {"day": tr("dashboard.day"), "attempts": tr("dashboard.attempts"),
                                 "accuracy": tr("dashboard.accuracy")},
                         percent=["accuracy"], dates=["day"])


def mastery_chart(mastery: pd.DataFrame) -> alt.Chart:
    """Share of each topic's questions mastered (latest graded attempt correct)."""
    frame = mastery.assign(label=mastery["topic"].map(lambda t: tr(f"practice.topic.{t}")))
    return (
        alt.Chart(frame)
        .mark_bar(color=GREEN)
        .encode(
            x=alt.X("mastery:Q", title=tr("dashboard.mastery"), scale=alt.Scale(domain=[0, 1]),
                    axis=alt.Axis(format="%")),
            y=alt.Y("label:N", title=None, sort="-x", axis=alt.Axis(labelLimit=220)),
            tooltip=[alt.Tooltip("label:N", title=tr("dashboard.topic")),
                     alt.Tooltip("mastered:Q", title=tr("dashboard.mastered")),
                     alt.Tooltip("questions:Q", title=tr("dashboard.questions")),
                     alt.Tooltip("accuracy:Q", title=tr("dashboard.accuracy"), format=".0%")],
        )
        .properties(height=max(160, 26 * len(frame)))
    )


def mastery_numbers(mastery: pd.DataFrame) -> pd.DataFrame:
    frame = mastery.assign(topic=mastery["topic"].map(lambda t: tr(f"practice.topic.{t}")))
    return numbers_table(frame, {"topic": tr("dashboard.topic"), "mastery": tr("dashboard.mastery"),
                                 "mastered": tr("dashboard.mastered"),
                                 "questions": tr("dashboard.questions")}, percent=["mastery"])


def due_chart(due: pd.DataFrame) -> alt.Chart:
    """Cards falling due today (overdue included) and on each of the next days."""
    return (
        alt.Chart(_day_label(due))
        .mark_bar(color=ORANGE)
        .encode(
            x=_day_axis(),
            y=alt.Y("due:Q", title=tr("dashboard.due"), axis=alt.Axis(tickMinStep=1)),
            tooltip=[alt.Tooltip("label:O", title=tr("dashboard.day")),
                     alt.Tooltip("due:Q", title=tr("dashboard.due"))],
        )
        .properties(height=220)
    )


def due_numbers(due: pd.DataFrame) -> pd.DataFrame:
    return numbers_table(due, {"day": tr("dashboard.day"), "due": tr("dashboard.due")}, dates=["day"])


def calibration_chart(calibration: pd.DataFrame) -> alt.Chart:
    """Share correct at each confidence level; a well-calibrated learner climbs with confidence."""
    frame = calibration.assign(
        level=calibration["confidence"].map(
            {1: tr("practice.confidence_low"), 2: tr("practice.confidence_medium"),
             3: tr("practice.confidence_high")}
        )
    )
    order = [tr("practice.confidence_low"), tr("practice.confidence_medium"),
             tr("practice.confidence_high")]
    bars = (
        alt.Chart(frame)
        .mark_bar(color=BLUE)
        .encode(
            x=alt.X("level:N", title=tr("practice.confidence"), sort=order,
                    axis=alt.Axis(labelAngle=0)),
            y=alt.Y("accuracy:Q", title=tr("dashboard.share_correct"),
                    scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
            tooltip=[alt.Tooltip("level:N", title=tr("practice.confidence")),
                     alt.Tooltip("attempts:Q", title=tr("dashboard.attempts")),
                     alt.Tooltip("accuracy:Q", title=tr("dashboard.accuracy"), format=".0%")],
        )
    )
    labels = bars.mark_text(dy=-8, color=GREY).encode(text=alt.Text("attempts:Q"))
    return alt.layer(bars, labels).properties(height=240)


def calibration_numbers(calibration: pd.DataFrame) -> pd.DataFrame:
    levels = {1: tr("practice.confidence_low"), 2: tr("practice.confidence_medium"),
              3: tr("practice.confidence_high")}
    frame = calibration.assign(confidence=calibration["confidence"].map(levels))
    return numbers_table(frame, {"confidence": tr("practice.confidence"),
                                 "attempts": tr("dashboard.attempts"),
                                 "accuracy": tr("dashboard.share_correct")}, percent=["accuracy"])
