"""The first page's script run imports only what it draws (docs/server.md, "The first page").

The shell and the default page (Practice) run once in a fresh interpreter, with the start-up
warm-up held back; what is in `sys.modules` afterwards is what the first page waited for. The page
opens one plain question by its link: Practice picks a random one otherwise, and a generated
question's numbers come from the compute worker on a tuned server (here, untuned, torch would be
imported in this process: the test failed about one run in four).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.shell_helpers import ROOT
from tutor.store.engine import ENV_URL

FIRST_RUN = """
import json, sys
from server_tuning import first_page  # not enabled: no warm-up loads these behind the run's back
from tests.app.shell_helpers import open_app
at = open_app(lang={lang!r}, q="basics-residual-block-form")
assert at.title, "the first page drew nothing"
watched = ("numpy", "grader.api", "grader.reading.parser", "streamlit.emojis", "torch", "sympy")
print(json.dumps({{"loaded": sorted(name for name in watched if name in sys.modules),
                  "not preloaded": [m for m in first_page.FIRST_PAGE_MODULES if m not in sys.modules]}}))
"""


def first_run(lang: str, database: Path) -> dict:
    # A database of its own: the one this test process shares among its AppTests (shell_helpers)
    # holds earlier tests' scratch work, a typed answer whose preview loads the grader, and the
    # first page then restores it (failed in the whole suite, passed alone).
    env = {**os.environ, ENV_URL: f"sqlite:///{database}"}
    done = subprocess.run([sys.executable, "-c", FIRST_RUN.format(lang=lang)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_first_page_loads_what_the_preload_loads_and_nothing_heavier(lang, tmp_path):
    seen = first_run(lang, tmp_path / "progress.db")
    # `grader.Verdict` for the profile picker must not load numpy and the parser's tables, and the
    # "中文" option of the language switch must not load Streamlit's emoji table (0.1-0.4 s each).
    assert seen["loaded"] == []
    # Every module the server preloads for the first page is one that page uses (and exists).
    assert seen["not preloaded"] == []


def test_grader_public_names_resolve_lazily_and_stay_the_same():
    code = (
        "import importlib, sys, types\n"
        "import grader\n"
        "assert 'grader.api' not in sys.modules and 'numpy' not in sys.modules\n"
        "importlib.import_module('grader.mutants')  # the submodule first, as the warm-up may\n"
        "from grader import check, mutants, preview, warm_up, Result, Verdict\n"
        "import grader.api\n"
        "assert grader.check is grader.api.check and check is grader.api.check\n"
        "assert grader.mutants is sys.modules['grader.mutants'].mutants is mutants\n"
        "assert not isinstance(grader.mutants, types.ModuleType)\n"
        "assert set(grader.__all__) <= set(dir(grader))\n"
        "print(check({'kind': 'numeric', 'expected': 2, 'answer': '1+1'}).verdict)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "correct"
