"""Importing the project (and listing templates) never imports torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest


def torch_loaded_after(code: str) -> bool:
    probe = code + "\nimport sys\nprint('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    return result.stdout.strip().splitlines()[-1] == "True"


def test_import_compute_and_list_templates_stay_torch_free():
    assert not torch_loaded_after("import compute\ncompute.list_templates()\n"
                                  "import compute.series, compute.cli")


def test_cli_list_stays_torch_free():
    assert not torch_loaded_after("from compute.cli import main\nmain(['list'])")


def test_building_a_problem_loads_torch():
    # the probe can fail: this is what makes the two tests above meaningful
    assert torch_loaded_after("import compute\ncompute.generate('variance_of_sum', seed=1)")


@pytest.mark.parametrize("package", ["quizbank", "grader", "tutor"])
def test_other_packages_stay_torch_free(package):
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not importable yet")
    assert not torch_loaded_after(f"import {package}")
