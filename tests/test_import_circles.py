"""No two modules of the project import each other, directly or round a longer circle, counting
imports inside functions (a function-level import hides a circle from Python, not from a reader:
issue 26). The graph is read from the code's syntax trees; nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app_pages", "tutor", "quizbank", "grader", "compute", "contained", "server_tuning")
SCRIPTS = ("streamlit_app.py",)


def project_modules(root: Path, packages=PACKAGES, scripts=SCRIPTS) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `packages` and the top-level `scripts`."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    for script in scripts:
        if (root / script).exists():
            found[Path(script).stem] = root / script
    return found


def _project_module(name: str, modules) -> str | None:
    # `from a.b import c`: c may be a module (a.b.c) or a name of a.b; the longest known prefix.
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules) -> set[str]:
    """The project modules that `module` imports anywhere in its file (functions included)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        targets |= {found for name in names if (found := _project_module(name, modules))}
    targets.discard(module)
    return targets


def import_graph(root: Path, packages=PACKAGES, scripts=SCRIPTS) -> dict[str, set[str]]:
    modules = project_modules(root, packages, scripts)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_module_of_the_project_is_in_an_import_circle():
    graph = import_graph(ROOT)
    found = circles(graph)
    described = [{m: sorted(graph[m] & set(group)) for m in group} for group in found]
    assert found == [], f"modules that import each other (module -> the others it imports): {described}"


def test_a_circle_hidden_in_a_function_and_a_relative_import_is_found(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.sub import b\n")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("def f():\n    from ..c import name\n")
    (tmp_path / "pkg" / "c.py").write_text("def g():\n    import pkg.a\n")
    (tmp_path / "pkg" / "d.py").write_text("from pkg import a\n")  # imports it, in no circle
    graph = import_graph(tmp_path, packages=("pkg",), scripts=())
    assert circles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_the_walk_reads_the_project_imports_it_must_see():
    graph = import_graph(ROOT)
    assert "app_pages.state" in graph["app_pages.widgets.auth"]  # at module level
    assert "app_pages.widgets.progress_store" in graph["app_pages.widgets.auth"]  # inside functions
    assert "server_tuning.streamlit_internals" in graph["server_tuning.first_page"]
