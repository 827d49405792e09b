"""The shell: navigation built from the page table, the language switch and its URL mirror."""

import subprocess
import sys

import pytest

from app_pages import PAGES
from tests.app.shell_helpers import ROOT, open_app
from tutor.i18n import t


def nav_titles(at) -> list[str]:
    # The sidebar navigation is not an AppTest element; the shell's page titles are what st.Page got.
    return [t(spec.title_key, at.session_state["lang"]) for spec in PAGES]


def test_page_table_is_complete_and_unique():
    assert len({spec.url_path for spec in PAGES}) == len(PAGES)
    assert len({spec.file for spec in PAGES}) == len(PAGES)
    assert [spec.file for spec in PAGES if not spec.path.is_file()] == []


@pytest.mark.parametrize(("lang", "title"), [("en", "Explore"), ("zh", "交互探索")])
def test_lang_query_param_sets_the_language(lang, title):
    at = open_app("explore", lang)
    assert at.session_state["lang"] == lang
    assert at.title[0].value == title
    assert at.query_params["lang"] == lang


def test_language_switch_changes_strings_and_the_url():
    at = open_app("explore", "en")
    assert at.title[0].value == "Explore"
    at.sidebar.button_group[0].set_value("zh").run()
    assert not at.exception
    assert at.title[0].value == "交互探索"
    assert at.query_params["lang"] == "zh"
    assert at.header[0].value.startswith("输入与残差相加")
    at.sidebar.button_group[0].set_value("en").run()
    assert at.title[0].value == "Explore"
    assert at.query_params["lang"] == "en"


def test_language_survives_a_page_switch():
    at = open_app("explore", "en")
    at.sidebar.button_group[0].set_value("zh").run()
    at.switch_page("app_pages/exercises.py").run()
    assert not at.exception
    assert at.title[0].value == "计算题"
    assert nav_titles(at)[:2] == [t(s.title_key, "zh") for s in PAGES][:2]


def test_importing_the_shell_packages_does_not_import_torch_or_sympy():
    code = (
        "import sys, app_pages, app_pages.state, tutor, tutor.i18n, tutor.sessions.explore,"
        " tutor.sessions.exercises;"
        "heavy = {'torch', 'sympy'} & set(sys.modules); print(sorted(heavy)); sys.exit(bool(heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_upload_limit_matches_the_import_limit():
    # The uploader's limit (MB) is the import's own size limit, so it never accepts a file the
    # import would refuse for its size.
    import tomllib
    from pathlib import Path

    from tutor.transfer import MAX_IMPORT_BYTES

    config = tomllib.loads((Path(__file__).parents[2] / ".streamlit/config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 1024 * 1024 == MAX_IMPORT_BYTES
