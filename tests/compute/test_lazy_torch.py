"""Importing the project (and listing templates) never imports torch."""

from __future__ import annotations

import subprocess
import sys

import pytest


def torch_loaded_after(code: str, module: str = "torch") -> bool:
    probe = code + f"\nimport sys\nprint({module!r} in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    return result.stdout.strip().splitlines()[-1] == "True"


def test_import_compute_and_list_templates_stay_torch_free():
    assert not torch_loaded_after("import compute\ncompute.list_templates()\n"
                                  "import compute.series, compute.cli")


def test_cli_list_stays_torch_free():
    assert not torch_loaded_after("from compute.cli import main\nmain(['list'])")


def test_the_probe_can_fail():
    # what makes the tests above meaningful (shown with numpy: a torch import costs seconds)
    assert torch_loaded_after("import compute.series\ncompute.series.gradient_multiplier_curve"
                              "(0.5, 3)", module="numpy")
    assert not torch_loaded_after("import compute", module="numpy")


@pytest.mark.parametrize("package", ["quizbank", "grader", "tutor", "tutor.store", "app_pages",
                                     "tutor.sessions", "tutor.sessions.explore",
                                     "tutor.sessions.question_session"])
def test_other_packages_stay_torch_free(package):
    assert not torch_loaded_after(f"import {package}")
