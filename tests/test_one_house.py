"""Where things live, read from the code's syntax trees (issue 26, "One house"; nothing here
imports the code it reads):

- one function in the project builds a `RubricOutcome` (`tutor.interview.grade_ticks`: a stored
  judgement is judged again from its ticks, never rebuilt field by field);
- one function turns a session's answer into a `NewAttempt` (`question_session.new_attempt`);
- `tutor/sessions/` imports no Streamlit, directly or through anything it imports, at module level
  or inside functions;
- `app_pages/` holds the pages `st.navigation` lists, `app_pages/widgets/` and the one state
  module, nothing else.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_import_circles import PACKAGES, ROOT, SCRIPTS, project_modules


def python_files(root: Path, packages=PACKAGES, scripts=SCRIPTS) -> list[Path]:
    files = [p for package in packages for p in sorted((root / package).rglob("*.py"))]
    return files + [root / s for s in scripts if (root / s).exists()]


# ---- who builds a value ---------------------------------------------------------------------------
def builders(source: str, class_name: str) -> list[str]:
    """The functions (dotted, `<module>` at top level) that call `class_name(...)`: by its name,
    an alias it was imported as, or as an attribute (`interview.RubricOutcome(...)`)."""
    tree = ast.parse(source)
    names = {class_name} | {alias.asname for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                            for alias in node.names if alias.name == class_name and alias.asname}
    found = []

    def visit(node, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, child.name if scope == "<module>" else f"{scope}.{child.name}")
                continue
            if isinstance(child, ast.Call):
                func = child.func
                if (isinstance(func, ast.Name) and func.id in names) or (
                        isinstance(func, ast.Attribute) and func.attr == class_name):
                    found.append(scope)
            visit(child, scope)

    visit(tree, "<module>")
    return found


def project_builders(class_name: str, root: Path = ROOT, packages=PACKAGES) -> set[str]:
    return {f"{path.relative_to(root)}:{scope}" for path in python_files(root, packages)
            for scope in builders(path.read_text(encoding="utf-8"), class_name)}


def test_one_function_builds_a_rubric_outcome():
    assert project_builders("RubricOutcome") == {"tutor/interview.py:grade_ticks"}


def test_one_function_turns_a_session_into_an_attempt():
    in_sessions = {b for b in project_builders("NewAttempt", packages=("tutor/sessions", "app_pages"))}
    assert in_sessions == {"tutor/sessions/question_session.py:new_attempt"}


@pytest.mark.parametrize("source", [
    "from tutor.interview import RubricOutcome\ndef rebuild(d):\n    return RubricOutcome(**d)\n",
    "from tutor.interview import RubricOutcome as RO\nclass A:\n    def f(self):\n        return RO(1, 2, (), (), ())\n",
    "import tutor.interview as iv\nX = [iv.RubricOutcome(v, 0, (), (), ()) for v in 'ab']\n",
])
def test_a_second_builder_is_seen(source):
    assert builders(source, "RubricOutcome")


def test_a_builder_is_named_by_its_function():
    source = "class K:\n    def f(self):\n        def g():\n            return RubricOutcome()\n"
    assert builders(source, "RubricOutcome") == ["K.f.g"]


# ---- tutor/sessions imports no Streamlit ----------------------------------------------------------
def imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name the file imports, anywhere in it (functions and `TYPE_CHECKING` blocks
    included: a reader follows those too), relative imports made absolute."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return names


def streamlit_paths(start: str, modules: dict[str, Path]) -> list[list[str]]:
    """Import chains from `start` to a `streamlit…` package, through the project's modules (a
    module's packages count: importing `a.b.c` runs `a/__init__` and `a/b/__init__`)."""
    found, seen, todo = [], {start}, [[start]]
    while todo:
        chain = todo.pop()
        for name in sorted(imported_names(chain[-1], modules[chain[-1]])):
            if name.split(".")[0].startswith("streamlit"):
                found.append([*chain, name])
                continue
            parts = name.split(".")
            for n in range(1, len(parts) + 1):
                target = ".".join(parts[:n])
                if target in modules and target not in seen:
                    seen.add(target)
                    todo.append([*chain, target])
    return found


def test_tutor_sessions_imports_no_streamlit_at_any_depth():
    modules = project_modules(ROOT)
    sessions = sorted(m for m in modules if m == "tutor.sessions" or m.startswith("tutor.sessions."))
    assert "tutor.sessions.question_session" in sessions and "tutor.sessions.interview" in sessions
    found = {m: chains for m in sessions if (chains := streamlit_paths(m, modules))}
    assert found == {}, f"tutor/sessions reaches Streamlit (module -> import chains): {found}"


def test_streamlit_is_found_behind_a_function_and_a_package(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("import streamlit.components.v1\n")
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    from .b import g\n")
    (tmp_path / "pkg" / "b.py").write_text("from pkg.sub.c import x\n")
    (tmp_path / "pkg" / "sub" / "c.py").write_text("x = 1\n")
    modules = project_modules(tmp_path, packages=("pkg",))
    assert streamlit_paths("pkg.a", modules) == [
        ["pkg.a", "pkg.b", "pkg.sub", "streamlit.components.v1"]]


# ---- app_pages holds pages, widgets and the state module ------------------------------------------
def navigation_pages(init_source: str) -> set[str]:
    """The page scripts `app_pages.PAGES` lists (what `streamlit_app.py` gives `st.navigation`):
    the second argument of each `PageSpec(...)`."""
    return {node.args[1].value for node in ast.walk(ast.parse(init_source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PageSpec"
            and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)}


def stray_modules(pages_dir: Path) -> list[str]:
    """Modules under `pages_dir` that are neither a page, nor a widget, nor the state module."""
    allowed = {"__init__.py", "state.py"} | navigation_pages(
        (pages_dir / "__init__.py").read_text(encoding="utf-8"))
    return sorted(str(path.relative_to(pages_dir)) for path in pages_dir.rglob("*.py")
                  if path.relative_to(pages_dir).parts[0] != "widgets"
                  and str(path.relative_to(pages_dir)) not in allowed)


def test_streamlit_app_navigates_through_app_pages_PAGES():
    source = (ROOT / "streamlit_app.py").read_text(encoding="utf-8")
    assert "from app_pages import PAGES" in source and "st.navigation(" in source
    assert {"practice.py", "interview.py", "class_view.py"} <= navigation_pages(
        (ROOT / "app_pages" / "__init__.py").read_text(encoding="utf-8"))


def test_app_pages_holds_only_pages_widgets_and_the_state_module():
    assert stray_modules(ROOT / "app_pages") == []


def test_a_module_that_is_no_page_is_named(tmp_path):
    (tmp_path / "widgets").mkdir()
    (tmp_path / "flows").mkdir()
    (tmp_path / "__init__.py").write_text('PAGES = (PageSpec("nav.a", "a.py", "", "a", "s"),)\n')
    for name in ("a.py", "state.py", "widgets/w.py", "flows/logic.py", "helpers.py"):
        (tmp_path / name).write_text("")
    assert stray_modules(tmp_path) == ["flows/logic.py", "helpers.py"]
