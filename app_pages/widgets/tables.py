"""Every table the app draws goes through `data_table`: Streamlit's table toolbar offers a CSV
download of exactly what is drawn, with no formula escaping of its own, so text cells are made
inert first (`tutor.spreadsheet`). tests/app/test_tables.py checks that no page draws a table any
other way."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tutor.spreadsheet import inert_frame


def data_table(data: pd.DataFrame | list[dict], **options):
    """`st.dataframe(data, **options)` with every text cell neutralised; returns what it does."""
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    return st.dataframe(inert_frame(frame), **options)
