"""Per-user state has one owner (issue 26): only `app_pages/state.py` touches Streamlit's session
state. Every other module goes through its helpers, so a key, its default and its type live in one
place. Read from the code's syntax trees (nothing is imported), so an alias cannot hide a use:
`ss = st.session_state`, `from streamlit import session_state`, `getattr(st, "session_state")`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OWNER = ROOT / "app_pages" / "state.py"
PACKAGES = ("app_pages", "tutor", "quizbank", "grader", "compute", "contained")
NAME = "session_state"


def uses_of_session_state(source: str) -> list[int]:
    """The lines that reach the session state: as an attribute, an imported name, a bare name or a
    string naming it (getattr, vars()[...]). Docstrings and comments do not count."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == NAME:
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom | ast.Import) and any(
                alias.name == NAME or alias.name.endswith(f".{NAME}") for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.Name) and node.id == NAME:
            lines.append(node.lineno)
        elif isinstance(node, ast.Constant) and node.value == NAME:
            lines.append(node.lineno)
    return sorted(lines)


def project_files() -> list[Path]:
    files = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    return [*files, ROOT / "streamlit_app.py"]


def test_only_the_state_module_touches_the_session_state():
    found = {str(path.relative_to(ROOT)): lines for path in project_files() if path != OWNER
             if (lines := uses_of_session_state(path.read_text(encoding="utf-8")))}
    assert found == {}, f"st.session_state outside app_pages/state.py (file: lines): {found}"


def test_the_state_module_is_where_it_is_used():
    assert uses_of_session_state(OWNER.read_text(encoding="utf-8"))


@pytest.mark.parametrize("source", [
    "import streamlit as st\nst.session_state['k'] = 1\n",
    "import streamlit as st\nss = st.session_state\n",
    "from streamlit import session_state\n",
    "from streamlit import session_state as ss\n",
    "import streamlit as st\nstate = getattr(st, 'session_state')\n",
    "import streamlit as st\ndef f():\n    return st.session_state.get('k')\n",
])
def test_every_way_of_reaching_it_is_seen(source):
    assert uses_of_session_state(source)


def test_a_docstring_that_names_it_is_not_a_use():
    assert uses_of_session_state('"""Frozen: safe in `st.session_state`."""\n') == []
