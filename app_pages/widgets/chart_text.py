"""A chart's text alternative (WCAG 1.1.1, issue 31): the numbers it draws, as a table in a
collapsed expander right under it. A screen reader cannot read a Vega chart's bars; a table of
the same frame, with the chart's own axis titles as its headers, says everything the chart says.
`st.table` is a real HTML `<table>`, so its rows and headers are announced as such."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd
import streamlit as st

from app_pages.state import tr
from app_pages.widgets.tables import static_table


def numbers_table(frame: pd.DataFrame, columns: Mapping[str, str], *,
                  percent: Iterable[str] = (), dates: Iterable[str] = ()) -> pd.DataFrame:
    """`frame`'s `columns` (name -> header in the learner's language), shares as "53%", days as
    ISO dates: what the chart's tooltips show."""
    shown = frame[list(columns)].copy()
    for name in percent:
        shown[name] = [f"{v:.0%}" if pd.notna(v) else "—" for v in shown[name]]
    for name in dates:
        shown[name] = pd.to_datetime(shown[name]).dt.strftime("%Y-%m-%d")
    return shown.rename(columns=columns)


def series_table(x_title: str, x: Sequence, series: Mapping[str, Sequence]) -> pd.DataFrame:
    """One row per x value, one column per named series (a gap in a series is "—")."""
    rows = {x_title: list(x)}
    for name, values in series.items():
        rows[name] = ["—" if v is None else f"{v:.4g}" for v in values]
    return pd.DataFrame(rows)


def chart_numbers(table: pd.DataFrame) -> None:
    """The table under the chart, collapsed: "The numbers in this chart"."""
    with st.expander(tr("common.chart_numbers")):
        static_table(table, hide_index=True)
