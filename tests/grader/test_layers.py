"""The grader's sub-packages follow its pipeline, one way only:

    reading -> values -> symbolic -> kinds -> the top level (api, cli, the contained worker)

A module may import its own stage, the stages before it and the shared foundation modules
(errors, messages, result), which import no stage. Imports are read from the source with `ast`,
every one of them (also those inside functions), so a lazy import cannot hide a dependency.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GRADER = ROOT / "grader"
FOUNDATION = ("grader.errors", "grader.messages", "grader.result")
STAGES = ("reading", "values", "symbolic", "kinds")
TOP_LEVEL = len(STAGES) + 1


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(GRADER.rglob("*.py"))}


def layer(module: str) -> int:
    """0 for the foundation, 1.. for the stages in pipeline order, TOP_LEVEL for the rest."""
    if module in FOUNDATION:
        return 0
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in STAGES:
        return 1 + STAGES.index(parts[1])
    return TOP_LEVEL


def imports_of(module: str) -> set[str]:
    """Every module named by an import statement in `module`, relative imports resolved."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            found.add(target)
            # `from . import parse_atoms` names a module, not an attribute of the package.
            found.update(f"{target}.{a.name}" for a in node.names
                         if f"{target}.{a.name}" in MODULES)
    return found


def grader_imports(module: str) -> set[str]:
    return {m for m in imports_of(module) if m == "grader" or m.startswith("grader.")}


def test_the_layout_is_the_pipeline():
    """The stages exist and each holds modules: a renamed package cannot pass by being empty."""
    for stage in STAGES:
        assert any(m.startswith(f"grader.{stage}.") for m in MODULES), stage
    assert len(MODULES) > 25  # the walk found the sources


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_later_stage(module):
    later = sorted(m for m in grader_imports(module) if layer(m) > layer(module))
    assert not later, f"{module} (layer {layer(module)}) imports {later}"


def test_the_check_sees_a_violation():
    """The rule above can fail: a stage importing a later one is caught."""
    assert layer("grader.kinds.request") > layer("grader.reading.parser")
    assert layer("grader.values.evaluate") > layer("grader.errors")
    assert "grader.reading.nodes" in grader_imports("grader.values.evaluate")
    assert "grader.kinds.request" in grader_imports("grader.worker_main")  # lazy, inside main()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_grader_stays_a_leaf(module):
    """The grader imports none of the project's other packages, nor the app or torch."""
    others = {"quizbank", "compute", "tutor", "app_pages", "streamlit", "torch"}
    assert not {m.split(".")[0] for m in imports_of(module)} & others


@pytest.mark.parametrize("module", sorted(MODULES))
def test_sympy_only_in_the_symbolic_stage(module):
    """sympy is for the bounded check in the contained worker (which also warms it up)."""
    if "sympy" in {m.split(".")[0] for m in imports_of(module)}:
        assert module.startswith("grader.symbolic.") or module == "grader.worker_main"


def import_cycle() -> list[str] | None:
    """One chain of modules that import each other in a circle, or None."""
    graph = {m: sorted(i for i in grader_imports(m) if i in MODULES and i != m) for m in MODULES}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for target in graph[module]:
            cycle = visit(target, path + [module])
            if cycle:
                return cycle
        done.add(module)
        return None

    return next((c for c in map(lambda m: visit(m, []), sorted(graph)) if c), None)


def test_no_two_modules_import_each_other():
    """Not even inside one stage (the parser is one module, not two that call each other)."""
    assert import_cycle() is None, " -> ".join(import_cycle())
