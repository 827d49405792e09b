"""Pages and widgets draw a question session and send it events; they never set its fields
(issue 26: `widgets/interview_view.py` set `session.revealed = True` itself). Read from the code's
syntax trees: in `app_pages/`, outside the state module, an attribute is assigned only on a page's
own state object (`page_state(...)`, `app_pages.state`). The server-tuning modules are left out
(another branch's: tuning27)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "app_pages"
NOT_PAGES_OR_WIDGETS = {"state.py"}


def fields_set(source: str) -> list[str]:
    """`x.attr = …` (also `+=`, annotated, `setattr`) where x is not a page's state object: a
    name bound to `page_state(...)` in the module, or that call itself."""
    tree = ast.parse(source)

    def is_page_state_call(node) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "page_state")

    page_states = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                   and is_page_state_call(node.value)
                   for target in node.targets if isinstance(target, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr")):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
            continue
        else:
            continue
        for target in targets:
            for sub in ast.walk(target):
                if not (isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store)):
                    continue
                owner = sub.value
                if is_page_state_call(owner) or (isinstance(owner, ast.Name)
                                                 and owner.id in page_states):
                    continue
                found.append(f"{node.lineno}: {ast.unparse(sub)}")
    return found


def test_pages_and_widgets_set_no_fields_but_their_page_state():
    found = {str(path.relative_to(ROOT)): lines for path in sorted(PAGES.rglob("*.py"))
             if path.name not in NOT_PAGES_OR_WIDGETS
             if (lines := fields_set(path.read_text(encoding="utf-8")))}
    assert found == {}, f"fields set by a page or widget (send the session an event): {found}"


@pytest.mark.parametrize("source", [
    "def f(session):\n    session.revealed = True\n",
    "def f(run):\n    run.current = None\n",
    "def f(session):\n    session.hints_shown += 1\n",
    "def f(session):\n    setattr(session, 'revealed', True)\n",
    "def f(session):\n    a = b = session\n    a.typed = {}\n",
])
def test_a_field_set_from_a_page_is_seen(source):
    assert fields_set(source)


def test_a_page_sets_its_own_state():
    source = ("from app_pages.state import PracticePage, page_state\n"
              "page = page_state(PracticePage)\npage.url_question = 'q'\n"
              "page_state(PracticePage).url_question = None\n")
    assert fields_set(source) == []
