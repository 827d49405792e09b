"""The modules the server loads and freezes at start-up exist, and none of them pulls in torch."""

import subprocess
import sys
from pathlib import Path

from app_pages.startup import PAGE_MODULES

ROOT = Path(__file__).resolve().parents[2]


def test_every_start_up_module_imports_and_torch_stays_out():
    code = (
        "import importlib, sys\n"
        f"for name in {list(PAGE_MODULES)!r}:\n"
        "    importlib.import_module(name)\n"
        "print('torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
