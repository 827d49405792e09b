"""Every table the app draws goes through this module: Streamlit's table toolbar offers a CSV
download of exactly what is drawn, with no formula escaping of its own, so text cells are made
inert first (`tutor.spreadsheet`). `data_table` is that grid; `static_table` a plain HTML
`<table>` with no toolbar (what a screen reader reads as a table: a chart's numbers).
tests/app/test_tables.py checks that no page draws a table any other way."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tutor.spreadsheet import inert_frame


def data_table(data: pd.DataFrame | list[dict], **options):
    """`st.dataframe(data, **options)` with every text cell neutralised; returns what it does."""
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    return st.dataframe(inert_frame(frame), **options)


def static_table(data: pd.DataFrame, **options):
    """`st.table(data, **options)`: no toolbar, no download, so its cells are drawn as they are
    (a negative number stays `-0.5`, not `'-0.5`)."""
    return st.table(data, **options)
