"""compute is a leaf (design guide): it imports none of the project's other packages, nor the
app; only the shared contained-worker package below it. Imports are read from the source with
`ast`, every one of them (also those inside functions), so a lazy import cannot hide one."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "compute").rglob("*.py"))
OTHERS = {"grader", "quizbank", "tutor", "app_pages", "server_tuning", "streamlit"}


def top_level_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def test_the_walk_sees_the_imports():
    assert len(MODULES) > 10
    assert "contained" in top_level_imports(ROOT / "compute" / "worker.py")
    # a lazy import inside a function is seen too: the check can fail
    assert "compute" in top_level_imports(ROOT / "server_tuning" / "warm_up.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_compute_imports_no_other_package_of_the_project(path):
    assert not top_level_imports(path) & OTHERS
